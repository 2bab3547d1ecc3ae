// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a computation over an immutable snapshot on the thread pool and hands its result to the
// GUI thread. One runs at a time; a new request replaces a waiting one and asks the running one
// to stop, and only the newest request's result is delivered ("latest job wins").
#pragma once

#include "backgroundpool.hpp"
#include "nanscope/items/logdirsession.hpp"

#include <QFutureWatcher>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace nanscope::views {

template <typename T>
class SnapshotJob
{
public:
    using Compute = std::function<T(const core::Snapshot& snapshot, const std::atomic_bool& stop)>;
    using Deliver = std::function<void(T result)>;

    explicit SnapshotJob(Deliver deliver) : m_deliver(std::move(deliver))
    {
        QObject::connect(&m_watcher, &QFutureWatcherBase::finished, &m_watcher,
                         [this] { onFinished(); });
    }

    ~SnapshotJob()
    {
        if (m_stop)
            *m_stop = true;
    }

    SnapshotJob(const SnapshotJob&) = delete;
    SnapshotJob& operator=(const SnapshotJob&) = delete;

    // `compute` runs on another thread: it must capture only values, never the caller.
    void request(items::SnapshotPtr snapshot, Compute compute)
    {
        m_pending = Pending{std::move(snapshot), std::move(compute)};
        if (m_running)
            *m_stop = true;
        else
            startPending();
    }

    // Forgets the waiting request and drops the running one's result.
    void cancel()
    {
        m_pending.reset();
        if (m_running) {
            *m_stop = true;
            m_discard = true;
        }
    }

    bool idle() const { return !m_running && !m_pending; }

private:
    // A pool for each kind of result, so that one kind's long scans do not hold up another's.
    static QThreadPool* pool()
    {
        static QThreadPool* jobs = newBackgroundPool(QStringLiteral("nanscope-snapshot-jobs"),
                                                     std::max(2, QThread::idealThreadCount() / 2));
        return jobs;
    }

    struct Pending
    {
        items::SnapshotPtr snapshot;
        Compute compute;
    };

    void startPending()
    {
        Pending next = std::move(*m_pending);
        m_pending.reset();
        if (!next.snapshot)
            return;
        m_stop = std::make_shared<std::atomic_bool>(false);
        m_running = true;
        m_discard = false;
        m_watcher.setFuture(
            runInBackground(pool(), [snapshot = std::move(next.snapshot),
                                     compute = std::move(next.compute), stop = m_stop] {
                T result = compute(*snapshot, *stop);
                // A scan of a spilled index maps what it read: the resident set stays at what
                // the views show.
                snapshot->releaseMappedPages();
                return result;
            }));
    }

    void onFinished()
    {
        m_running = false;
        const bool stale = m_discard || m_pending.has_value();
        // Taken, not copied: a result may hold millions of rows, and a copy on the GUI thread
        // would stall it for milliseconds.
        if (!stale)
            m_deliver(m_watcher.future().takeResult());
        if (m_pending)
            startPending();
    }

    Deliver m_deliver;
    QFutureWatcher<T> m_watcher;
    std::optional<Pending> m_pending;
    std::shared_ptr<std::atomic_bool> m_stop;
    bool m_running = false;
    bool m_discard = false;
};

} // namespace nanscope::views
