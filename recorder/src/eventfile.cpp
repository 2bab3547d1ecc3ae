#include "eventfile.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace nanscope::detail {
namespace {

Status ioError(const std::string& what, const std::filesystem::path& path, int error)
{
    return {ErrorCode::IoError, what + " " + path.string() + ": " + std::strerror(error)};
}

} // namespace

EventFile::~EventFile()
{
    (void)close();
}

Status EventFile::open(const std::filesystem::path& path)
{
    std::lock_guard lock(m_mutex);
    m_path = path;
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0)
        return ioError("cannot create", path, errno);
    m_committedSize = 0;
    return {};
}

std::size_t EventFile::append(std::string_view framedRecord)
{
    std::lock_guard lock(m_mutex);
    m_pending.append(framedRecord);
    ++m_pendingRecords;
    return m_pending.size();
}

Status EventFile::writeOut()
{
    std::lock_guard lock(m_mutex);
    return writeOutLocked();
}

Status EventFile::writeOutLocked()
{
    if (m_pending.empty())
        return {};
    if (m_fd < 0) {
        m_recordsDropped += m_pendingRecords;
        m_pending.clear();
        m_pendingRecords = 0;
        return {ErrorCode::Closed, "cannot write " + m_path.string() + ": the file is closed"};
    }
    std::size_t done = 0;
    int error = 0;
    while (done < m_pending.size()) {
        const ssize_t n = ::write(m_fd, m_pending.data() + done, m_pending.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error = n < 0 ? errno : ENOSPC;
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    Status status;
    if (error != 0) {
        // A torn record in the middle of a file would hide every later record from readers.
        if (::ftruncate(m_fd, static_cast<off_t>(m_committedSize)) == 0)
            (void)::lseek(m_fd, static_cast<off_t>(m_committedSize), SEEK_SET);
        m_recordsDropped += m_pendingRecords;
        status = ioError("cannot write", m_path, error);
    } else {
        m_committedSize += done;
        m_bytesWritten += done;
        m_unsynced = true;
    }
    m_pending.clear();
    m_pendingRecords = 0;
    return status;
}

Status EventFile::sync()
{
    std::lock_guard lock(m_mutex);
    Status status = writeOutLocked();
    if (m_fd >= 0 && m_unsynced) {
        if (::fdatasync(m_fd) != 0 && status.ok() && errno != EINVAL)
            status = ioError("cannot sync", m_path, errno);
        m_unsynced = false;
    }
    return status;
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

} // namespace nanscope::detail
