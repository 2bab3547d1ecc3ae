// SPDX-License-Identifier: GPL-3.0-or-later
// A saved index's bytes, copied where no other process can reach them.
//
// Anyone who may write the cache directory may also truncate or rewrite a saved index in place
// while a reader uses it. A mapping of that file would then fault (SIGBUS: pages past the new
// end) or change under checks already made, and the index's arrays are used where they lie long
// after they were checked. So a reader never maps the file itself: it reads the bytes once,
// into memory of its own (an index below the reader's spill threshold, as it would have held it
// had it read the logdir) or into an unnamed file of the spill directory, mapped (a larger one:
// page cache the system can reclaim, as the spill arena's; past 64 MiB in two halves copied at
// once, each into a file of its own, mapped side by side). Reading costs about what the checks
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
    // Whether the bytes are a file's pages, which may leave the resident set once read
    // (releaseFilePages); memory of the process's own would read back as zeros.
    bool fileBacked() const { return m_fileBacked; }

private:
    PrivateCopy(std::byte* address, std::size_t mapped, std::size_t size, bool fileBacked);

    std::byte* m_address;
    std::size_t m_mapped; // bytes mapped at m_address
    std::size_t m_size;   // of them, bytes copied
    bool m_fileBacked;
};

} // namespace nanscope::core
