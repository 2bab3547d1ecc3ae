// SPDX-License-Identifier: Apache-2.0
#include "eventfile.hpp"

#include "nanscope/format/record.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <pthread.h>
#include <span>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nanscope::detail {
namespace {

Status ioError(const std::string& what, const std::filesystem::path& path, int error)
{
    return {ErrorCode::IoError, what + " " + path.string() + ": " + std::strerror(error)};
}

std::span<const std::byte> asBytes(std::string_view s)
{
    return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

// Where the whole record at `at` of `framed` ends, if one starts there (lengths are trusted:
// these are records the recorder framed itself).
std::optional<std::size_t> recordEnd(std::string_view framed, std::size_t at)
{
    if (framed.size() - at < format::kRecordOverhead)
        return std::nullopt;
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i)
        length = (length << 8) | static_cast<unsigned char>(framed[at + i]);
    if (length > framed.size() - at - format::kRecordOverhead)
        return std::nullopt;
    return at + format::kRecordOverhead + static_cast<std::size_t>(length);
}

// How many records `framed` (whole records, as appended) holds.
std::uint64_t countRecords(std::string_view framed)
{
    std::uint64_t n = 0;
    for (auto end = recordEnd(framed, 0); end; end = recordEnd(framed, *end))
        ++n;
    return n;
}

// The length of the longest run of whole records at the start of `framed` within `room` bytes.
std::size_t wholeRecordsWithin(std::string_view framed, std::uint64_t room)
{
    std::size_t at = 0;
    for (auto end = recordEnd(framed, 0); end && *end <= room; end = recordEnd(framed, *end))
        at = *end;
    return at;
}

// The longest prefix of whole records whose CRCs check. Allocates nothing: used by signal
// handlers, where the memory may have been damaged by whatever crashed the program.
std::size_t validPrefix(std::string_view framed)
{
    std::uint64_t offset = 0;
    for (;;) {
        const format::RecordView r = format::parseRecord(asBytes(framed), offset);
        if (r.status != format::RecordStatus::Ok)
            return static_cast<std::size_t>(offset);
        offset = r.nextOffset;
    }
}

// The bytes a file of `size` bytes may still grow by under RLIMIT_FSIZE; nullopt: no limit.
std::optional<std::uint64_t> roomUnderFileSizeLimit(std::uint64_t size)
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::nullopt;
    return size < limit.rlim_cur ? limit.rlim_cur - size : 0;
}

// Blocks one signal in this thread for its lifetime, restoring the previous mask after.
class SignalBlock
{
public:
    explicit SignalBlock(int signal) : m_signal(signal)
    {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, signal);
        m_blocked = ::pthread_sigmask(SIG_BLOCK, &set, &m_previous) == 0;
    }
    ~SignalBlock()
    {
        if (m_blocked)
            ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
    }
    SignalBlock(const SignalBlock&) = delete;
    SignalBlock& operator=(const SignalBlock&) = delete;

    // Takes back the signal if this thread's write raised it, so that unblocking does not
    // deliver it.
    void discardPending() const
    {
        if (!m_blocked || sigismember(&m_previous, m_signal) == 1)
            return; // it was blocked before: whatever is pending is the program's business
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, m_signal);
        const timespec now{0, 0};
        while (::sigtimedwait(&set, nullptr, &now) == m_signal) {
        }
    }

private:
    int m_signal;
    sigset_t m_previous{};
    bool m_blocked = false;
};

} // namespace

EventFile::~EventFile()
{
    (void)close();
}

Status EventFile::open(const std::filesystem::path& path)
{
    std::lock_guard lock(m_mutex);
    m_path = path;
    // Created, never reopened: two recorders that chose one name (the ranks of a job started
    // in the same second under one host name) must not interleave their records in one file.
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (m_fd < 0 && errno == EEXIST)
        return {ErrorCode::AlreadyExists,
                "cannot create " + path.string() +
                    ": another recorder already writes a file set of this name (one host name "
                    "per recorder: give each process its own, as the ranks of a job need)"};
    if (m_fd < 0)
        return ioError("cannot create", path, errno);
    m_committedSize = 0;
    return {};
}

std::size_t EventFile::append(std::string_view framedRecord)
{
    std::lock_guard lock(m_mutex);
    if (m_frozen || m_removed) {
        ++m_recordsDropped;
        return m_pending.size();
    }
    m_pending.append(framedRecord);
    m_appended += framedRecord.size();
    return m_pending.size();
}

std::size_t EventFile::append(std::string&& framedRecord)
{
    std::lock_guard lock(m_mutex);
    if (m_frozen || m_removed) {
        ++m_recordsDropped;
        return m_pending.size();
    }
    m_appended += framedRecord.size();
    if (m_pending.empty())
        m_pending = std::move(framedRecord);
    else
        m_pending.append(framedRecord);
    return m_pending.size();
}

void EventFile::freeze()
{
    std::lock_guard lock(m_mutex);
    m_frozen = true;
    dropLocked(m_pending.size());
}

bool EventFile::frozen() const
{
    std::lock_guard lock(m_mutex);
    return m_frozen;
}

std::uint64_t EventFile::mark() const
{
    std::lock_guard lock(m_mutex);
    return m_appended;
}

