// SPDX-License-Identifier: GPL-3.0-or-later
// Loads a logdir on a worker thread and publishes its snapshots to the GUI thread; follows a
// logdir that is still being written.
#pragma once

#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/snapshot.hpp"

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

class QFileSystemWatcher;
class QThread;
class QTimer;

namespace nanscope::items {

class LoadWorker;

using SnapshotPtr = std::shared_ptr<const core::Snapshot>;

// Whether two snapshots (neither null) are of the same logdir and run: a newer snapshot of it
// keeps the focus, selection and scroll position of the views.
bool sameLogdir(const SnapshotPtr& a, const SnapshotPtr& b);

class LogdirSession : public QObject
{
    Q_OBJECT

public:
    explicit LogdirSession(QObject* parent = nullptr);
    ~LogdirSession() override;

    // Starts reading `path` (a logdir or any file of it); a load in progress is abandoned. The
    // host read as the main one goes back to the first (setMainHost).
    void open(const QString& path);
    // Reads the current logdir again: from the start, or from its saved index when one fits
    // (setIndexCache), which the reader checks against the files as they are now.
    void reload();
    // Forgets the logdir; snapshot() becomes null.
    void close();
    // Stops the load in progress; what was read so far stays.
    void cancel();

    // While following, data appended to the logdir is read as it comes (a file watcher, with
    // polling as a fallback for file systems that do not report changes).
    void setFollowing(bool following);
    bool isFollowing() const { return m_following; }
    void setPollInterval(int milliseconds);
    // Trace bytes read per step of a load: progress and cancel happen between steps.
    void setChunkBytes(quint64 bytes);
    // The most memory the reader's index may take (core::ReaderOptions::maxMemoryBytes, the
    // same limit as nanscope-report --max-memory); applies from the next open() or reload().
    void setMaxMemoryBytes(quint64 bytes);
    // Where indexes are saved and found again (the default: nowhere); applies from the next
    // open() or reload().
    void setIndexCache(const core::IndexCacheOptions& options);
    // Where a large logdir's index keeps its arrays instead of memory (the default: memory);
    // applies from the next open() or reload().
    void setSpill(const core::SpillOptions& options);
    // The non-finite values the user expects (core::ReaderOptions::expected: the app's "Treat as
    // Expected" and --expect): set aside as intended; applies from the next open() or reload().
    void setExpected(std::vector<core::ExpectedPattern> patterns);
    const std::vector<core::ExpectedPattern>& expected() const { return m_expected; }
    // What the current load made of the saved index: "off", "none saved", "used", "not used:
    // <why>" (core::LogdirReader::indexCacheStatus()); empty before the load's first step.
    QString indexCacheStatus() const { return m_indexCacheStatus; }
    // The host (a rank's file set) read as the main one, whose executions, alerts and origin the
    // views show (core::DiscoveryOptions::mainHost); empty: the first. Applies from the next
    // reload().
    void setMainHost(const QString& host);
    QString mainHost() const { return m_mainHost; }

    bool isLoading() const { return m_loading; }
    QString path() const { return m_path; }
    SnapshotPtr snapshot() const { return m_snapshot; }

Q_SIGNALS:
    void loadingStarted(const QString& path);
    void progressChanged(qint64 bytesRead, qint64 bytesTotal);
    // Every new snapshot: while loading (at most a few per second) and after each update.
    void snapshotChanged(const nanscope::items::SnapshotPtr& snapshot);
    // The load finished (`cancelled`: stopped early by cancel()).
    void loadingFinished(bool cancelled);
    // The logdir could not be read at all; the message says why.
    void loadingFailed(const QString& message);
    void closed();
    void followingChanged(bool following);

private:
    void startLoad();
    void onSnapshot(quint64 job, const nanscope::items::SnapshotPtr& snapshot);
    void onFinished(quint64 job, bool cancelled);
    void onProgress(quint64 job, qint64 done, qint64 total);
    void watchFiles();
    void requestFollowUpdate();

    QThread* m_thread = nullptr;
    LoadWorker* m_worker = nullptr;
    core::IndexCacheOptions m_indexCache;
    core::SpillOptions m_spill;
    std::vector<core::ExpectedPattern> m_expected;
    QString m_indexCacheStatus;
    QString m_mainHost;
    QFileSystemWatcher* m_watcher = nullptr;
    QTimer* m_pollTimer = nullptr;
    QString m_path;
    SnapshotPtr m_snapshot;
    quint64 m_job = 0;
    bool m_loading = false; // an open() or reload() in progress
    bool m_busy = false;    // the worker has a job of ours
    bool m_following = false;
    bool m_updatePending = false;
};

} // namespace nanscope::items

Q_DECLARE_METATYPE(nanscope::items::SnapshotPtr)
