// SPDX-License-Identifier: GPL-3.0-or-later
// Finding the next whole record after a corrupt one, so that one flipped byte does not hide the
// rest of a file (TensorFlow's reader stops there for good).
#pragma once

#include "filehandle.hpp"

#include <cstdint>
#include <optional>

namespace nanscope::core {

struct ResyncLimits
{
    std::uint64_t maxPayload = format::kMaxRecordPayload;
    // Payload bytes checked for candidates whose length field passes its CRC but whose payload
    // does not. Garbage passes the length CRC once in 2^32 positions, so only a file crafted to
    // be slow gets here; past this budget the search gives up.
    std::uint64_t maxCandidateBytes = std::uint64_t{256} << 20;
};

struct ResyncResult
{
    std::optional<std::uint64_t> next; // where the next whole record starts
    bool gaveUp = false;               // the candidate budget ran out first
    // Without `next`: no record starts in (from, searchedTo), whatever is appended later, so a
    // later search of the same growing file can start there instead of rescanning.
    std::uint64_t searchedTo = 0;
};

// Searches (from, end) for the first offset where a whole record lies before `end`: its length
// field passes its CRC, is at most `maxPayload`, and its payload passes its CRC. Linear in the
// bytes searched: each position costs one 8-byte CRC, plus the bounded candidate checks.
ResyncResult findNextRecord(const FileHandle& file, std::uint64_t from, std::uint64_t end,
                            const ResyncLimits& limits = {});

} // namespace nanscope::core
