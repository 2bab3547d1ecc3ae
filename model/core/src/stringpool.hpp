// SPDX-License-Identifier: GPL-3.0-or-later
// Interned strings with 32-bit ids. The strings live in shared chunks (see chunkedarray.hpp), so
// a snapshot's string_views stay valid while the reader adds more.
#pragma once

#include "chunkedarray.hpp"
#include "nanscope/core/graphtable.hpp"

#include <string>
#include <string_view>

namespace nanscope::core {

class StringPool
{
public:
    StringPool() { intern({}); } // id 0 is the empty string

    std::uint32_t intern(std::string_view s)
    {
        if (auto it = m_ids.find(s); it != m_ids.end())
            return it->second;
        const auto id = static_cast<std::uint32_t>(m_strings.size());
        m_strings.push_back(std::string(s));
        m_ids.emplace(m_strings[id], id);
        m_bytes += sizeof(std::string) + 2 * s.size() + 64; // the pool's copy and the map's key
        return id;
    }

    // About how many bytes the pool holds, for the reader's memory limit.
    std::uint64_t approxBytes() const { return m_bytes; }

    // The readable part, shared with snapshots.
    const ChunkedArray<std::string, 10>& strings() const { return m_strings; }

private:
    ChunkedArray<std::string, 10> m_strings;
    StringMap<std::uint32_t> m_ids;
    std::uint64_t m_bytes = 0;
};

} // namespace nanscope::core
