// SPDX-License-Identifier: Apache-2.0
#include "nanscope/format/record.hpp"

#include "nanscope/format/crc32c.hpp"
#include "nanscope/unaligned.hpp"

#include <algorithm>
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

// One load each (little-endian files on little-endian hosts, see unaligned.hpp): a loop over the
// bytes, which the compiler kept, was half of the time spent finding records.
std::uint64_t getU64(const std::byte* p)
{
    return loadUnaligned<std::uint64_t>(p);
}

std::uint32_t getU32(const std::byte* p)
{
    return loadUnaligned<std::uint32_t>(p);
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

void appendRecordHeader(std::string& out, std::size_t payloadSize)
{
    const std::size_t start = out.size();
    out.resize(start + kRecordHeaderSize);
    char* p = out.data() + start;
    putU64(p, payloadSize);
    putU32(p + 8, maskCrc(crc32c(p, 8)));
}

void appendRecordFooter(std::string& out, std::string_view payload)
{
    const std::uint32_t crc = maskCrc(crc32c(payload));
    const std::size_t start = out.size();
    out.resize(start + 4);
    putU32(out.data() + start, crc);
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

namespace {

// The CRC-32C of an 8-byte length field. The hardware form is one instruction, written as inline
// assembly so that it inlines into the scan loop without compiling the file for SSE4.2 (callers
// choose it only where crc32cUsesHardware()).
template <bool Hardware>
std::uint32_t lengthCrc(const std::byte* p)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if constexpr (Hardware) {
        std::uint64_t word;
        std::memcpy(&word, p, 8); // little-endian, as the CRC instruction reads it
        std::uint64_t state = 0xffffffffu;
        asm("crc32q %1, %0" : "+r"(state) : "rm"(word));
        return ~static_cast<std::uint32_t>(state);
    }
#endif
    return crc32c(p, 8);
}

template <bool Hardware>
RecordStarts scanStarts(std::span<const std::byte> bytes, std::uint64_t maxPayload,
                        std::vector<std::uint32_t>& starts, std::size_t from)
{
    RecordStarts scan;
    const std::byte* data = bytes.data();
    const std::size_t size = bytes.size();
    std::size_t at = std::min(from, size);
    while (at < size) {
        const std::size_t rest = size - at;
        if (rest < kRecordHeaderSize) {
            scan.stop = RecordStatus::TruncatedTail;
            break;
        }
        const std::uint64_t length = getU64(data + at);
        if (unmaskCrc(getU32(data + at + 8)) != lengthCrc<Hardware>(data + at)) {
            scan.stop = RecordStatus::CorruptLength;
            break;
        }
        // A length whose CRC checks is what the writer meant: over the limit, not corrupt.
        if (length > maxPayload || length > kMaxRecordPayload) {
            scan.stop = RecordStatus::TooLarge;
            break;
        }
        if (rest < kRecordOverhead || rest - kRecordOverhead < length) {
            scan.stop = RecordStatus::TruncatedTail;
            scan.nextRecordSize = kRecordOverhead + length;
            break;
        }
        starts.push_back(static_cast<std::uint32_t>(at));
        const std::size_t step = kRecordOverhead + static_cast<std::size_t>(length);
        // Each hop waits for the length it lands on, which may be out of the L1 cache: records
        // of a run are of about one size, so the header six records on is asked for now (a
        // wrong guess costs one idle load).
        __builtin_prefetch(data + at + 6 * step);
        at += step;
    }
    scan.consumed = at;
    return scan;
}

} // namespace

RecordStarts scanRecordStarts(std::span<const std::byte> bytes, std::uint64_t maxPayload,
                              std::vector<std::uint32_t>& starts, std::size_t from)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (crc32cUsesHardware())
        return scanStarts<true>(bytes, maxPayload, starts, from);
#endif
    return scanStarts<false>(bytes, maxPayload, starts, from);
}

std::size_t firstCorruptPayload(std::span<const std::byte> bytes,
                                std::span<const std::uint32_t> starts)
{
    const std::size_t n = starts.size();
    auto payload = [&](std::size_t i) {
        const std::size_t begin = starts[i] + kRecordHeaderSize;
        const std::size_t end = (i + 1 < n ? starts[i + 1] : bytes.size()) - 4;
        return bytes.subspan(begin, end - begin);
    };
    auto stored = [&](std::size_t i) {
        const auto p = payload(i);
        return unmaskCrc(getU32(p.data() + p.size()));
    };
    std::size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        const std::span<const std::byte> three[3] = {payload(i), payload(i + 1), payload(i + 2)};
        std::uint32_t crcs[3];
        crc32cOfThree(three, crcs);
        for (std::size_t k = 0; k < 3; ++k)
            if (crcs[k] != stored(i + k))
                return i + k;
    }
    for (; i < n; ++i)
        if (crc32c(payload(i).data(), payload(i).size()) != stored(i))
            return i;
    return n;
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
