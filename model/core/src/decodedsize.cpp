// SPDX-License-Identifier: GPL-3.0-or-later
#include "decodedsize.hpp"

#include "wirereader.hpp"

namespace nanscope::core {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// Costs in bytes, rounded up from libprotobuf 3.21 on 64-bit targets with glibc's malloc (16 bytes
// of overhead per block).
constexpr std::uint64_t kHeapString = 32 + 16; // a std::string object of its own
constexpr std::uint64_t kPointerSlot =
    std::uint64_t{2} * 8; // a RepeatedPtrField slot, at worst after growth
constexpr std::uint64_t kUnknownField =
    std::uint64_t{2} * 16; // an UnknownField in its vector, after growth
constexpr std::uint64_t kMessageBase = 64 + 16;
constexpr std::uint64_t kPerDeclaredField = 8;
constexpr int kMaxDepth = 100; // libprotobuf's default recursion limit
// What the index keeps of a repeated string beyond libprotobuf's copy (an op input: its name, the
// producer's name and slot), twice: the reader's table and the copy its latest snapshot shares.
// Measured: 8 M empty input names took 1.5 GB in all, about 190 bytes each.
constexpr std::uint64_t kKeptStringCopies = 2;
constexpr std::uint64_t kKeptStringExtra = std::uint64_t{2} * 48;
// What the index keeps of a repeated scalar beyond libprotobuf's copy: a tensor id, 8 bytes.
constexpr std::uint64_t kKeptScalar = 8;

std::uint64_t messageObject(const Descriptor& type)
{
    return kMessageBase + kPerDeclaredField * static_cast<std::uint64_t>(type.field_count());
}

std::uint64_t stringCost(std::uint64_t length)
{
    return kHeapString + (length > 15 ? length + 1 + 16 : 0);
}

// Bytes per element of a repeated scalar, twice: a RepeatedField doubles as it grows.
std::uint64_t scalarSlot(const FieldDescriptor& field)
{
    switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT64:
    case FieldDescriptor::CPPTYPE_UINT64:
    case FieldDescriptor::CPPTYPE_DOUBLE:
        return std::uint64_t{2} * 8;
    case FieldDescriptor::CPPTYPE_BOOL:
        return std::uint64_t{2} * 1;
    default:
        return std::uint64_t{2} * 4;
    }
}

// Elements in a packed run of `bytes`: one per varint, or per fixed-size value.
std::uint64_t packedCount(const FieldDescriptor& field, std::string_view bytes)
{
    switch (field.type()) {
    case FieldDescriptor::TYPE_FIXED32:
    case FieldDescriptor::TYPE_SFIXED32:
    case FieldDescriptor::TYPE_FLOAT:
        return bytes.size() / 4 + 1;
    case FieldDescriptor::TYPE_FIXED64:
    case FieldDescriptor::TYPE_SFIXED64:
    case FieldDescriptor::TYPE_DOUBLE:
        return bytes.size() / 8 + 1;
    default: {
        std::uint64_t n = 0;
        for (const char c : bytes)
            n += (static_cast<unsigned char>(c) & 0x80) == 0;
        return n;
    }
    }
}

class Counter
{
public:
    explicit Counter(std::uint64_t cap) : m_cap(cap) {}

    bool add(std::uint64_t bytes)
    {
        m_total += bytes;
        return m_total <= m_cap;
    }
    std::uint64_t total() const { return m_total; }

    // The fields of one message (its object counted by the caller). False once over the cap.
    bool message(const Descriptor& type, std::string_view bytes, int depth)
    {
        wire::Reader reader(bytes);
        wire::Field f;
        while (reader.next(f)) {
            const FieldDescriptor* field = type.FindFieldByNumber(static_cast<int>(f.number));
            if (!(field ? known(*field, f, depth) : unknown(f)))
                return false;
        }
        return true;
    }

private:
    bool unknown(const wire::Field& f)
    {
        return add(kUnknownField +
                   (f.type == wire::WireType::LengthDelimited ? stringCost(f.bytes.size()) : 0));
    }

    bool known(const FieldDescriptor& field, const wire::Field& f, int depth)
    {
        const bool repeated = field.is_repeated();
        const bool delimited = f.type == wire::WireType::LengthDelimited;
        switch (field.cpp_type()) {
        case FieldDescriptor::CPPTYPE_MESSAGE:
            if (!delimited)
                return unknown(f);
            if (!add((repeated ? kPointerSlot : 0) + messageObject(*field.message_type())))
                return false;
            if (depth >= kMaxDepth)
                return add(f.bytes.size());
            return message(*field.message_type(), f.bytes, depth + 1);
        case FieldDescriptor::CPPTYPE_STRING:
            if (!delimited)
                return unknown(f);
            if (!repeated)
                return add(stringCost(f.bytes.size()));
            return add(kPointerSlot + (1 + kKeptStringCopies) * stringCost(f.bytes.size()) +
                       kKeptStringCopies * kKeptStringExtra);
        default:
            if (!repeated)
                return true; // in the message object already
            if (delimited)   // packed
                return add((scalarSlot(field) + kKeptScalar) * packedCount(field, f.bytes));
            return add(scalarSlot(field) + kKeptScalar);
        }
    }

    std::uint64_t m_cap;
    std::uint64_t m_total = 0;
};

} // namespace

std::optional<std::uint64_t> decodedBytes(const Descriptor& type, std::string_view bytes,
                                          std::uint64_t cap)
{
    Counter counter(cap);
    if (!counter.add(messageObject(type)) || !counter.message(type, bytes, 0))
        return std::nullopt;
    return counter.total();
}

} // namespace nanscope::core
