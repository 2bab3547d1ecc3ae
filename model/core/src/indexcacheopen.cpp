// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a saved index file: copied whole where no other process can change it
// (privatecopy.hpp), trusted when its record vouches for it (a checked file skips the array
// checks), noted as used or checked after a load; and checking one just saved or appended to. What
// the file must hold is indexcacheload.cpp's business.
#include "cachefiles.hpp"
#include "indexcache.hpp"
#include "indexcacheformat.hpp"
#include "indexcachetrust.hpp"
#include "privatecopy.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace nanscope::core {

namespace fs = std::filesystem;

namespace {

// An index larger than this is copied into the spill directory (when there is one) whatever the
// threshold for spilling arrays: a copy into memory faults in every page as it is made (13 us
// apiece in a virtual machine: a 70 MB index took 0.22 s of a 0.28 s reopened report), one into
// a file is made in the kernel, and its mapping faults in only the pages that are read.
constexpr std::uint64_t kCopyToFileAboveBytes = std::uint64_t{16} << 20;

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
    std::shared_ptr<const PrivateCopy> copy;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        copy =
            PrivateCopy::of(fd, static_cast<std::uint64_t>(st.st_size), state.index.spillDirectory,
                            std::min(state.index.spillAboveBytes, kCopyToFileAboveBytes), why);
    else
        why = "it is empty";
    // A file changed while it was copied may hold a mix of two versions: checked whole, and
    // noted as checked only when it is still what was looked at.
    struct stat after
    {};
    const bool unchanged = copy && ::fstat(fd, &after) == 0 && sameIdentity(st, after);
    ::close(fd);
    if (!copy)
        return false;
    const bool trusted = checksums && unchanged && checkedBefore(file, st);
    if (!loadIndexCache(copy->bytes(), copy, copy.get(), key, logdir, discovery, state, pool, why,
                        checksums, trusted))
        return false;
    // The file as copied, which a save may append to while it stays so.
    if (state.savedIndex && unchanged) {
        state.savedIndex->path = file;
        state.savedIndex->identity = st;
        state.savedIndex->vouched = checksums;
    } else {
        state.savedIndex.reset();
    }
    // Used: the last to be pruned. The record carries the time, so that the index file keeps
    // the times its record names.
    if (trusted)
        noteUsed(file);
    else if (checksums && unchanged)
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

void noteAppendedIndexCache(const SavedIndexFile& saved)
{
    if (!saved.vouched)
        return;
    const auto wait = untilOldEnough(saved.identity);
    if (wait > std::chrono::milliseconds(100))
        return; // times in whole seconds: the next reopen checks it whole
    if (wait > std::chrono::nanoseconds(0))
        std::this_thread::sleep_for(wait);
    struct stat st
    {};
    if (::lstat(saved.path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        sameIdentity(st, saved.identity))
        noteChecked(saved.path, st);
}

} // namespace nanscope::core
