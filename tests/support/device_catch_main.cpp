// SPDX-License-Identifier: GPL-3.0-or-later
// Catch2's main for the executables with [gpu] tests (tests/gpu, tests/recorder): a run whose
// selected tests all need a device ([gpu]) is reported as skipped, not passed, when there is none.
#include "catch_session.hpp"
#include "nanscope/gpu/device.hpp"

int main(int argc, char** argv)
{
    const nanscope::test::SkipRule noDevice{
        "gpu", [] {
            return nanscope::gpu::available()
                       ? std::string()
                       : "no CUDA device (" + nanscope::gpu::deviceDescription() + ")";
        }};
    return nanscope::test::runCatch(argc, argv, &noDevice);
}
