// SPDX-License-Identifier: GPL-3.0-or-later
// The byte-level encoding of a saved index (indexcache.cpp): little helpers that append numbers
// and strings to a buffer, and a reader that takes them back out of untrusted bytes. The reader
// never reads past its bytes and never sizes anything from a count before checking that the
// bytes left could hold that many elements; after the first failure every read returns zero.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace nanscope::core {

class ArchiveWriter
{
public:
    template <typename T>
    requires std::is_arithmetic_v<T>
    void put(T value) { m_bytes.append(reinterpret_cast<const char*>(&value), sizeof value); }
    void put(std::string_view s)
    {
        put<std::uint64_t>(s.size());
        m_bytes.append(s);
    }
    // A size as a count of what follows.
    void count(std::size_t n) { put<std::uint64_t>(n); }
    // Numbers in bulk: their count, then their bytes.
    template <typename T>
    requires std::is_arithmetic_v<T>
    void putArray(std::span<const T> values)
    {
        count(values.size());
        m_bytes.append(reinterpret_cast<const char*>(values.data()), values.size_bytes());
    }

    // An unsigned number in 7-bit groups, low first: small ones take a byte.
    void putVarint(std::uint64_t value)
    {
        while (value >= 0x80) {
            m_bytes.push_back(static_cast<char>(0x80 | (value & 0x7f)));
            value >>= 7;
        }
        m_bytes.push_back(static_cast<char>(value));
    }

    const std::string& bytes() const { return m_bytes; }

private:
    std::string m_bytes;
};

class ArchiveReader
{
public:
    explicit ArchiveReader(std::span<const std::byte> bytes) : m_bytes(bytes) {}

    bool ok() const { return !m_failed; }
    bool atEnd() const { return m_at == m_bytes.size(); }
    // Where the next read starts, and the bytes read since such a place: what a caller keeps to
    // read again later.
    std::size_t position() const { return m_at; }
    std::span<const std::byte> readSince(std::size_t from) const
    {
        return from <= m_at ? m_bytes.subspan(from, m_at - from) : std::span<const std::byte>{};
    }
    // Marks the archive as bad (a value read was impossible); every later read returns zero.
    void fail() { m_failed = true; }

    template <typename T>
    requires std::is_arithmetic_v<T> T get()
    {
        T value{};
        if (!take(sizeof value))
            return value;
        std::memcpy(&value, m_bytes.data() + m_at - sizeof value, sizeof value);
        return value;
    }
    // A number written by putVarint (at most ten bytes; more fails).
    std::uint64_t getVarint()
    {
        std::uint64_t value = 0;
        for (unsigned shift = 0; shift < 70; shift += 7) {
            const auto b = get<std::uint8_t>();
            value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if ((b & 0x80) == 0)
                return value;
        }
        fail();
        return 0;
    }
    bool getBool()
    {
        const auto b = get<std::uint8_t>();
        if (b > 1)
            fail();
        return b == 1;
    }
    std::string getString()
    {
        const auto size = get<std::uint64_t>();
        if (!take(size))
            return {};
        return std::string(reinterpret_cast<const char*>(m_bytes.data() + m_at - size), size);
    }
    // Bytes written as a string, where they lie (empty, and failed, when they are not whole).
    std::span<const std::byte> getBytes()
    {
        const auto size = get<std::uint64_t>();
        if (!take(size))
            return {};
        return m_bytes.subspan(m_at - size, size);
    }
    // Numbers written by putArray, into `values`; false (and failed) when the bytes left cannot
    // hold the count claimed.
    template <typename T>
    requires std::is_arithmetic_v<T>
    bool getArray(std::vector<T>& values)
    {
        const std::size_t n = count(sizeof(T));
        if (!take(n * sizeof(T)))
            return false;
        values.resize(n);
        if (n > 0) // an empty vector's data() may be null, which memcpy must not be given
            std::memcpy(values.data(), m_bytes.data() + m_at - n * sizeof(T), n * sizeof(T));
        return true;
    }
    // A count of elements that take at least `minBytes` each in what follows: one that the bytes
    // left cannot hold fails here, before anything is sized from it.
    std::size_t count(std::size_t minBytes = 1)
    {
        const auto n = get<std::uint64_t>();
        if (minBytes > 0 && n > (m_bytes.size() - m_at) / minBytes) {
            fail();
            return 0;
        }
        return static_cast<std::size_t>(n);
    }

private:
    bool take(std::uint64_t n)
    {
        if (m_failed || n > m_bytes.size() - m_at) {
            m_failed = true;
            return false;
        }
        m_at += static_cast<std::size_t>(n);
        return true;
    }

    std::span<const std::byte> m_bytes;
    std::size_t m_at = 0;
    bool m_failed = false;
};

} // namespace nanscope::core
