// SPDX-License-Identifier: GPL-3.0-or-later
#include "hostlogdirs.hpp"

#include <chrono>
#include <cmath>
#include <thread>

namespace nanscope::test {

Result<std::unique_ptr<Recorder>> openHost(const std::filesystem::path& dir, const char* runId,
                                           const char* host, TensorDebugMode mode)
{
    return Recorder::open({.dumpRoot = dir,
                           .mode = mode,
                           .circularBufferSize = -1,
                           .runId = runId,
                           .hostName = host,
                           .closeAtExit = false});
}

Result<std::unique_ptr<Recorder>> openSecondHost(const std::filesystem::path& dir,
                                                 const char* runId, const char* host,
                                                 TensorDebugMode mode)
{
    // File sets are ordered by the time in their names: a later one is the second host.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return openHost(dir, runId, host, mode);
}

bool writeTwoHostExecutions(const std::filesystem::path& dir)
{
    auto a = openHost(dir, "two-hosts", "host-a");
    if (!a.ok())
        return false;
    auto b = openSecondHost(dir, "two-hosts", "host-b");
    if (!b.ok())
        return false;
    const std::int64_t shape[1] = {2};
    const float good[2] = {1.0F, 2.0F};
    const float negInf[2] = {-INFINITY, 2.0F};
    const float nan[2] = {NAN, 2.0F};
    const auto record = [&](Recorder& r, const char* op, const float* data) {
        return r
            .recordExecution({.opType = op,
                              .outputIds = {r.newTensorId()},
                              .outputs = {{.data = data, .shape = shape}}})
            .ok();
    };
    return record(**a, "Exp", good) && record(**b, "Sqrt", good) && record(**a, "Log", negInf) &&
           record(**b, "Div", nan) && record(**b, "Add", good) && (*b)->close().ok() &&
           (*a)->close().ok();
}

bool writeNaNOnSecondRank(const std::filesystem::path& dir)
{
    auto rank0 = openHost(dir, "job", "node-rank0");
    if (!rank0.ok())
        return false;
    auto rank1 = openSecondHost(dir, "job", "node-rank1");
    if (!rank1.ok())
        return false;
    const std::int64_t shape[1] = {2};
    const float good[2] = {1.0F, 2.0F};
    const float nan[2] = {NAN, 2.0F};
    const auto record = [&](Recorder& r, const char* op, const float* data) {
        return r
            .recordExecution({.opType = op,
                              .outputIds = {r.newTensorId()},
                              .outputs = {{.data = data, .shape = shape}}})
            .ok();
    };
    return record(**rank0, "aten::mm", good) && record(**rank1, "aten::mm", good) &&
           record(**rank1, "aten::div", nan) && record(**rank0, "aten::add", good) &&
           (*rank1)->close().ok() && (*rank0)->close().ok();
}

} // namespace nanscope::test
