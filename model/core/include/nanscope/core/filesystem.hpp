// SPDX-License-Identifier: GPL-3.0-or-later
// Where the reader's bytes come from: the real file system, or files held in memory (the fuzz
// targets read whole logdirs without touching the disk, and tests build logdirs in memory). One
// interface for both, so that discovery, the index and the details read on demand run the same
// code on either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

// One file opened for reading.
class OpenFile
{
public:
    virtual ~OpenFile() = default;
    // The size now (a file another process appends to grows); 0 on error.
    virtual std::uint64_t size() const = 0;
    // Reads up to `size` bytes at `offset`; returns how many were read (fewer at the end of the
    // file or on an I/O error).
    virtual std::size_t readAt(std::uint64_t offset, void* buffer, std::size_t size) const = 0;
    // When the file was last written, in nanoseconds of the file system's clock (a version
    // number for files in memory): with the size, how a saved index tells that a file it read
    // was rewritten in place. 0 when unknown.
    virtual std::int64_t modificationTime() const = 0;
    // What else a write through the file system changes: the change time (which, unlike the
    // modification time, no user can set back) and the inode (a file renamed over it). All 0
    // when unknown (files in memory): a saved index then checks the file's bytes.
    struct Identity
    {
        std::uint64_t device = 0;
        std::uint64_t inode = 0;
        std::int64_t changeTime = 0;
        bool known() const { return device != 0 || inode != 0; }
        friend bool operator==(const Identity&, const Identity&) = default;
    };
    virtual Identity identity() const { return {}; }
};

// Raises this process's soft limit of open files (`ulimit -Sn`, often 1024) to its hard limit.
// A reader keeps about three files of each host open: a logdir of hundreds of hosts needs more.
// For programs that read logdirs (the report, the app), once at startup: a library does not
// change its process's limits by itself.
void raiseOpenFileLimit();

// How many logdir files a reader keeps open between reads: half this process's soft limit of
// open files, at least 16. A logdir with more files than this (hundreds of hosts under a hard
// limit of 1024) closes each trace and execution file once it is read, and opens it again at the
// next update.
std::size_t openFileBudget();

class FileSystem
{
public:
    enum class Kind { Missing, Directory, RegularFile, Other };
    struct Entry
    {
        std::string name;
        bool regularFile = false;
    };

    virtual ~FileSystem() = default;
    virtual Kind kind(const std::filesystem::path& path) const = 0;
    // The entries of a directory (any order); false with `error` set when it cannot be listed.
    virtual bool list(const std::filesystem::path& dir, std::vector<Entry>& out,
                      std::string& error) const = 0;
    // Opens a regular file of a logdir for reading; null with `error` set when it cannot be.
    virtual std::unique_ptr<OpenFile> open(const std::filesystem::path& path,
                                           std::string& error) const = 0;
};

// The disk. Logdirs are often written by other people's programs into shared places, so a
// symbolic link that leads out of a file's directory is not followed (links within it are), and
// anything but a regular file is refused without blocking (a FIFO would wait forever).
std::shared_ptr<const FileSystem> realFileSystem();

// Files held in memory under made-up paths. Not thread-safe while files are added; reading from
// several threads once they are in is, and so is appending to a file meanwhile.
class MemoryFileSystem : public FileSystem
{
public:
    // A new file at `path`, or one that replaces the file there: files opened before keep what
    // they held, as after a rename over them.
    void add(const std::filesystem::path& path, std::string bytes);
    // Grows the file at `path` in place, as a writer appending to it: files opened from it see
    // the new bytes and a newer modification time. False when there is no such file.
    bool append(const std::filesystem::path& path, std::string_view bytes);

    Kind kind(const std::filesystem::path& path) const override;
    bool list(const std::filesystem::path& dir, std::vector<Entry>& out,
              std::string& error) const override;
    std::unique_ptr<OpenFile> open(const std::filesystem::path& path,
                                   std::string& error) const override;

    class Content; // a file's bytes and version, shared with the files opened from it

private:
    struct File
    {
        std::string directory; // the normalised parent path
        std::string name;
        std::shared_ptr<Content> content;
    };
    // Versions are the files' modificationTime(): one more per add() or append().
    std::int64_t m_nextVersion = 1;
    // By normalised path, as strings: a fuzz target looks files up thousands of times a second,
    // and comparing std::filesystem::path objects goes component by component.
    std::map<std::string, File, std::less<>> m_files;
};

} // namespace nanscope::core
