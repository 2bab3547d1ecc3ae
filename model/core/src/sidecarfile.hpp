// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a saved index file (indexcache.hpp): header space, the arrays' extents, the
// description, then the header; either a new file written whole or, for a save that appends, an
// open file written on from its end.
#pragma once

#include "cachefiles.hpp"
#include "chunkedarray.hpp"
#include "indexcacheformat.hpp"
#include "nanscope/format/crc32c.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace nanscope::core::indexfile {

class SidecarFile
{
public:
    // A new file, created where nothing lies (cachefiles.hpp): whatever already lies at its name
    // is left alone.
    explicit SidecarFile(const std::filesystem::path& path) : m_fd(createCacheFile(path))
    {
        if (m_fd < 0)
            m_error = std::strerror(errno);
    }
    // The file open at `fd` (owned from now on), written on from `end`.
    SidecarFile(int fd, std::uint64_t end) : m_fd(fd), m_position(end)
    {
        if (::lseek(m_fd, static_cast<off_t>(end), SEEK_SET) < 0)
            m_error = std::strerror(errno);
    }
    ~SidecarFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    SidecarFile(const SidecarFile&) = delete;
    SidecarFile& operator=(const SidecarFile&) = delete;

    bool created() const { return m_fd >= 0; }
    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }
    std::uint64_t position() const { return m_position; }
    int descriptor() const { return m_fd; }

    void write(const void* data, std::size_t size)
    {
        if (!ok())
            return; // the first error is the one to report
        if (const int error = writeCacheBytes(m_fd, m_position, data, size); error != 0) {
            m_error = std::strerror(error);
            return;
        }
        m_position += size;
    }

    void padTo(std::uint64_t alignment)
    {
        static const std::array<char, kPage> zeros{};
        while (m_position % alignment != 0 && ok())
            write(zeros.data(), static_cast<std::size_t>(std::min<std::uint64_t>(
                                    kPage, alignment - m_position % alignment)));
    }

    // Writes the entries of `array` from `from` (a chunk's first entry) on as one extent, at the
    // alignment an extent `alone` in its array needs.
    template <typename T, unsigned B>
    Extent extent(const ChunkedArray<T, B>& array, std::size_t from, bool alone)
    {
        padTo(extentAlignment<ChunkedArray<T, B>>(array.size() - from, alone));
        Extent x;
        x.offset = m_position;
        x.count = array.size() - from;
        BlockChecksums sums(x.blockChecksums);
        array.forEachRun(
            [&](const T* data, std::size_t n) {
                write(data, n * sizeof(T));
                sums.add(data, n * sizeof(T));
            },
            /*release=*/true, from); // a spilled array's pages go back to its file once written
        sums.finish();
        return x;
    }

    template <typename T, unsigned B>
    ColumnEntry column(const ChunkedArray<T, B>& array)
    {
        return {static_cast<std::uint32_t>(sizeof(T)), {extent(array, 0, true)}};
    }

    void writeHeader(std::uint64_t describeOffset, std::uint64_t describeBytes,
                     std::uint32_t describeChecksum)
    {
        ArchiveWriter h;
        for (const char c : kMagic)
            h.put(c);
        h.put(kVersion);
        h.put(kByteOrder);
        h.put(describeOffset);
        h.put(describeBytes);
        h.put(describeChecksum);
        h.put(format::crc32c(h.bytes()));
        if (!ok())
            return; // a failed write's error stands (an lseek of no file would replace it)
        if (::lseek(m_fd, 0, SEEK_SET) != 0) {
            m_error = std::strerror(errno);
            return;
        }
        m_position = 0;
        write(h.bytes().data(), h.bytes().size());
    }

    // The checksums of consecutive kBlockBytes blocks of bytes given in any runs.
    class BlockChecksums
    {
    public:
        explicit BlockChecksums(std::vector<std::uint32_t>& out) : m_out(out) {}
        void add(const void* data, std::size_t size)
        {
            const auto* p = static_cast<const char*>(data);
            while (size > 0) {
                const auto take = static_cast<std::size_t>(
                    std::min<std::uint64_t>(size, kBlockBytes - m_inBlock));
                m_crc = format::crc32cExtend(m_crc, p, take);
                p += take;
                size -= take;
                m_inBlock += take;
                if (m_inBlock == kBlockBytes) {
                    m_out.push_back(m_crc);
                    m_crc = 0;
                    m_inBlock = 0;
                }
            }
        }
        void finish()
        {
            if (m_inBlock > 0)
                m_out.push_back(m_crc);
            m_crc = 0;
            m_inBlock = 0;
        }

    private:
        std::vector<std::uint32_t>& m_out;
        std::uint32_t m_crc = 0;
        std::uint64_t m_inBlock = 0;
    };

private:
    int m_fd;
    std::uint64_t m_position = 0;
    std::string m_error;
};

} // namespace nanscope::core::indexfile
