// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/filesystem.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <mutex>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace nanscope::core {
namespace {

namespace fs = std::filesystem;

// O_NONBLOCK: opening a FIFO must not wait for a writer. O_NOCTTY: a terminal never becomes ours.
constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

class Descriptor
{
public:
    explicit Descriptor(int fd = -1) : m_fd(fd) {}
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

// openat2 with RESOLVE_BENEATH: the kernel refuses any path that leaves `dirfd`, by ".." or by a
// symbolic link, atomically (no window between a check and the open). -1 with errno ENOSYS where
// the kernel (before 5.6) or a seccomp filter does not offer it.
int openBeneath(int dirfd, const char* name)
{
#ifdef SYS_openat2
    open_how how{};
    how.flags = kOpenFlags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return static_cast<int>(::syscall(SYS_openat2, dirfd, name, &how, sizeof how));
#else
    (void)dirfd;
    (void)name;
    errno = ENOSYS;
    return -1;
#endif
}

bool isBeneath(const fs::path& inner, const fs::path& outer)
{
    const auto relative = inner.lexically_relative(outer);
    return !relative.empty() && *relative.begin() != ".." && relative != ".";
}

// Opens `path` unless it is a symbolic link whose target lies outside the path's directory.
int openInDirectory(const fs::path& path, std::string* error)
{
    auto fail = [&](std::string reason) {
        if (error)
            *error = std::move(reason);
        return -1;
    };
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    const fs::path name = path.filename();
    const Descriptor dirfd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (dirfd.get() < 0)
        return fail(std::strerror(errno));
    int fd = openBeneath(dirfd.get(), name.c_str());
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM && errno != E2BIG && errno != EXDEV))
        return fd >= 0 ? fd : fail(std::strerror(errno));

    // A link refused by RESOLVE_BENEATH may still point inside (as an absolute path), and old
    // kernels need the check done here: resolve it and compare.
    struct stat st
    {};
    if (::fstatat(dirfd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return fail(std::strerror(errno));
    if (!S_ISLNK(st.st_mode)) {
        fd = ::openat(dirfd.get(), name.c_str(), kOpenFlags | O_NOFOLLOW);
        return fd >= 0 ? fd : fail(std::strerror(errno));
    }
    std::error_code ec;
    const fs::path target = fs::canonical(path, ec);
    if (ec)
        return fail("a symbolic link to a missing or unreadable target: " + ec.message());
    const fs::path base = fs::canonical(dir, ec);
    if (ec || !isBeneath(target, base))
        return fail("a symbolic link to " + target.string() +
                    ", outside the logdir: NaNscope does not follow links out of a logdir");
    // Every component of `target` was a real directory or file a moment ago; O_NOFOLLOW keeps a
    // link swapped in since then for the last one from being followed.
    fd = ::open(target.c_str(), kOpenFlags | O_NOFOLLOW);
    return fd >= 0 ? fd : fail(std::strerror(errno));
}

class RealFile : public OpenFile
{
public:
    explicit RealFile(int fd) : m_fd(fd) {}
    ~RealFile() override { ::close(m_fd); }
    RealFile(const RealFile&) = delete;
    RealFile& operator=(const RealFile&) = delete;

    std::uint64_t size() const override
    {
        struct stat st
        {};
        if (::fstat(m_fd, &st) != 0)
            return 0;
        return static_cast<std::uint64_t>(st.st_size);
    }

    std::size_t readAt(std::uint64_t offset, void* buffer, std::size_t size) const override
    {
        std::size_t got = 0;
        auto* out = static_cast<char*>(buffer);
        while (got < size) {
            const ssize_t n =
                ::pread(m_fd, out + got, size - got, static_cast<off_t>(offset + got));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += static_cast<std::size_t>(n);
        }
        return got;
    }

    std::int64_t modificationTime() const override
    {
        struct stat st
        {};
        if (::fstat(m_fd, &st) != 0)
            return 0;
        return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    }

    Identity identity() const override
    {
        struct stat st
        {};
        if (::fstat(m_fd, &st) != 0)
            return {};
        return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
                static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec};
    }

private:
    int m_fd;
};

class RealFileSystem : public FileSystem
{
public:
    Kind kind(const fs::path& path) const override
    {
        std::error_code ec;
        const auto status = fs::status(path, ec);
        if (ec || !fs::exists(status))
            return Kind::Missing;
        if (fs::is_directory(status))
            return Kind::Directory;
        return fs::is_regular_file(status) ? Kind::RegularFile : Kind::Other;
    }

