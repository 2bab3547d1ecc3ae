// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/logdirsession.hpp"

#include "loadworker.hpp"
#include "nanscope/core/threadpriority.hpp"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QThread>
#include <QTimer>

namespace nanscope::items {

LogdirSession::LogdirSession(QObject* parent)
    : QObject(parent), m_thread(new QThread(this)), m_worker(new LoadWorker),
      m_watcher(new QFileSystemWatcher(this)), m_pollTimer(new QTimer(this))
{
    qRegisterMetaType<SnapshotPtr>();
    m_thread->setObjectName(QStringLiteral("nanscope-loader"));
    m_worker->moveToThread(m_thread);
    // The loader reads while the user works: the GUI thread goes first when cores are short.
    connect(m_thread, &QThread::started, m_worker, [] { core::yieldToInteractiveThreads(); });
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &LoadWorker::snapshotReady, this, &LogdirSession::onSnapshot);
    connect(m_worker, &LoadWorker::finished, this, &LogdirSession::onFinished);
    connect(m_worker, &LoadWorker::progress, this, &LogdirSession::onProgress);
    connect(m_worker, &LoadWorker::indexCacheRead, this,
            [this](quint64 job, const QString& status) {
                if (job == m_job)
                    m_indexCacheStatus = status;
            });
    m_thread->start();

    m_pollTimer->setInterval(1000);
    connect(m_pollTimer, &QTimer::timeout, this, &LogdirSession::requestFollowUpdate);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this,
            &LogdirSession::requestFollowUpdate);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &LogdirSession::requestFollowUpdate);
}

LogdirSession::~LogdirSession()
{
    m_worker->requestCancel(m_job);
    m_thread->quit();
    m_thread->wait();
}

void LogdirSession::open(const QString& path)
{
    m_path = path;
    m_mainHost.clear(); // another logdir's hosts
    startLoad();
}

void LogdirSession::setMainHost(const QString& host)
{
    m_mainHost = host;
}

void LogdirSession::reload()
{
    if (!m_path.isEmpty())
        startLoad();
}

void LogdirSession::startLoad()
{
    m_worker->requestCancel(m_job); // the previous job, if still running
    ++m_job;
    m_loading = true;
    m_busy = true;
    m_updatePending = false;
    m_indexCacheStatus.clear();
    Q_EMIT loadingStarted(m_path);
    const quint64 job = m_job;
    const QString path = m_path;
    LoadOptions settings{m_indexCache, m_spill, m_expected, m_mainHost.toStdString()};
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, job, path, settings] { worker->load(job, path, settings); });
}

void LogdirSession::close()
{
    m_worker->requestCancel(m_job);
    ++m_job; // results of any job still running are now stale
    QMetaObject::invokeMethod(m_worker, [worker = m_worker] { worker->reset(); });
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    m_path.clear();
    m_snapshot.reset();
    m_loading = false;
    m_busy = false;
    m_updatePending = false;
    Q_EMIT closed();
}

void LogdirSession::cancel()
{
    if (m_loading)
        m_worker->requestCancel(m_job);
}

void LogdirSession::setFollowing(bool following)
{
    if (m_following == following)
        return;
    m_following = following;
    if (following) {
        watchFiles();
        m_pollTimer->start();
    } else {
        m_pollTimer->stop();
    }
    Q_EMIT followingChanged(following);
}

void LogdirSession::setPollInterval(int milliseconds)
{
    m_pollTimer->setInterval(milliseconds);
}

void LogdirSession::setChunkBytes(quint64 bytes)
{
    m_worker->setChunkBytes(bytes);
}

void LogdirSession::setMaxMemoryBytes(quint64 bytes)
{
    m_worker->setMaxMemoryBytes(bytes);
}

void LogdirSession::setIndexCache(const core::IndexCacheOptions& options)
{
    m_indexCache = options;
}

void LogdirSession::setSpill(const core::SpillOptions& options)
{
    m_spill = options;
}

void LogdirSession::setExpected(std::vector<core::ExpectedPattern> patterns)
{
    m_expected = std::move(patterns);
}

void LogdirSession::onSnapshot(quint64 job, const SnapshotPtr& snapshot)
{
    if (job != m_job)
        return;
    m_snapshot = snapshot;
    Q_EMIT snapshotChanged(snapshot);
    if (m_following)
        watchFiles();
}

void LogdirSession::onProgress(quint64 job, qint64 done, qint64 total)
{
    if (job == m_job)
        Q_EMIT progressChanged(done, total);
}

void LogdirSession::onFinished(quint64 job, bool cancelled)
{
    if (job != m_job)
        return;
    m_busy = false;
    const bool wasLoading = m_loading;
    m_loading = false;
    if (wasLoading) {
        if (!m_snapshot || !m_snapshot->readable()) {
            QString message = tr("%1 is not a readable logdir").arg(m_path);
            if (m_snapshot && !m_snapshot->diagnostics().empty())
                message = QString::fromStdString(m_snapshot->diagnostics().front().message);
            Q_EMIT loadingFailed(message);
        }
        Q_EMIT loadingFinished(cancelled);
    }
    if (m_updatePending && m_following) {
        m_updatePending = false;
        requestFollowUpdate();
    }
}

void LogdirSession::requestFollowUpdate()
{
    if (m_path.isEmpty() || !m_following)
        return;
    if (m_busy) {
        m_updatePending = true; // one more update once the current one is done
        return;
    }
    m_busy = true;
    const quint64 job = m_job;
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, job] { worker->update(job); });
}

void LogdirSession::watchFiles()
{
    if (!m_snapshot)
        return;
    QStringList paths;
    const auto& layout = m_snapshot->layout();
    paths << QString::fromStdString(layout.directory.string());
    for (const auto& set : layout.fileSets)
        for (auto suffix : {core::kSourceFilesSuffix, core::kStackFramesSuffix, core::kGraphsSuffix,
                            core::kExecutionSuffix, core::kTracesSuffix})
            paths << QString::fromStdString(set.file(suffix).string());
    QStringList missing;
    const QStringList watched = m_watcher->files() + m_watcher->directories();
    for (const auto& p : paths)
        if (!watched.contains(p) && QFileInfo::exists(p))
            missing << p;
    if (!missing.isEmpty())
        m_watcher->addPaths(missing);
}

bool sameLogdir(const SnapshotPtr& a, const SnapshotPtr& b)
{
    return a && b && a->layout().directory == b->layout().directory &&
           a->layout().runId == b->layout().runId;
}

} // namespace nanscope::items
