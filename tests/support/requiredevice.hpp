// SPDX-License-Identifier: GPL-3.0-or-later
// The guards at the top of tests that need a CUDA device, or need its absence.
#pragma once

#include "nanscope/gpu/device.hpp"

#include <catch2/catch.hpp>

// The first line of every [gpu] test. Under ctest, device_catch_main skips them by exit status;
// a run of the whole executable without a device says so here and passes over the test.
#define NANSCOPE_REQUIRE_DEVICE()                                                                  \
    do {                                                                                           \
        if (!nanscope::gpu::available()) {                                                         \
            WARN("SKIPPED: no CUDA device: " << nanscope::gpu::deviceDescription());               \
            return;                                                                                \
        }                                                                                          \
    } while (false)

// The first line of tests of what happens without a device; on a GPU machine they have
// nothing to check.
#define NANSCOPE_REQUIRE_NO_DEVICE()                                                               \
    do {                                                                                           \
        if (nanscope::gpu::available()) {                                                          \
            WARN("SKIPPED: a CUDA device is present");                                             \
            return;                                                                                \
        }                                                                                          \
    } while (false)
