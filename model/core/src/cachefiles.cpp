// SPDX-License-Identifier: GPL-3.0-or-later
#include "cachefiles.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nanscope::core {

namespace {

int openRegular(const std::filesystem::path& path, int access, int& error)
{
    // O_NONBLOCK: a FIFO opens at once (and is then refused) instead of waiting for a writer.
    const int fd = ::open(path.c_str(), access | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        error = errno;
        return -1;
    }
    struct stat st
    {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        error = EINVAL;
        return -1;
    }
    return fd;
}

} // namespace

int openCacheFile(const std::filesystem::path& path, int& error)
{
    return openRegular(path, O_RDONLY, error);
}

int openCacheFileForWriting(const std::filesystem::path& path, int& error)
{
    return openRegular(path, O_WRONLY, error);
}

int createCacheFile(const std::filesystem::path& path)
{
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

int createUnnamedCacheFile(const std::filesystem::path& directory)
{
#ifdef O_TMPFILE
    const int unnamed = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (unnamed >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
        return unnamed;
#endif
    std::string name = (directory / "nanscope-columns-XXXXXX").string();
    const int named = ::mkostemp(name.data(), O_CLOEXEC);
    if (named >= 0)
        ::unlink(name.c_str());
    return named;
}

std::string cacheFileError(int error)
{
    if (error == EINVAL)
        return "not a regular file";
    if (error == ELOOP)
        return "a symbolic link";
    return std::strerror(error);
}

bool regularOrAbsent(const std::filesystem::path& path)
{
    struct stat st
    {};
    if (::lstat(path.c_str(), &st) != 0)
        return errno == ENOENT;
    return S_ISREG(st.st_mode);
}

void removeRegularFile(const std::filesystem::path& path)
{
    struct stat st
    {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
        ::unlink(path.c_str());
}

std::optional<std::uint64_t> fileSizeLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::nullopt;
    return static_cast<std::uint64_t>(limit.rlim_cur);
}

bool fitsFileSizeLimit(std::uint64_t size)
{
    const auto limit = fileSizeLimit();
    return !limit || size <= *limit;
}

int writeCacheBytes(int fd, std::uint64_t position, const void* data, std::size_t size)
{
    // A write that starts at the limit raises SIGXFSZ; one that ends on it does not.
    if (!fitsFileSizeLimit(position + size))
        return EFBIG;
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return ENOSPC;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return 0;
}

} // namespace nanscope::core
