// SPDX-License-Identifier: Apache-2.0
// Closes the recorders that are still open when the program exits normally.
#pragma once

#include <functional>

namespace nanscope::detail {

using ExitToken = unsigned long;

// `closeFn` runs once at normal exit unless unregistered first.
ExitToken registerAtExit(std::function<void()> closeFn);
void unregisterAtExit(ExitToken token);

} // namespace nanscope::detail
