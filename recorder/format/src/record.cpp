// SPDX-License-Identifier: Apache-2.0
#include "nanscope/format/record.hpp"

#include "nanscope/format/crc32c.hpp"

#include <cstring>

namespace nanscope::format {
namespace {

void putU64(char* out, std::uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<char>((v >> (8 * i)) & 0xffu);
}

void putU32(char* out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<char>((v >> (8 * i)) & 0xffu);
}

std::uint64_t getU64(const std::byte* p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | std::to_integer<std::uint64_t>(p[i]);
    return v;
}

std::uint32_t getU32(const std::byte* p)
{
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | std::to_integer<std::uint32_t>(p[i]);
    return v;
}

} // namespace

void appendRecord(std::string& out, std::string_view payload)
{
    const std::size_t start = out.size();
    out.resize(start + kRecordOverhead + payload.size());
    char* p = out.data() + start;
    putU64(p, payload.size());
    putU32(p + 8, maskCrc(crc32c(p, 8)));
    if (!payload.empty())
        std::memcpy(p + kRecordHeaderSize, payload.data(), payload.size());
    putU32(p + kRecordHeaderSize + payload.size(), maskCrc(crc32c(payload)));
}

const char* toString(RecordStatus status)
{
    switch (status) {
    case RecordStatus::Ok:
        return "ok";
    case RecordStatus::EndOfData:
        return "end of data";
    case RecordStatus::TruncatedTail:
        return "truncated record at the end of the file";
    case RecordStatus::CorruptLength:
        return "corrupt record length";
    case RecordStatus::CorruptPayload:
        return "corrupt record payload (CRC mismatch)";
    case RecordStatus::TooLarge:
        return "record longer than the reader's limit";
    }
    return "unknown record status";
}

RecordHeader parseRecordHeader(std::span<const std::byte> header, std::uint64_t available)
{
    if (available == 0)
        return {RecordStatus::EndOfData, 0};
    if (available < kRecordHeaderSize || header.size() < kRecordHeaderSize)
        return {RecordStatus::TruncatedTail, 0};
    const std::uint64_t length = getU64(header.data());
    if (unmaskCrc(getU32(header.data() + 8)) != crc32c(header.data(), 8))
        return {RecordStatus::CorruptLength, length};
    if (length > kMaxRecordPayload) // a length whose CRC checks: over the limit, not corrupt
        return {RecordStatus::TooLarge, length};
    if (available - kRecordHeaderSize < length + 4)
        return {RecordStatus::TruncatedTail, length};
    return {RecordStatus::Ok, length};
}

bool payloadCrcMatches(std::span<const std::byte> payloadAndCrc)
{
    if (payloadAndCrc.size() < 4)
        return false;
    const std::size_t size = payloadAndCrc.size() - 4;
    return unmaskCrc(getU32(payloadAndCrc.data() + size)) == crc32c(payloadAndCrc.data(), size);
}

RecordView parseRecord(std::span<const std::byte> bytes, std::uint64_t offset)
{
    RecordView view;
    view.nextOffset = offset;
    if (offset > bytes.size()) {
        view.status = RecordStatus::EndOfData;
        return view;
    }
    const auto available = bytes.subspan(static_cast<std::size_t>(offset));
    const RecordHeader header = parseRecordHeader(available, available.size());
    view.status = header.status;
    if (header.status != RecordStatus::Ok)
        return view;
    const auto size = static_cast<std::size_t>(header.payloadSize);
    const std::byte* payload = available.data() + kRecordHeaderSize;
    if (!payloadCrcMatches(available.subspan(kRecordHeaderSize, size + 4))) {
        view.status = RecordStatus::CorruptPayload;
        return view;
    }
    view.payload = {reinterpret_cast<const char*>(payload), size};
    view.nextOffset = offset + kRecordOverhead + size;
    return view;
}

} // namespace nanscope::format
