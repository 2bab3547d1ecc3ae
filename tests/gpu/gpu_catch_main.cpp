// Catch2's main for the GPU tests: a run whose selected tests all need a device ([gpu]) exits
// with kSkipped when there is none, so that ctest reports those tests as skipped, not passed.
#define CATCH_CONFIG_RUNNER
#include "nanscope/gpu/device.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>

namespace {

// ctest's SKIP_RETURN_CODE for these tests (the Automake convention).
constexpr int kSkipped = 77;

bool needsDevice(const Catch::TestCase& test)
{
    const auto& tags = test.getTestCaseInfo().tags;
    return std::find(tags.begin(), tags.end(), "gpu") != tags.end();
}

} // namespace

int main(int argc, char** argv)
{
    Catch::Session session;
    if (const int status = session.applyCommandLine(argc, argv); status != 0)
        return status;
    Catch::Config& config = session.config();
    const bool listing = config.listTests() || config.listTestNamesOnly() || config.listTags() ||
                         config.listReporters();
    if (!listing && !nanscope::gpu::available()) {
        const auto selected =
            Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
        if (!selected.empty() && std::all_of(selected.begin(), selected.end(), needsDevice)) {
            std::printf("SKIPPED: no CUDA device (%s); %zu [gpu] test(s) not run\n",
                        nanscope::gpu::deviceDescription().c_str(), selected.size());
            return kSkipped;
        }
    }
    return session.run();
}
