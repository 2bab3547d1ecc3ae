// SPDX-License-Identifier: Apache-2.0
// TFRecord framing: length (u64 LE), masked CRC of the length, payload, masked CRC of the payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::format {

constexpr std::size_t kRecordHeaderSize = 12;
constexpr std::size_t kRecordOverhead = 16;
// Protobuf cannot parse messages of 2 GiB or more, so no valid record is longer.
constexpr std::uint64_t kMaxRecordPayload = (std::uint64_t{1} << 31) - 1;

// Appends the framed record for `payload` to `out`.
void appendRecord(std::string& out, std::string_view payload);

// The same in three steps, for a payload serialised straight into `out` (no copy of a large
// one): the header for `payloadSize` bytes, then the caller appends exactly those bytes, then
// the footer over them.
void appendRecordHeader(std::string& out, std::size_t payloadSize);
void appendRecordFooter(std::string& out, std::string_view payload);

enum class RecordStatus {
    Ok,
    EndOfData,      // no byte at the offset: a clean end
    TruncatedTail,  // the record runs past the available bytes: may still be being written
    CorruptLength,  // the length's CRC does not match
    CorruptPayload, // the payload's CRC does not match
    TooLarge,       // a valid length above the reader's limit: the record is not read
};

const char* toString(RecordStatus status);

// Whether reading may resume at the same offset once more bytes exist.
constexpr bool isRetryable(RecordStatus s)
{
    return s == RecordStatus::EndOfData || s == RecordStatus::TruncatedTail;
}

struct RecordHeader
{
    RecordStatus status = RecordStatus::EndOfData;
    std::uint64_t payloadSize = 0;
};

// Checks the header at the start of `header` (up to 12 bytes); `available` is the number of
// bytes that exist from the record's offset to the end of the file. The length field is never
// trusted beyond `available`.
RecordHeader parseRecordHeader(std::span<const std::byte> header, std::uint64_t available);

// True when the last 4 bytes are the masked CRC-32C of the bytes before them.
bool payloadCrcMatches(std::span<const std::byte> payloadAndCrc);

// Where the complete records of `bytes` from offset `from` on begin (a record starts there),
// found by hopping over length fields, each checked by its CRC (payloads are not checked: see
// firstCorruptPayload). Appends each start, an offset into `bytes`, to `starts`. A scan that
// stopped at a TruncatedTail goes on from its `consumed` once more bytes are there: the same
// starts as one scan of the whole.
struct RecordStarts
{
    std::size_t consumed = 0; // where the complete records end, an offset into `bytes`
    // Why the hopping stopped at `consumed`: EndOfData (it is the end of `bytes`), TruncatedTail
    // (a record runs past it), CorruptLength, or TooLarge (a length over `maxPayload`).
    RecordStatus stop = RecordStatus::EndOfData;
    std::uint64_t nextRecordSize = 0; // of the truncated record, when its header is whole
};
RecordStarts scanRecordStarts(std::span<const std::byte> bytes, std::uint64_t maxPayload,
                              std::vector<std::uint32_t>& starts, std::size_t from = 0);

// The first of the records that start at `starts` in `bytes` (each ending where the next starts,
// the last at the end of `bytes`) whose payload CRC does not match; starts.size() when every one
// matches. Checks three records at a time (crc32cOfThree).
std::size_t firstCorruptPayload(std::span<const std::byte> bytes,
                                std::span<const std::uint32_t> starts);

struct RecordView
{
    RecordStatus status = RecordStatus::EndOfData;
    std::string_view payload; // valid when status == Ok; points into the input
    std::uint64_t nextOffset = 0;
};

// Parses the record at `offset` of `bytes` (a whole file, or its prefix that exists so far).
RecordView parseRecord(std::span<const std::byte> bytes, std::uint64_t offset);

} // namespace nanscope::format
