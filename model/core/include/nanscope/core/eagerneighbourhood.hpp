// SPDX-License-Identifier: GPL-3.0-or-later
// An eager execution's neighbourhood through tensor ids: the executions that produced its inputs
// and those that consumed its outputs. Eager runs have no graph; this is their Graph Structure.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace nanscope::core {

struct EagerEdge
{
    std::int64_t tensorId = 0;
    std::optional<std::uint64_t> execution; // none: no recorded execution output it (a leaf)
};

struct EagerNeighbourhood
{
    std::uint64_t execution = 0;
    std::vector<EagerEdge> producers; // one per input id, in input order
    std::vector<EagerEdge> consumers; // later executions reading one of its outputs, in order
    bool consumersCut = false;        // more consumers than asked for
};

struct EagerNeighbourhoodLimits
{
    std::size_t maxConsumers = 12;
    // How many executions are scanned each way: the scan reads the index, so panels run it in
    // a SnapshotJob, and a bounded one stays quick in logdirs of millions of executions.
    std::uint64_t window = 200000;
};

// A producer is the latest execution before `execution` that output the input's id; a consumer
// reads one of its output ids before another execution outputs that id again (an in-place op
// keeps its tensor's id).
EagerNeighbourhood eagerNeighbourhood(const Snapshot& snapshot, std::uint64_t execution,
                                      const EagerNeighbourhoodLimits& limits = {});

} // namespace nanscope::core
