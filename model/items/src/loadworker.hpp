// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a core::LogdirReader on the session's worker thread.
#pragma once

#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/logdirsession.hpp"

#include <QObject>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace nanscope::items {

// What a load reads with, beyond the path: the session's settings at the time of the load.
struct LoadOptions
{
    core::IndexCacheOptions indexCache;
    core::SpillOptions spill;
    std::vector<core::ExpectedPattern> expected;
    std::string mainHost; // core::DiscoveryOptions::mainHost
};

class LoadWorker : public QObject
{
    Q_OBJECT

public:
    // Saves what a followed logdir gained since the load's save (see reset()).
    ~LoadWorker() override;

    // Asks the running load to stop at its next chunk; thread-safe.
    void requestCancel(quint64 job) { m_cancelJob = job; }
    void setChunkBytes(quint64 bytes) { m_chunkBytes = bytes > 0 ? bytes : 1; }
    // The reader's memory limit (core::ReaderOptions::maxMemoryBytes) for the next load().
    void setMaxMemoryBytes(quint64 bytes) { m_maxMemoryBytes = bytes; }

public Q_SLOTS:
    // Reads `path` from the start (or from its saved index, see core::IndexCacheOptions), in
    // chunks, publishing snapshots as it goes; then saves the index.
    void load(quint64 job, const QString& path, const nanscope::items::LoadOptions& settings);
    // Reads what was appended since the last call (following a growing logdir).
    void update(quint64 job);
    // Forgets the logdir, once its index is saved with what following it read since the load
    // (appended to the saved index, see core::LogdirReader::saveIndex): the next open, after a
    // restart too, reads only what came after.
    void reset();

Q_SIGNALS:
    void snapshotReady(quint64 job, const nanscope::items::SnapshotPtr& snapshot);
    void progress(quint64 job, qint64 bytesRead, qint64 bytesTotal);
    void finished(quint64 job, bool cancelled);
    // What the load made of the saved index (core::LogdirReader::indexCacheStatus()).
    void indexCacheRead(quint64 job, const QString& status);

private:
    // False when cancelled.
    bool readUntilComplete(quint64 job);
    // Saves the index when the reader read the logdir whole (nothing when nothing is new).
    void saveIndexOfCompleteRead();

    std::unique_ptr<core::LogdirReader> m_reader;
    bool m_readWhole = false; // the reader's last read went to the end of the logdir
    std::atomic<quint64> m_cancelJob{0};
    // Small enough for progress several times a second and a prompt cancel, large enough that
    // chunking costs nothing measurable.
    std::atomic<quint64> m_chunkBytes{64u << 20};
    std::atomic<quint64> m_maxMemoryBytes{core::kDefaultMaxMemoryBytes};
};

} // namespace nanscope::items
