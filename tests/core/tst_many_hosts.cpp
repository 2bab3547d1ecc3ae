// SPDX-License-Identifier: GPL-3.0-or-later
// A logdir of many hosts keeps a few files open per host: nanscope-report reads one under a
// lowered soft limit of open files (`ulimit -Sn`) without running out of them, and under a hard
// limit below what the logdir needs (`ulimit -n`), by closing each file once it is read.
#include "childrun.hpp"
#include "hostlogdirs.hpp"
#include "reportcommand.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <sys/resource.h>

using namespace nanscope;

namespace {

constexpr int kHosts = 150; // about two files each are read: past 256

void writeManyHosts(const std::filesystem::path& dir)
{
    const std::int64_t shape[1] = {2};
    const float good[2] = {1.0F, 2.0F};
    for (int h = 0; h < kHosts; ++h) {
        const std::string host = "host-" + std::to_string(1000 + h);
        auto r = test::openHost(dir, "many", host.c_str());
        REQUIRE(r.ok());
        REQUIRE((*r)->recordExecution({.opType = "Exp",
                                       .outputIds = {(*r)->newTensorId()},
                                       .outputs = {{.data = good, .shape = shape}}})
                    .ok());
        REQUIRE((*r)->close().ok());
    }
}

// In a child process: nanscope-report on `dir` under `limit`. 0 when it read every host and
// found nothing wrong; otherwise what failed.
int reportUnder(rlimit limit, const std::filesystem::path& dir)
{
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 10;
    const test::ReportRun run = test::runReport("--no-index-cache " + test::shellQuoted(dir));
    if (run.output.find("Too many open files") != std::string::npos)
        return 11;
    if (run.output.find("host-" + std::to_string(1000 + kHosts - 1)) == std::string::npos)
        return 12; // every host read
    return run.status == 0 ? 0 : 20 + run.status;
}

} // namespace

TEST_CASE("nanscope-report reads a logdir of many hosts under a low soft limit of open files",
          "[report][hosts]")
{
    test::TempDir dir;
    writeManyHosts(dir.path());
    const auto result = test::runInChild(120, [&] {
        rlimit limit{};
        if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_max < 4096)
            return 0; // a hard limit this low leaves nothing to raise to: not what is tested
        limit.rlim_cur = 256;
        return reportUnder(limit, dir.path());
    });
    CHECK(result.code == 0);
}

TEST_CASE("nanscope-report reads a logdir of many hosts under a hard limit it cannot raise",
          "[report][hosts]")
{
    test::TempDir dir;
    writeManyHosts(dir.path());
    const auto result = test::runInChild(120, [&] {
        // 128 for everything: the logdir has 300 trace and execution files to read.
        return reportUnder(rlimit{128, 128}, dir.path());
    });
    CHECK(result.code == 0);
}
