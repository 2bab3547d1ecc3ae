// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/eagerneighbourhood.hpp"

#include <algorithm>
#include <unordered_set>

namespace nanscope::core {

EagerNeighbourhood eagerNeighbourhood(const Snapshot& snapshot, std::uint64_t execution,
                                      const EagerNeighbourhoodLimits& limits)
{
    EagerNeighbourhood n;
    n.execution = execution;
    const std::uint64_t count = snapshot.executionCount();
    if (execution >= count)
        return n;

    for (const std::int64_t id : snapshot.executionInputIds(execution))
        n.producers.push_back({id, std::nullopt});
    std::size_t open = n.producers.size();
    const std::uint64_t first = execution > limits.window ? execution - limits.window : 0;
    for (std::uint64_t e = execution; open > 0 && e-- > first;) {
        const std::vector<std::int64_t> outputs = snapshot.executionOutputIds(e);
        for (EagerEdge& edge : n.producers) {
            if (!edge.execution &&
                std::find(outputs.begin(), outputs.end(), edge.tensorId) != outputs.end()) {
                edge.execution = e;
                --open;
            }
        }
    }

    const std::vector<std::int64_t> outputs = snapshot.executionOutputIds(execution);
    std::unordered_set<std::int64_t> live(outputs.begin(), outputs.end());
    const std::uint64_t last = std::min(count, execution + 1 + limits.window);
    for (std::uint64_t e = execution + 1; e < last && !live.empty(); ++e) {
        for (const std::int64_t id : snapshot.executionInputIds(e)) {
            if (!live.contains(id))
                continue;
            if (n.consumers.size() == limits.maxConsumers) {
                n.consumersCut = true;
                return n;
            }
            n.consumers.push_back({id, e});
            break; // one edge per consumer
        }
        // Outputting an id again (an in-place op) ends the value this execution made; the
        // in-place op itself has just been counted as a consumer if it read it.
        for (const std::int64_t id : snapshot.executionOutputIds(e))
            live.erase(id);
    }
    return n;
}

} // namespace nanscope::core
