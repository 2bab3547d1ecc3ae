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

namespace {

// Two-element float tensors, one per kind of value the multi-host logdirs record.
constexpr std::int64_t kShape[1] = {2};
const float kGood[2] = {1.0F, 2.0F};
const float kNegInf[2] = {-INFINITY, 2.0F};
const float kNaN[2] = {NAN, 2.0F};

// One eager op with one output, recorded from this file's call site.
bool record(Recorder& r, const char* op, const float* data)
{
    return r
        .recordExecution({.opType = op,
                          .outputIds = {r.newTensorId()},
                          .outputs = {{.data = data, .shape = kShape}}})
        .ok();
}

} // namespace

bool writeTwoHostExecutions(const std::filesystem::path& dir)
{
    auto a = openHost(dir, "two-hosts", "host-a");
    if (!a.ok())
        return false;
    auto b = openSecondHost(dir, "two-hosts", "host-b");
    if (!b.ok())
        return false;
    return record(**a, "Exp", kGood) && record(**b, "Sqrt", kGood) && record(**a, "Log", kNegInf) &&
           record(**b, "Div", kNaN) && record(**b, "Add", kGood) && (*b)->close().ok() &&
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
    return record(**rank0, "aten::mm", kGood) && record(**rank1, "aten::mm", kGood) &&
           record(**rank1, "aten::div", kNaN) && record(**rank0, "aten::add", kGood) &&
           (*rank1)->close().ok() && (*rank0)->close().ok();
}

} // namespace nanscope::test
