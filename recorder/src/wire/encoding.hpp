// SPDX-License-Identifier: Apache-2.0
// The protobuf wire format, as much as the recorder writes: varints, fixed 64-bit doubles,
// length-delimited strings, packed repeated scalars and nested messages, each field written the
// way libprotobuf serialises it (fields in number order; proto3 scalars only when not zero).
//
// Hand-written because the recorder must not link libprotobuf: a process that loads it may hold
// another protobuf (PyTorch's and TensorFlow's wheels link their own, and export some of its
// symbols), and two protobufs in one process crashed the recorder. The reader keeps libprotobuf;
// tests check that these bytes are what libprotobuf writes for the same messages.
#pragma once

#include "nanscope/format/wirereader.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::detail::wire {

// The wire types, as the format's reader names them.
using format::wire::WireType;

constexpr std::size_t varintSize(std::uint64_t v)
{
    std::size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        ++n;
    }
    return n;
}

constexpr std::size_t tagSize(int field)
{
    return varintSize(static_cast<std::uint64_t>(field) << 3);
}

inline void putVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

inline void putTag(std::string& out, int field, WireType type)
{
    putVarint(out, (static_cast<std::uint64_t>(field) << 3) | static_cast<std::uint64_t>(type));
}

template <typename T>
void putLittleEndian(std::string& out, T value)
{
    static_assert(std::endian::native == std::endian::little, "the recorder writes little-endian");
    const auto* bytes = reinterpret_cast<const char*>(&value);
    out.append(bytes, sizeof value);
}

// An int32 or enum is written as its 64-bit sign extension, as protobuf does.
constexpr std::uint64_t varintOf(std::int64_t v)
{
    return static_cast<std::uint64_t>(v);
}

// ---- proto3 singular fields: nothing when zero or empty -------------------------------------

constexpr std::size_t varintFieldSize(int field, std::uint64_t v)
{
    return v == 0 ? 0 : tagSize(field) + varintSize(v);
}

inline void putVarintField(std::string& out, int field, std::uint64_t v)
{
    if (v == 0)
        return;
    putTag(out, field, WireType::Varint);
    putVarint(out, v);
}

inline std::size_t doubleFieldSize(int field, double v)
{
    return std::bit_cast<std::uint64_t>(v) == 0 ? 0 : tagSize(field) + 8;
}

inline void putDoubleField(std::string& out, int field, double v)
{
    if (std::bit_cast<std::uint64_t>(v) == 0)
        return;
    putTag(out, field, WireType::Fixed64);
    putLittleEndian(out, v);
}

constexpr std::size_t lengthFieldSize(int field, std::size_t length)
{
    return tagSize(field) + varintSize(length) + length;
}

inline std::size_t stringFieldSize(int field, std::string_view s)
{
    return s.empty() ? 0 : lengthFieldSize(field, s.size());
}

inline void putLengthField(std::string& out, int field, std::string_view bytes)
{
    putTag(out, field, WireType::LengthDelimited);
    putVarint(out, bytes.size());
    out.append(bytes);
}

inline void putStringField(std::string& out, int field, std::string_view s)
{
    if (!s.empty())
        putLengthField(out, field, s);
}

// ---- repeated fields -------------------------------------------------------------------------

inline std::size_t repeatedStringSize(int field, const std::vector<std::string>& values)
{
    std::size_t n = 0;
    for (const auto& v : values)
        n += lengthFieldSize(field, v.size());
    return n;
}

inline void putRepeatedString(std::string& out, int field, const std::vector<std::string>& values)
{
    for (const auto& v : values)
        putLengthField(out, field, v);
}

// Packed varints: int32 and enum values sign-extended, unsigned ones as they are.
template <typename T>
std::size_t packedVarintPayload(const std::vector<T>& values)
{
    std::size_t n = 0;
    for (const T v : values)
        n += varintSize(varintOf(static_cast<std::int64_t>(v)));
    return n;
}

template <>
inline std::size_t packedVarintPayload(const std::vector<std::uint64_t>& values)
{
    std::size_t n = 0;
    for (const auto v : values)
        n += varintSize(v);
    return n;
}

template <typename T>
std::size_t packedVarintSize(int field, const std::vector<T>& values)
{
    return values.empty() ? 0 : lengthFieldSize(field, packedVarintPayload(values));
}

template <typename T>
void putPackedVarint(std::string& out, int field, const std::vector<T>& values)
{
    if (values.empty())
        return;
    putTag(out, field, WireType::LengthDelimited);
    putVarint(out, packedVarintPayload(values));
    for (const T v : values) {
        if constexpr (std::is_same_v<T, std::uint64_t>)
            putVarint(out, v);
        else
            putVarint(out, varintOf(static_cast<std::int64_t>(v)));
    }
}

// Packed fixed-size values (float, double): their bytes as they are in memory.
template <typename T>
std::size_t packedFixedSize(int field, const std::vector<T>& values)
{
    return values.empty() ? 0 : lengthFieldSize(field, values.size() * sizeof(T));
}

template <typename T>
void putPackedFixed(std::string& out, int field, const std::vector<T>& values)
{
    if (values.empty())
        return;
    putLengthField(
        out, field,
        std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
}

} // namespace nanscope::detail::wire
