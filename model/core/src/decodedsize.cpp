// SPDX-License-Identifier: GPL-3.0-or-later
#include "decodedsize.hpp"

#include "nanscope/core/logdirlayout.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"
#include "wirereader.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <vector>

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

// FindFieldByNumber is a hash look-up in libprotobuf's global tables, and message_type() a lazy
// resolution; an execution record has dozens of fields, millions of times. The types a DebugEvent
// can hold get dense tables by field number that also point at their fields' types, built once
// (a thread-safe static) and only read after.
struct TypeTable;

struct FieldEntry
{
    const FieldDescriptor* field = nullptr;
    const TypeTable* child = nullptr; // the table of a message field's type
};

struct TypeTable
{
    const Descriptor* type = nullptr;
    std::vector<FieldEntry> byNumber; // numbers past its end are asked of libprotobuf
};

class FieldTables
{
public:
    FieldTables()
    {
        add(*tfdbg::DebugEvent::descriptor());
        for (auto& table : m_tables)
            for (auto& entry : table.byNumber)
                if (entry.field && entry.field->message_type())
                    entry.child = find(*entry.field->message_type());
        // The shortest field is two bytes (a tag and a length or a one-byte value); fields
        // numbered past 15 take a longer tag and cost no more. Strings, nested messages and
        // unknown or scalar fields (at most kUnknownField + kHeapString, or a scalar slot and
        // what the index keeps) are all covered by the largest of these, halved.
        std::uint64_t widest = kUnknownField + kHeapString;
        widest = std::max(widest, kPointerSlot + (1 + kKeptStringCopies) * kHeapString +
                                      kKeptStringCopies * kKeptStringExtra);
        for (const auto& table : m_tables)
            widest = std::max(widest, kPointerSlot + messageObject(*table.type));
        // A string past 15 bytes costs its length again per copy: at most (1 + copies) per byte.
        m_maxPerByte = std::max<std::uint64_t>((widest + 1) / 2, 1 + kKeptStringCopies + 17);
    }

    // The most any wire byte of a DebugEvent can cost (see decodedEventBytesBound).
    std::uint64_t maxBytesPerWireByte() const { return m_maxPerByte; }

    // The table of `type`, or null when it has none.
    const TypeTable* find(const Descriptor& type) const
    {
        for (const auto& table : m_tables)
            if (table.type == &type)
                return &table;
        return nullptr;
    }

private:
    // Numbers above this (Execution's framework_context is 1000) are looked up by libprotobuf.
    static constexpr int kDenseNumbers = 64;

    void add(const Descriptor& type)
    {
        if (find(type))
            return;
        TypeTable& table = m_tables.emplace_back();
        table.type = &type;
        table.byNumber.resize(kDenseNumbers);
        for (int i = 0; i < type.field_count(); ++i) {
            const FieldDescriptor* field = type.field(i);
            if (field->number() < kDenseNumbers)
                table.byNumber[static_cast<std::size_t>(field->number())].field = field;
        }
        for (int i = 0; i < type.field_count(); ++i)
            if (const Descriptor* child = type.field(i)->message_type())
                add(*child);
    }

    std::deque<TypeTable> m_tables; // a deque: tables keep their addresses as more are added
    std::uint64_t m_maxPerByte = 0;
};

std::atomic<bool> tablesBuilt{false};

const FieldTables& fieldTables()
{
    static const FieldTables tables = [] {
        FieldTables built;
        tablesBuilt.store(true, std::memory_order_release);
        return built;
    }();
    return tables;
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
    // `table` is type's table, or null when it has none.
    bool message(const Descriptor& type, const TypeTable* table, std::string_view bytes, int depth)
    {
        wire::Reader reader(bytes);
        wire::Field f;
        while (reader.next(f)) {
            FieldEntry entry;
            if (table && f.number < table->byNumber.size())
                entry = table->byNumber[f.number];
            else
                entry.field = type.FindFieldByNumber(static_cast<int>(f.number));
            if (!(entry.field ? known(*entry.field, entry.child, f, depth) : unknown(f)))
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

    bool known(const FieldDescriptor& field, const TypeTable* child, const wire::Field& f,
               int depth)
    {
        const bool repeated = field.is_repeated();
        const bool delimited = f.type == wire::WireType::LengthDelimited;
        switch (field.cpp_type()) {
        case FieldDescriptor::CPPTYPE_MESSAGE: {
            if (!delimited)
                return unknown(f);
            const Descriptor& type = child ? *child->type : *field.message_type();
            if (!add((repeated ? kPointerSlot : 0) + messageObject(type)))
                return false;
            if (depth >= kMaxDepth)
                return add(f.bytes.size());
            return message(type, child, f.bytes, depth + 1);
        }
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

// See wellFormedEvent: the message fields walked as decodedBytes walks them, strings not looked in.
bool wellFormed(const Descriptor& type, const TypeTable* table, std::string_view bytes, int depth)
{
    wire::Reader reader(bytes);
    wire::Field f;
    while (reader.next(f)) {
        if (f.type != wire::WireType::LengthDelimited || depth >= kMaxDepth)
            continue;
        FieldEntry entry;
        if (table && f.number < table->byNumber.size())
            entry = table->byNumber[f.number];
        else
            entry.field = type.FindFieldByNumber(static_cast<int>(f.number));
        if (!entry.field || entry.field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE)
            continue;
        const Descriptor& child = entry.child ? *entry.child->type : *entry.field->message_type();
        if (!wellFormed(child, entry.child, f.bytes, depth + 1))
            return false;
    }
    return !reader.failed();
}

} // namespace

void prepareRecordChecks()
{
    (void)fieldTables();
}

bool recordChecksPrepared()
{
    return tablesBuilt.load(std::memory_order_acquire);
}

bool wellFormedEvent(std::string_view payload)
{
    const Descriptor& type = *tfdbg::DebugEvent::descriptor();
    return wellFormed(type, fieldTables().find(type), payload, 0);
}

std::uint64_t decodedEventBytesBound(std::uint64_t size)
{
    const std::uint64_t perByte = fieldTables().maxBytesPerWireByte();
    const std::uint64_t root = messageObject(*tfdbg::DebugEvent::descriptor());
    if (size > (UINT64_MAX - root) / perByte)
        return UINT64_MAX;
    return size * perByte + root;
}

std::optional<std::uint64_t> decodedBytes(const Descriptor& type, std::string_view bytes,
                                          std::uint64_t cap)
{
    Counter counter(cap);
    if (!counter.add(messageObject(type)) ||
        !counter.message(type, fieldTables().find(type), bytes, 0))
        return std::nullopt;
    return counter.total();
}

} // namespace nanscope::core