    bool list(const fs::path& dir, std::vector<Entry>& out, std::string& error) const override
    {
        std::error_code ec;
        fs::directory_iterator it(dir, ec);
        if (ec) {
            error = ec.message();
            return false;
        }
        for (const auto& entry : it) {
            std::error_code typeError;
            out.push_back({entry.path().filename().string(), entry.is_regular_file(typeError)});
        }
        return true;
    }

    std::unique_ptr<OpenFile> open(const fs::path& path, std::string& error) const override
    {
        const int fd = openInDirectory(path, &error);
        if (fd < 0)
            return nullptr;
        struct stat st
        {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            error = "not a regular file";
            return nullptr;
        }
        return std::make_unique<RealFile>(fd);
    }
};

} // namespace

// Appends replace the bytes whole (a copy with the new ones after), so a read in progress keeps
// the bytes it started with.
class MemoryFileSystem::Content
{
public:
    Content(std::string bytes, std::int64_t version)
        : m_bytes(std::make_shared<const std::string>(std::move(bytes))), m_version(version)
    {}

    std::shared_ptr<const std::string> bytes() const
    {
        const std::lock_guard lock(m_mutex);
        return m_bytes;
    }
    std::int64_t version() const
    {
        const std::lock_guard lock(m_mutex);
        return m_version;
    }
    void append(std::string_view more, std::int64_t version)
    {
        const auto before = bytes(); // only the file system's writer appends
        auto grown = std::make_shared<std::string>();
        grown->reserve(before->size() + more.size());
        grown->append(*before).append(more);
        const std::lock_guard lock(m_mutex);
        m_bytes = std::move(grown);
        m_version = version;
    }

private:
    mutable std::mutex m_mutex;
    std::shared_ptr<const std::string> m_bytes;
    std::int64_t m_version;
};

namespace {

class MemoryFile : public OpenFile
{
public:
    explicit MemoryFile(std::shared_ptr<const MemoryFileSystem::Content> content)
        : m_content(std::move(content))
    {}
    std::uint64_t size() const override { return m_content->bytes()->size(); }
    std::size_t readAt(std::uint64_t offset, void* buffer, std::size_t size) const override
    {
        const auto bytes = m_content->bytes();
        if (offset >= bytes->size())
            return 0;
        const std::size_t n = std::min<std::uint64_t>(size, bytes->size() - offset);
        std::memcpy(buffer, bytes->data() + offset, n);
        return n;
    }
    std::int64_t modificationTime() const override { return m_content->version(); }

private:
    std::shared_ptr<const MemoryFileSystem::Content> m_content;
};

} // namespace

void raiseOpenFileLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max)
        return;
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
}

std::size_t openFileBudget()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 256;
    if (limit.rlim_cur == RLIM_INFINITY)
        return SIZE_MAX;
    return std::max<std::size_t>(16, static_cast<std::size_t>(limit.rlim_cur / 2));
}

std::shared_ptr<const FileSystem> realFileSystem()
{
    static const auto real = std::make_shared<const RealFileSystem>();
    return real;
}

void MemoryFileSystem::add(const fs::path& path, std::string bytes)
{
    const fs::path normal = path.lexically_normal();
    m_files[normal.string()] = {normal.parent_path().string(), normal.filename().string(),
                                std::make_shared<Content>(std::move(bytes), m_nextVersion++)};
}

bool MemoryFileSystem::append(const fs::path& path, std::string_view bytes)
{
    const auto it = m_files.find(path.lexically_normal().string());
    if (it == m_files.end())
        return false;
    it->second.content->append(bytes, m_nextVersion++);
    return true;
}

FileSystem::Kind MemoryFileSystem::kind(const fs::path& path) const
{
    const std::string p = path.lexically_normal().string();
    if (m_files.contains(p))
        return Kind::RegularFile;
    for (const auto& [key, file] : m_files)
        if (file.directory == p)
            return Kind::Directory;
    return Kind::Missing;
}

bool MemoryFileSystem::list(const fs::path& dir, std::vector<Entry>& out, std::string& error) const
{
    const std::string p = dir.lexically_normal().string();
    bool any = false;
    for (const auto& [key, file] : m_files) {
        if (file.directory == p) {
            out.push_back({file.name, true});
            any = true;
        }
    }
    if (!any)
        error = "no such directory";
    return any;
}

std::unique_ptr<OpenFile> MemoryFileSystem::open(const fs::path& path, std::string& error) const
{
    const auto it = m_files.find(path.lexically_normal().string());
    if (it == m_files.end()) {
        error = "no such file";
        return nullptr;
    }
    return std::make_unique<MemoryFile>(it->second.content);
}

} // namespace nanscope::core
