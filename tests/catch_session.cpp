// SPDX-License-Identifier: GPL-3.0-or-later
// Catch2's implementation, compiled once for every test executable: it is the slowest file of
// the test suite to compile.
#define CATCH_CONFIG_RUNNER
#include "catch_session.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>

namespace nanscope::test {
namespace {

bool isListing(const Catch::Config& config)
{
    return config.listTests() || config.listTestNamesOnly() || config.listTags() ||
           config.listReporters();
}

bool allSelectedCarry(const Catch::Config& config, const std::string& tag)
{
    const auto selected =
        Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
    return !selected.empty() && std::all_of(selected.begin(), selected.end(), [&](const auto& t) {
        const auto& tags = t.getTestCaseInfo().tags;
        return std::find(tags.begin(), tags.end(), tag) != tags.end();
    });
}

} // namespace

int runCatch(int argc, char** argv, const SkipRule* skip)
{
    Catch::Session session;
    if (const int status = session.applyCommandLine(argc, argv); status != 0)
        return status;
    Catch::Config& config = session.config();
    if (skip != nullptr && !isListing(config) && allSelectedCarry(config, skip->tag)) {
        if (const std::string reason = skip->reasonToSkip(); !reason.empty()) {
            std::printf("SKIPPED: %s; the [%s] test(s) were not run\n", reason.c_str(),
                        skip->tag.c_str());
            return kSkipped;
        }
    }
    return session.run();
}

} // namespace nanscope::test
