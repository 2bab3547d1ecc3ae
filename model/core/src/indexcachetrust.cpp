// SPDX-License-Identifier: GPL-3.0-or-later
#include "indexcachetrust.hpp"

#include "cachefiles.hpp"
#include "nanscope/format/crc32c.hpp"

#include <array>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace nanscope::core {
namespace {

constexpr std::array<char, 8> kMagic = {'N', 'S', 'C', 'H', 'E', 'C', 'K', '1'};

// The identity of a file, as the record holds it.
struct Identity
{
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::int64_t modifiedNs = 0;
    std::int64_t changedNs = 0;

    friend bool operator==(const Identity&, const Identity&) = default;
};

std::int64_t nanoseconds(const timespec& t)
{
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

Identity identityOf(const struct stat& st)
{
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
            static_cast<std::uint64_t>(st.st_size), nanoseconds(st.st_mtim),
            nanoseconds(st.st_ctim)};
}

// The record's bytes: magic, the identity's five numbers, a CRC-32C of what precedes it.
std::string encode(const Identity& id)
{
    std::string bytes(kMagic.begin(), kMagic.end());
    for (const std::uint64_t v :
         {id.device, id.inode, id.size, static_cast<std::uint64_t>(id.modifiedNs),
          static_cast<std::uint64_t>(id.changedNs)})
        for (int i = 0; i < 8; ++i)
            bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
    const std::uint32_t crc = format::crc32c(bytes);
    for (int i = 0; i < 4; ++i)
        bytes.push_back(static_cast<char>((crc >> (8 * i)) & 0xffu));
    return bytes;
}

} // namespace

std::filesystem::path checkedRecord(const std::filesystem::path& index)
{
    return index.string() + ".checked";
}

bool sameIdentity(const struct stat& a, const struct stat& b)
{
    return identityOf(a) == identityOf(b);
}

bool checkedBefore(const std::filesystem::path& index, const struct stat& st)
{
    const std::string expected = encode(identityOf(st));
    int error = 0;
    const int fd = openCacheFile(checkedRecord(index), error);
    if (fd < 0)
        return false;
    std::string found(expected.size() + 1, '\0');
    const ssize_t n = ::read(fd, found.data(), found.size());
    ::close(fd);
    return n == static_cast<ssize_t>(expected.size()) &&
           found.compare(0, expected.size(), expected) == 0;
}

std::chrono::nanoseconds changeMargin(const struct stat& st)
{
    // Times with a fraction of a second come in ticks of milliseconds; without one (FAT, old
    // file systems), in ticks of up to two seconds.
    if (st.st_ctim.tv_nsec != 0)
        return std::chrono::milliseconds(50);
    return std::chrono::seconds(2);
}

std::chrono::nanoseconds untilOldEnough(const struct stat& st)
{
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    return std::chrono::nanoseconds(nanoseconds(st.st_ctim)) + changeMargin(st) - now;
}

void noteChecked(const std::filesystem::path& index, const struct stat& st)
{
    const std::filesystem::path record = checkedRecord(index);
    if (untilOldEnough(st) > std::chrono::nanoseconds(0)) {
        removeRegularFile(record); // too young to vouch for
        return;
    }
    if (!regularOrAbsent(record))
        return; // not ours to replace
    const std::filesystem::path temporary = record.string() + ".tmp" + std::to_string(::getpid());
    const int fd = createCacheFile(temporary);
    if (fd < 0)
        return; // something lies there: not ours to remove either
    const std::string bytes = encode(identityOf(st));
    const bool written = writeCacheBytes(fd, 0, bytes.data(), bytes.size()) == 0;
    const bool closed = ::close(fd) == 0;
    std::error_code ec;
    if (written && closed)
        std::filesystem::rename(temporary, record, ec);
    if (!written || !closed || ec)
        removeRegularFile(temporary);
}

void noteUsed(const std::filesystem::path& index)
{
    int error = 0;
    const int fd = openCacheFile(checkedRecord(index), error);
    if (fd < 0)
        return;
    ::futimens(fd, nullptr);
    ::close(fd);
}

} // namespace nanscope::core
