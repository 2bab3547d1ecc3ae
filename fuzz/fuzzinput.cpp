// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzzinput.hpp"

#include "nanscope/format/record.hpp"

#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <system_error>
#include <unistd.h>

namespace nanscope::fuzz {

std::vector<std::string_view> split(std::string_view bytes, std::string_view separator)
{
    std::vector<std::string_view> parts;
    std::size_t begin = 0;
    for (std::size_t at = bytes.find(separator); at != std::string_view::npos;
         at = bytes.find(separator, begin)) {
        parts.push_back(bytes.substr(begin, at - begin));
        begin = at + separator.size();
    }
    parts.push_back(bytes.substr(begin));
    return parts;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            out += separator;
        out += parts[i];
    }
    return out;
}

std::string frameAll(std::string_view part)
{
    std::string out;
    if (part.empty())
        return out;
    for (const auto payload : split(part, kRecordSeparator))
        format::appendRecord(out, payload);
    return out;
}

std::vector<std::string> logdirFiles(std::string_view input, std::uint8_t rawFiles)
{
    constexpr std::size_t kMaxFiles = 12;
    std::vector<std::string> files;
    const auto parts = split(input, kFileSeparator);
    for (std::size_t i = 0; i < parts.size() && i < kMaxFiles; ++i) {
        const bool raw = (rawFiles >> (i % 6)) & 1;
        files.push_back(raw ? std::string(parts[i]) : frameAll(parts[i]));
    }
    return files;
}

std::filesystem::path logdirFilePath(const std::filesystem::path& dir, std::size_t i)
{
    const char* prefix =
        i < 6 ? "tfdbg_events.1700000000.localhost." : "tfdbg_events.1700000001.worker-1.";
    return dir / (prefix + std::string(kSuffixes[i % 6]));
}

std::vector<std::string> payloadsOf(std::string_view file)
{
    std::vector<std::string> payloads;
    const auto bytes = std::span(reinterpret_cast<const std::byte*>(file.data()), file.size());
    std::uint64_t offset = 0;
    for (;;) {
        const format::RecordView record = format::parseRecord(bytes, offset);
        if (record.status != format::RecordStatus::Ok)
            break;
        payloads.emplace_back(record.payload);
        offset = record.nextOffset;
    }
    return payloads;
}

std::string_view asText(std::span<const std::uint8_t> data)
{
    return {reinterpret_cast<const char*>(data.data()), data.size()};
}

namespace {

struct Scratch
{
    std::filesystem::path path;

    Scratch()
    {
        std::error_code ec;
        const std::filesystem::path base = std::filesystem::is_directory("/dev/shm", ec)
                                               ? std::filesystem::path("/dev/shm")
                                               : std::filesystem::temp_directory_path();
        std::string pattern = (base / "nanscope-fuzz-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            std::abort(); // the harness cannot run without a place for its files
        path = pattern;
    }

    ~Scratch()
    {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

} // namespace

const std::filesystem::path& scratchDirectory()
{
    static const Scratch scratch;
    return scratch.path;
}

void writeFile(const std::filesystem::path& file, std::string_view bytes)
{
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        std::abort();
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0)
            std::abort();
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
}

} // namespace nanscope::fuzz