Status EventFile::writeOut(std::uint64_t upTo)
{
    std::lock_guard lock(m_mutex);
    return writeOutLocked(upTo);
}

void EventFile::dropLocked(std::size_t bytes)
{
    m_recordsDropped += countRecords(std::string_view(m_pending).substr(0, bytes));
    m_pending.erase(0, bytes);
}

int EventFile::writeRawLocked(std::string_view bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int error = n < 0 ? errno : ENOSPC;
            // A torn record in the middle of a file would hide every later record from readers.
            if (::ftruncate(m_fd, static_cast<off_t>(m_committedSize)) == 0)
                (void)::lseek(m_fd, static_cast<off_t>(m_committedSize), SEEK_SET);
            return error;
        }
        done += static_cast<std::size_t>(n);
    }
    m_committedSize += done;
    m_bytesWritten += done;
    m_unsynced = true;
    return 0;
}

int EventFile::writeAllLocked(std::string_view bytes, std::size_t& written)
{
    written = 0;
    // Past RLIMIT_FSIZE the kernel sends SIGXFSZ, whose default action kills the program the
    // recorder only watches: write the whole records that fit under the limit and stop there.
    // The signal is blocked around the write in case the limit is lowered meanwhile; one that
    // our write raised is taken back before the mask is restored.
    std::size_t fits = bytes.size();
    if (const auto room = roomUnderFileSizeLimit(m_committedSize); room && *room < fits)
        fits = wholeRecordsWithin(bytes, *room);
    const SignalBlock block(SIGXFSZ);
    const int error = writeRawLocked(bytes.substr(0, fits));
    if (error == EFBIG)
        block.discardPending();
    if (error != 0)
        return error;
    written = fits;
    return fits < bytes.size() ? EFBIG : 0;
}

Status EventFile::writeOutLocked(std::uint64_t upTo)
{
    const std::uint64_t pendingStart = m_appended - m_pending.size();
    if (m_pending.empty() || upTo <= pendingStart)
        return {};
    const auto size = static_cast<std::size_t>(std::min<std::uint64_t>(
        m_pending.size(), upTo == kAll ? m_pending.size() : upTo - pendingStart));
    if (m_fd < 0) {
        dropLocked(size);
        if (m_removed)
            return {ErrorCode::IoError, "cannot write " + m_path.string() + ": it was removed"};
        return {ErrorCode::Closed, "cannot write " + m_path.string() + ": the file is closed"};
    }
    std::size_t written = 0;
    if (const int error = writeAllLocked(std::string_view(m_pending).substr(0, size), written);
        error != 0) {
        m_pending.erase(0, written);
        dropLocked(size - written);
        m_frozen = true;
        dropLocked(m_pending.size());
        return ioError("cannot write", m_path, error);
    }
    m_pending.erase(0, size);
    // A large record (FULL_TENSOR's values) leaves its capacity behind: not kept for the file's
    // life.
    constexpr std::size_t kKeptCapacity = std::size_t{8} << 20;
    if (m_pending.capacity() > kKeptCapacity && m_pending.size() < kKeptCapacity / 2)
        std::string(m_pending).swap(m_pending);
    return {};
}

Status EventFile::sync(std::uint64_t upTo)
{
    std::lock_guard lock(m_mutex);
    Status status = writeOutLocked(upTo);
    if (m_fd >= 0 && m_unsynced) {
        if (::fdatasync(m_fd) != 0 && status.ok() && errno != EINVAL)
            status = ioError("cannot sync", m_path, errno);
        m_unsynced = false;
    }
    return status;
}

Status EventFile::checkRemoved()
{
    std::lock_guard lock(m_mutex);
    struct stat st
    {};
    if (m_fd < 0 || m_removed || ::fstat(m_fd, &st) != 0 || st.st_nlink > 0)
        return {};
    m_removed = true;
    dropLocked(m_pending.size());
    ::close(m_fd);
    m_fd = -1;
    return {ErrorCode::IoError, m_path.string() +
                                    " was removed while the recorder was writing it; its later "
                                    "records are dropped"};
}

Status EventFile::close()
{
    Status status = sync();
    std::lock_guard lock(m_mutex);
    if (m_fd >= 0 && ::close(m_fd) != 0 && status.ok())
        status = ioError("cannot close", m_path, errno);
    m_fd = -1;
    return status;
}

bool EventFile::tryLockForSignal()
{
    return m_mutex.try_lock();
}

void EventFile::unlockForSignal()
{
    m_mutex.unlock();
}

void EventFile::writeOutLockedFromSignal()
{
    if (m_fd < 0 || m_pending.empty())
        return;
    const std::size_t size = validPrefix(m_pending);
    if (size > 0 && writeRawLocked(std::string_view(m_pending).substr(0, size)) == 0)
        m_pending.erase(0, size); // moves bytes, allocates nothing: the program may go on
}

void EventFile::writeRecordLockedFromSignal(std::string_view framedRecord)
{
    if (m_fd >= 0 && !framedRecord.empty() && validPrefix(framedRecord) == framedRecord.size())
        (void)writeRawLocked(framedRecord);
}

} // namespace nanscope::detail
