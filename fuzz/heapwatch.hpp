// SPDX-License-Identifier: GPL-3.0-or-later
// The heap's peak during one fuzz input, so that a target can tell amplification (a small input
// that makes the reader allocate far more than its memory limit) from normal use and abort on it.
// libFuzzer's -malloc_limit_mb sees single allocations only, and -rss_limit_mb the whole
// process; millions of small allocations from one small input are neither.
//
// Measured with AddressSanitizer's allocator hooks; in builds without it (the replay programs)
// available() is false and the peak is 0.
#pragma once

#include <cstdint>

namespace nanscope::fuzz {

class HeapWatch
{
public:
    static bool available();
    // Starts a measurement: the peak from here on, above the bytes live now.
    static void start();
    static std::uint64_t peakGrowth();
};

} // namespace nanscope::fuzz
