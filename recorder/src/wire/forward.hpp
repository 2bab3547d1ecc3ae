// SPDX-License-Identifier: Apache-2.0
// The recorder's message classes (wire/messages.hpp), declared for headers that only pass them
// by pointer or reference.
#pragma once

namespace nanscope::detail::wire {
class DebugEvent;
class Execution;
class TensorProto;
struct TraceFrame;
} // namespace nanscope::detail::wire
