// SPDX-License-Identifier: GPL-3.0-or-later
// The distinct strings of one chunk's records, numbered on the pool thread that decodes the
// chunk, so that the thread stitching chunks into the index interns each of them once per chunk
// rather than hashing or comparing every record's text: that thread is the reading's critical
// path, and a training step's executions repeat a handful of op types, graphs and modules.
#pragma once

#include "stringpool.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nanscope::core {

class ChunkStrings
{
public:
    // The kinds of string a record has, each numbered apart.
    static constexpr std::size_t kKinds = 3;

    // The number of `text` among the chunk's strings of `kind`, numbered in order of first
    // appearance. The text must live as long as the chunk's buffer (a view into it).
    std::uint32_t number(std::size_t kind, std::string_view text)
    {
        Kind& k = m_kinds[kind];
        // Repeats are the common case: no hashing for them.
        if (!k.texts.empty() && k.texts[k.last] == text)
            return k.last;
        const auto [it, added] = k.numbers.try_emplace(text, k.texts.size());
        if (added)
            k.texts.push_back(text);
        k.last = it->second;
        return it->second;
    }

    std::string_view text(std::size_t kind, std::uint32_t number) const
    {
        return m_kinds[kind].texts[number];
    }
    std::size_t count(std::size_t kind) const { return m_kinds[kind].texts.size(); }

    // Empty for another chunk; the memory stays.
    void clear()
    {
        for (Kind& k : m_kinds) {
            k.texts.clear();
            k.numbers.clear();
            k.last = 0;
        }
    }

private:
    struct Kind
    {
        std::vector<std::string_view> texts;
        std::unordered_map<std::string_view, std::uint32_t> numbers;
        std::uint32_t last = 0;
    };
    std::array<Kind, kKinds> m_kinds;
};

// A chunk's string numbers as StringPool ids, each interned the first time a stitched record
// uses it: a string of a record that is never stitched (past a stop) stays out of the pool.
class ChunkStringIds
{
public:
    void reset(const ChunkStrings& strings)
    {
        m_strings = &strings;
        for (std::size_t kind = 0; kind < ChunkStrings::kKinds; ++kind)
            m_ids[kind].assign(strings.count(kind), kUnknown);
    }

    std::uint32_t id(StringPool& pool, std::size_t kind, std::uint32_t number)
    {
        std::uint32_t& id = m_ids[kind][number];
        if (id == kUnknown)
            id = pool.intern(m_strings->text(kind, number));
        return id;
    }

private:
    static constexpr std::uint32_t kUnknown = std::numeric_limits<std::uint32_t>::max();
    const ChunkStrings* m_strings = nullptr;
    std::array<std::vector<std::uint32_t>, ChunkStrings::kKinds> m_ids;
};

} // namespace nanscope::core
