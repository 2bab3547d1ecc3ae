// SPDX-License-Identifier: Apache-2.0
// Identifiers and clocks shared by the writer's parts.
#pragma once

#include <string>

namespace nanscope::detail {

// A random UUID (version 4) in canonical 36-character form, as TensorFlow writes graph and
// stack-frame ids.
std::string makeUuid4();

// Eight lowercase hex digits: the first eight characters of a UUID4, as TensorFlow's run ids.
std::string makeRunId();

// This machine's host name ("localhost" if it cannot be read).
std::string localHostName();

// Seconds since the epoch with microsecond resolution, as TensorFlow stamps records.
double wallTimeSeconds();

} // namespace nanscope::detail
