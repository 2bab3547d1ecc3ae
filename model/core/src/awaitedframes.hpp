// SPDX-License-Identifier: GPL-3.0-or-later
// The executions whose code locations named stack frame ids that the index did not have when
// they were read. Stack frames are read before executions, so in a logdir read whole these name
// frames that nobody wrote. A follower also reads executions whose frames are written a moment
// later: once those frames are read, the executions stop counting, as they never counted for a
// reader that opened the logdir afterwards. The index keeps no execution's frame ids, so the
// locations are kept here: in read order, as runs of executions with the same location.
#pragma once

#include "indexarchive.hpp"
#include "nanscope/core/codetable.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nanscope::core {

// Whether a CodeLocation's bytes name a stack frame id that `code` lacks (the first in `id`).
bool namesUnknownFrame(std::string_view codeLocation, const CodeTable& code, std::string_view& id);

class AwaitedFrames
{
public:
    // Distinct locations kept. Past them the executions are counted as read and never recounted
    // (complete() is false): a logdir naming this many missing frames is broken, not early.
    static constexpr std::size_t kMaxLocations = 1024;

    // The next execution read, whose location named an unknown frame.
    void note(std::string_view codeLocation);

    bool empty() const { return m_runs.empty(); }
    std::uint64_t executions() const; // those kept
    // Whether every execution noted is kept.
    bool complete() const { return m_complete; }

    // Forgets the executions whose locations name only frames that `code` has now, and calls
    // `stillUnknown(frameId, executions)` for each run of the others, in read order.
    template <typename F>
    void resolve(const CodeTable& code, const F& stillUnknown)
    {
        std::vector<Run> kept;
        for (const Run& run : m_runs) {
            std::string_view id;
            if (namesUnknownFrame(m_locations[run.location], code, id)) {
                stillUnknown(id, run.executions);
                kept.push_back(run);
            }
        }
        m_runs = std::move(kept);
        forgetUnusedLocations();
    }

    // In a saved index. load() is false for bytes that no save() wrote, or for a whole list that
    // does not hold the `counted` executions the index counts as naming unknown frames.
    void save(ArchiveWriter& w) const;
    bool load(ArchiveReader& r, std::uint64_t counted);

private:
    struct Run
    {
        std::uint32_t location = 0; // into m_locations
        std::uint64_t executions = 0;
    };
    std::uint32_t locationIndex(std::string_view codeLocation);
    // Drops the locations no run names any more: the cap counts those still awaited, not every
    // one a long follow ever waited for.
    void forgetUnusedLocations();

    std::vector<std::string> m_locations;
    std::unordered_map<std::string, std::uint32_t> m_locationIndex;
    std::vector<Run> m_runs;
    bool m_complete = true;
};

} // namespace nanscope::core
