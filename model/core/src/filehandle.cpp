// SPDX-License-Identifier: GPL-3.0-or-later
#include "filehandle.hpp"

#include <array>

namespace nanscope::core {

bool FileHandle::open(const FileSystem& files, const std::filesystem::path& path,
                      std::string* error)
{
    std::string reason;
    m_file = files.open(path, reason);
    if (!m_file && error)
        *error = std::move(reason);
    return m_file != nullptr;
}

format::RecordStatus readRecordAt(const FileHandle& file, std::uint64_t offset,
                                  std::string& payload, std::uint64_t maxPayload)
{
    const std::uint64_t size = file.size();
    const std::uint64_t available = offset < size ? size - offset : 0;
    std::array<std::byte, format::kRecordHeaderSize> header{};
    const std::size_t got = file.readAt(offset, header.data(), header.size());
    const auto parsed = format::parseRecordHeader(std::span<const std::byte>(header.data(), got),
                                                  got < header.size() ? got : available);
    if (parsed.status != format::RecordStatus::Ok)
        return parsed.status;
    if (parsed.payloadSize > maxPayload)
        return format::RecordStatus::TooLarge;
    // Bounded by the bytes that exist and by the caller's limit (a sparse file can claim
    // gigabytes that cost no disk).
    std::string body(static_cast<std::size_t>(parsed.payloadSize) + 4, '\0');
    if (file.readAt(offset + format::kRecordHeaderSize, body.data(), body.size()) != body.size())
        return format::RecordStatus::TruncatedTail;
    if (!format::payloadCrcMatches(std::span<const std::byte>(
            reinterpret_cast<const std::byte*>(body.data()), body.size())))
        return format::RecordStatus::CorruptPayload;
    body.resize(body.size() - 4);
    payload = std::move(body);
    return format::RecordStatus::Ok;
}

ReadResult<std::string> readRecord(const FileSystem& files, const std::filesystem::path& path,
                                   std::uint64_t offset, std::uint64_t maxPayload)
{
    ReadResult<std::string> result;
    FileHandle file;
    std::string error;
    if (!file.open(files, path, &error)) {
        result.error = "cannot open " + path.string() + ": " + error;
        return result;
    }
    std::string payload;
    const auto status = readRecordAt(file, offset, payload, maxPayload);
    if (status != format::RecordStatus::Ok) {
        result.error = path.string() + " at offset " + std::to_string(offset) + ": " +
                       format::toString(status);
        result.deferred = status == format::RecordStatus::TooLarge;
        return result;
    }
    result.value = std::move(payload);
    return result;
}

} // namespace nanscope::core
