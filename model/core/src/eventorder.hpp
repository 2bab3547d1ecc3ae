// SPDX-License-Identifier: GPL-3.0-or-later
// Execution order over traces and executions (see origin.hpp): a merge by wall time of every
// trace file and the execution file, each kept in its own record order. Handed out as runs of
// consecutive indices of one source, so that walks over millions of traces stay tight loops.
#pragma once

#include "indexstate.hpp"

#include <cstdint>
#include <vector>

namespace nanscope::core {

struct EventRun
{
    EventSource source = EventSource::Graph;
    std::uint64_t begin = 0; // trace or execution indices [begin, end)
    std::uint64_t end = 0;
};

class EventOrder
{
public:
    explicit EventOrder(const Snapshot::Data& data);

    // The next run in execution order; false when every event was handed out.
    bool nextRun(EventRun& run);

private:
    struct Stream
    {
        EventSource source = EventSource::Graph;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges; // index ranges, in order
        std::size_t range = 0;
        std::uint64_t position = 0;

        bool done() const { return range >= ranges.size(); }
    };

    double wallTime(const Stream& s, std::uint64_t index) const;
    void advance(Stream& s, std::uint64_t to);

    const Snapshot::Data& m_data;
    std::vector<Stream> m_streams; // trace files in file order, then executions
};

} // namespace nanscope::core
