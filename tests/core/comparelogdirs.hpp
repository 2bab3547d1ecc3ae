// SPDX-License-Identifier: GPL-3.0-or-later
// Runs written record by record for the comparison of two runs (core/runcompare.hpp): each op of
// a list becomes one FULL_HEALTH execution (PyTorch-like, with its module path) or one trace of
// graph "train", 10 ms apart, in the list's order.
#pragma once

#include "logdirbuilder.hpp"

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace nanscope::test {

// fullHealth's six counts; four positive elements by default.
struct Counts
{
    double negInf = 0;
    double posInf = 0;
    double nan = 0;
    double negative = 0;
    double zero = 0;
    double positive = 4;
    double size() const { return negInf + posInf + nan + negative + zero + positive; }
};

struct CompareOp
{
    std::string type;
    std::string name;   // a trace's op name; empty for an execution
    std::string module; // an execution's module path
    Counts counts = {};
    // An execution reads the output of the execution before it, unless it starts a chain (a
    // step's first layer reads a new batch): the origin's analysis then sees who made what, a
    // mask's -inf and who absorbed it, and no step's -inf is absorbed by the next step.
    bool readsPrevious = true;
};

inline CompareOp eagerOp(std::string type, std::string module = {}, Counts counts = {},
                         bool readsPrevious = true)
{
    return {std::move(type), {}, std::move(module), counts, readsPrevious};
}

inline CompareOp graphOp(std::string type, std::string name, Counts counts = {})
{
    return {std::move(type), std::move(name), {}, counts, false};
}

// `runId` also names the graph's id, so that two runs' ids differ as TensorFlow's do.
inline void writeCompareRun(const std::filesystem::path& dir, const std::vector<CompareOp>& ops,
                            const std::string& runId = "run")
{
    using namespace events;
    constexpr int kFullHealth = 4;
    FileSetWriter set(dir);
    set.createAll();
    set.writeMetadata(1.0, runId);
    const std::string graphId = "graph-" + runId;
    set.append("graphs", graph(graphId, "train"));
    std::set<std::string> declared;
    std::int64_t nextId = 1;
    std::int64_t lastOutput = 0;
    double wall = 2.0;
    for (const CompareOp& op : ops) {
        const Counts& c = op.counts;
        const auto health = fullHealth(static_cast<double>(nextId), c.size(), c.negInf, c.posInf,
                                       c.nan, c.negative, c.zero, c.positive);
        if (op.name.empty()) {
            std::vector<std::int64_t> inputs;
            if (op.readsPrevious && lastOutput > 0)
                inputs.push_back(lastOutput);
            auto event = execution(wall, op.type, inputs, {nextId}, kFullHealth, {health});
            lastOutput = nextId;
            if (!op.module.empty())
                event.mutable_execution()->mutable_framework_context()->set_module_path(op.module);
            set.append("execution", event);
        } else {
            if (declared.insert(op.name).second)
                set.append("graphs",
                           events::op(graphId, op.type, op.name, {}, {static_cast<int>(nextId)}));
            set.append("graph_execution_traces",
                       trace(wall, graphId, op.name, 0, kFullHealth, health));
        }
        ++nextId;
        wall += 0.01;
    }
}

} // namespace nanscope::test
