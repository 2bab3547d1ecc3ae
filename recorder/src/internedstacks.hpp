// SPDX-License-Identifier: Apache-2.0
// Call stacks registered once (Recorder::internStack) and named by index from then on, each
// kept as the stack frame ids its records list.
#pragma once

#include "codelocations.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/status.hpp"

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace nanscope::detail {

class InternedStacks
{
public:
    // The frame ids of a record's stack: shared, so that a record copies no list.
    using Frames = std::shared_ptr<const std::vector<std::string>>;

    // Writes the stack's frames (through `locations`, once each) and keeps their ids.
    Result<StackId> intern(CodeLocations& locations, std::span<const CodeLocation> stack);

    // The frame ids of an interned stack; InvalidArgument for an id it never gave.
    Result<Frames> frameIds(StackId id) const;
    // Keeps the stacks themselves from now on (a stop's message names their frames): off by
    // default, since a Python program's stacks take kilobytes each.
    void keepLocations() { m_keepLocations = true; }
    // The stack itself, as it was interned with keepLocations on (an empty one otherwise).
    using Locations = std::shared_ptr<const std::vector<CodeLocation>>;
    Result<Locations> locations(StackId id) const;

    // Frame ids computed for one record, in the shape of interned ones.
    static Result<Frames> shared(Result<std::vector<std::string>> ids);

private:
    struct Interned
    {
        Frames frames;
        Locations locations;
    };
    Result<Interned> entry(StackId id) const; // InvalidArgument for an id it never gave

    mutable std::mutex m_mutex;
    std::vector<Interned> m_stacks;
    bool m_keepLocations = false; // set before the first record call
};

} // namespace nanscope::detail
