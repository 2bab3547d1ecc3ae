// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadworker.hpp"

#include <QThread>
#include <chrono>
#include <filesystem>
#include <system_error>

namespace nanscope::items {
namespace {

// Snapshots published while loading, at most this often; the last one always.
constexpr auto kPublishInterval = std::chrono::milliseconds(200);

qint64 logdirBytes(const core::LogdirLayout& layout)
{
    qint64 total = 0;
    std::error_code ec;
    for (const auto& set : layout.fileSets) {
        for (auto suffix : {core::kSourceFilesSuffix, core::kStackFramesSuffix, core::kGraphsSuffix,
                            core::kExecutionSuffix, core::kTracesSuffix}) {
            const auto size = std::filesystem::file_size(set.file(suffix), ec);
            if (!ec)
                total += static_cast<qint64>(size);
        }
    }
    return total;
}

} // namespace

LoadWorker::~LoadWorker()
{
    saveIndexOfCompleteRead();
}

void LoadWorker::reset()
{
    saveIndexOfCompleteRead();
    m_reader.reset();
    m_readWhole = false;
}

void LoadWorker::saveIndexOfCompleteRead()
{
    if (m_reader && m_readWhole)
        m_reader->saveIndex();
}

void LoadWorker::load(quint64 job, const QString& path, const LoadOptions& settings)
{
    core::ReaderOptions options;
    options.maxMemoryBytes = m_maxMemoryBytes.load();
    options.backgroundThreads = true;
    options.indexCache = settings.indexCache;
    options.spill = settings.spill;
    options.expected = settings.expected;
    options.discovery.mainHost = settings.mainHost;
    saveIndexOfCompleteRead(); // what following the last one read
    m_reader = std::make_unique<core::LogdirReader>(path.toStdString(), options);
    // Once the views have what they need: the next open of this logdir starts from here. Not
    // after each update of a followed logdir, which would add to the index at every poll, but
    // when the logdir is closed or the session ends.
    m_readWhole = readUntilComplete(job);
    if (m_readWhole)
        m_reader->saveIndex();
}

void LoadWorker::update(quint64 job)
{
    if (!m_reader)
        return;
    // A follow poll cancelled by a close leaves the reader at a consistent state past the
    // complete read it started from: still worth saving.
    m_readWhole = readUntilComplete(job) || m_readWhole;
}

bool LoadWorker::readUntilComplete(quint64 job)
{
    using Clock = std::chrono::steady_clock;
    auto lastPublished = Clock::now() - kPublishInterval;
    std::uint64_t published = 0;
    qint64 total = -1;
    qint64 chunks = 0;
    bool cancelled = false;
    std::shared_ptr<const core::Snapshot> snapshot;
    for (;;) {
        if (m_cancelJob.load() == job) {
            cancelled = true;
            break;
        }
        const quint64 chunk = m_chunkBytes.load();
        snapshot = m_reader->update({.maxTraceBytes = chunk});
        if (total < 0) {
            total = logdirBytes(snapshot->layout());
            Q_EMIT indexCacheRead(job, QString::fromStdString(m_reader->indexCacheStatus()));
        }
        ++chunks;
        const bool complete = snapshot->complete();
        const auto now = Clock::now();
        if (complete || now - lastPublished >= kPublishInterval) {
            if (snapshot->generation() != published) {
                Q_EMIT snapshotReady(job, snapshot);
                published = snapshot->generation();
            }
            lastPublished = now;
            const qint64 done =
                complete ? total : std::min<qint64>(total, chunks * static_cast<qint64>(chunk));
            Q_EMIT progress(job, done, total);
        }
        if (complete)
            break;
    }
    if (cancelled && snapshot && snapshot->generation() != published)
        Q_EMIT snapshotReady(job, snapshot);
    Q_EMIT finished(job, cancelled);
    return !cancelled;
}

} // namespace nanscope::items
