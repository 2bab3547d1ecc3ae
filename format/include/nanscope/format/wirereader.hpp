// SPDX-License-Identifier: Apache-2.0
// A minimal protobuf wire-format reader, for the reader and the recorder alike.
//
// Why not libprotobuf: a large logdir holds ten million graph execution traces, and building a
// DebugEvent message (allocations, string copies, a TensorProto) for each costs several times
// the whole budget of reading them; and the recorder links no protobuf at all (it loads into
// processes that carry their own). This reader walks the bytes in place, allocates nothing and
// never reads outside its input: the reader's trace and execution decoders use it for the few
// fields the index keeps (libprotobuf still decodes the rare record types and the full details
// on demand), the recorder for the run id of a dump root's existing metadata.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace nanscope::format::wire {

enum class WireType : std::uint8_t {
    Varint = 0,
    Fixed64 = 1,
    LengthDelimited = 2,
    StartGroup = 3, // obsolete; not accepted
    EndGroup = 4,   // obsolete; not accepted
    Fixed32 = 5,
};

struct Field
{
    std::uint32_t number = 0;
    WireType type = WireType::Varint;
    std::uint64_t value = 0; // varint, fixed64 or fixed32 payload
    std::string_view bytes;  // length-delimited payload

    double asDouble() const
    {
        double d;
        std::memcpy(&d, &value, sizeof d);
        return d;
    }
    float asFloat() const
    {
        const auto bits = static_cast<std::uint32_t>(value);
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }
};

class Reader
{
public:
    explicit Reader(std::string_view bytes)
        : m_p(reinterpret_cast<const std::uint8_t*>(bytes.data())), m_end(m_p + bytes.size())
    {}

    bool atEnd() const { return m_p == m_end; }
    // True after a malformed field: the message is not valid protobuf.
    bool failed() const { return m_failed; }

    // Reads the next field; false at the end of the input or on malformed input.
    bool next(Field& field)
    {
        if (m_p == m_end || m_failed)
            return false;
        std::uint64_t tag;
        if (!varint(tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
            return fail();
        field.number = static_cast<std::uint32_t>(tag >> 3);
        field.type = static_cast<WireType>(tag & 7);
        switch (field.type) {
        case WireType::Varint:
            return varint(field.value) || fail();
        case WireType::Fixed64:
            if (m_end - m_p < 8)
                return fail();
            std::memcpy(&field.value, m_p, 8);
            m_p += 8;
            return true;
        case WireType::Fixed32: {
            if (m_end - m_p < 4)
                return fail();
            std::uint32_t v;
            std::memcpy(&v, m_p, 4);
            field.value = v;
            m_p += 4;
            return true;
        }
        case WireType::LengthDelimited: {
            std::uint64_t length;
            if (!varint(length) || length > static_cast<std::uint64_t>(m_end - m_p))
                return fail();
            field.bytes = {reinterpret_cast<const char*>(m_p), static_cast<std::size_t>(length)};
            m_p += length;
            return true;
        }
        case WireType::StartGroup:
        case WireType::EndGroup:
            break;
        }
        return fail();
    }

    // Reads one varint from the remaining bytes (for packed repeated fields).
    bool varint(std::uint64_t& out)
    {
        if (m_p != m_end && *m_p < 0x80) [[likely]] { // tags, lengths and flags mostly fit a byte
            out = *m_p++;
            return true;
        }
        std::uint64_t result = 0;
        for (int shift = 0; shift < 64 && m_p != m_end; shift += 7) {
            const std::uint8_t byte = *m_p++;
            result |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0) {
                out = result;
                return true;
            }
        }
        return false;
    }

private:
    bool fail()
    {
        m_failed = true;
        return false;
    }

    const std::uint8_t* m_p;
    const std::uint8_t* m_end;
    bool m_failed = false;
};

// Calls `f(value)` for each element of a repeated varint field, packed or not. Returns false on
// malformed input.
template <typename F>
bool forEachVarint(const Field& field, F&& f)
{
    if (field.type == WireType::Varint) {
        f(field.value);
        return true;
    }
    if (field.type != WireType::LengthDelimited)
        return false;
    Reader packed(field.bytes);
    std::uint64_t v;
    while (!packed.atEnd()) {
        if (!packed.varint(v))
            return false;
        f(v);
    }
    return true;
}

} // namespace nanscope::format::wire
