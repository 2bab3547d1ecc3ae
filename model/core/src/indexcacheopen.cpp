// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a saved index file: mapped whole, trusted when its record vouches for it (a checked
// file skips the array checks), noted as used or checked after a load; and checking one just
// saved. What the file must hold is indexcacheload.cpp's business.
#include "cachefiles.hpp"
#include "indexcache.hpp"
#include "indexcachetrust.hpp"

#include <cerrno>
#include <chrono>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace nanscope::core {
namespace {

namespace fs = std::filesystem;

// A read-only private mapping of a whole file, unmapped with its last user.
struct Mapping
{
    void* address = MAP_FAILED;
    std::size_t size = 0;
    ~Mapping()
    {
        if (address != MAP_FAILED)
            ::munmap(address, size);
    }
};

} // namespace

bool loadIndexCache(const fs::path& file, const IndexCacheKey& key, const fs::path& logdir,
                    const DiscoveryOptions& discovery, ReaderState& state, ThreadPool& pool,
                    std::string& why, bool checksums)
{
    int error = 0;
    const int fd = openCacheFile(file, error);
    if (fd < 0) {
        why = error == ENOENT ? "none saved" : "cannot open it: " + cacheFileError(error);
        return false;
    }
    struct stat st
    {};
    auto mapping = std::make_shared<Mapping>();
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        mapping->size = static_cast<std::size_t>(st.st_size);
        mapping->address = ::mmap(nullptr, mapping->size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    ::close(fd);
    if (mapping->address == MAP_FAILED) {
        why = "cannot map it";
        return false;
    }
    const std::span<const std::byte> bytes(static_cast<const std::byte*>(mapping->address),
                                           mapping->size);
    const bool trusted = checksums && checkedBefore(file, st);
    if (!loadIndexCache(bytes, mapping, true, key, logdir, discovery, state, pool, why, checksums,
                        trusted))
        return false;
    // Used: the last to be pruned. The record carries the time, so that the index file keeps
    // the times its record names.
    if (trusted)
        noteUsed(file);
    else if (checksums)
        noteChecked(file, st);
    return true;
}

void checkSavedIndexCache(const fs::path& file, const IndexCacheKey& key, const fs::path& logdir,
                          const DiscoveryOptions& discovery, ReaderState scratch, ThreadPool& pool)
{
    struct stat st
    {};
    if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return;
    const auto wait = untilOldEnough(st);
    if (wait > std::chrono::milliseconds(100))
        return; // times in whole seconds
    if (wait > std::chrono::nanoseconds(0))
        std::this_thread::sleep_for(wait);
    std::string why;
    (void)loadIndexCache(file, key, logdir, discovery, scratch, pool, why);
}

} // namespace nanscope::core
