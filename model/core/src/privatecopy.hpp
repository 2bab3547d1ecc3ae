// SPDX-License-Identifier: GPL-3.0-or-later
// A saved index's bytes, copied where no other process can reach them.
//
// Anyone who may write the cache directory may also truncate or rewrite a saved index in place
// while a reader uses it. A mapping of that file would then fault (SIGBUS: pages past the new
// end) or change under checks already made, and the index's arrays are used where they lie long
// after they were checked. So a reader never maps the file itself: it reads the bytes once,
// into memory of its own (a small index) or into an unnamed file of the spill directory, mapped
// (a larger one: page cache the system can reclaim, as the spill arena's, copied in the kernel
// and faulted in only where read; past 64 MiB in two halves copied at once, each into a file of
// its own, mapped side by side). Reading costs about what the checks
// cost anyway, and the file may change during the copy: the copy is what gets checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

namespace nanscope::core {

class PrivateCopy
{
public:
    // The whole of the file open at `fd` (at most `size` bytes, its size when looked at), or
    // null with `why` set. Into memory when `size` is below `fileAboveBytes` or `directory` is
    // empty; otherwise into an unnamed file of `directory`.
    static std::shared_ptr<const PrivateCopy> of(int fd, std::uint64_t size,
                                                 const std::filesystem::path& directory,
                                                 std::uint64_t fileAboveBytes, std::string& why);
    ~PrivateCopy();
    PrivateCopy(const PrivateCopy&) = delete;
    PrivateCopy& operator=(const PrivateCopy&) = delete;

    std::span<const std::byte> bytes() const { return {m_address, m_size}; }
    // Copies the bytes at [offset, offset + to.size()) of the copy into `to` without touching
    // their pages where they are mapped: a file-backed copy is read through its files. A pass
    // over many megabytes that reads them once costs less so: every page first touched through
    // a mapping costs a fault, and in a virtual machine one of microseconds (64 MiB read where it
    // is mapped took 27 ms, read through the file 7 ms). False past the end or on a read error.
    bool read(std::size_t offset, std::span<std::byte> to) const;
    // Whether the bytes are a file's pages, which may leave the resident set once read
    // (releaseFilePages); memory of the process's own would read back as zeros.
    bool fileBacked() const { return m_fileBacked; }

private:
    // Where the copy lies when file-backed: the files mapped one after the other.
    struct Files
    {
        int first = -1;
        int second = -1;            // -1: one file
        std::size_t firstBytes = 0; // bytes of the copy in the first file
    };
    PrivateCopy(std::byte* address, std::size_t mapped, std::size_t size, Files files);

    std::byte* m_address;
    std::size_t m_mapped; // bytes mapped at m_address
    std::size_t m_size;   // of them, bytes copied
    bool m_fileBacked;
    Files m_files; // kept open for read()
};

} // namespace nanscope::core
