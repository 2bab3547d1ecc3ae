// SPDX-License-Identifier: GPL-3.0-or-later
// Opening, creating and removing the files NaNscope keeps in the user's cache directory (saved
// indexes, their records, spilled columns), by rules that a hostile directory cannot bend.
//
// Anything may lie at a cache file's name: a FIFO (whose open() blocks until a writer comes,
// forever), a symbolic link to a file of the user's, a directory. So a cache file is opened
// without following a link and without blocking, and used only when it is a regular file; a
// file is created only where nothing lies yet (O_EXCL), and only a regular file that NaNscope
// would have created is ever removed. Writes stay below RLIMIT_FSIZE (`ulimit -f`): past it the
// kernel kills the process with SIGXFSZ, where a cache must only fail to save.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace nanscope::core {

// A regular file opened for reading, or -1 with `error` (an errno) set: ELOOP for a link,
// EINVAL (reported as "not a regular file") for anything else that is not one.
int openCacheFile(const std::filesystem::path& path, int& error);
// The same, open for writing in place (a save that appends to a saved index).
int openCacheFileForWriting(const std::filesystem::path& path, int& error);

// A new file, created where nothing lies (no link followed), or -1 with errno set.
int createCacheFile(const std::filesystem::path& path);

// A new file in `directory` that no other process can open, gone once closed (O_TMPFILE, or a
// name unlinked at once where the file system has none), or -1 with errno set.
int createUnnamedCacheFile(const std::filesystem::path& directory);

// The text of an errno from openCacheFile or createCacheFile.
std::string cacheFileError(int error);

// Whether nothing lies at `path`, or a regular file (not a link to one).
bool regularOrAbsent(const std::filesystem::path& path);

// Removes `path` when it is a regular file (not a link); anything else is left as it is.
void removeRegularFile(const std::filesystem::path& path);

// The bytes a file may still grow to under RLIMIT_FSIZE; nullopt: no limit.
std::optional<std::uint64_t> fileSizeLimit();

// Whether a file may grow to `size` bytes without the kernel sending SIGXFSZ.
bool fitsFileSizeLimit(std::uint64_t size);

// Writes `size` bytes at the file's position `position` (a file written from its start, in
// order), refusing with EFBIG what would pass RLIMIT_FSIZE. 0, or the errno.
int writeCacheBytes(int fd, std::uint64_t position, const void* data, std::size_t size);

} // namespace nanscope::core
