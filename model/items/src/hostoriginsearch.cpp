// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/items/hostoriginsearch.hpp"

#include "nanscope/core/hostorigins.hpp"

#include <QThread>
#include <algorithm>

namespace nanscope::items {

struct HostOriginSearch::Search
{
    SnapshotPtr snapshot;
    std::string path;
    core::ReaderOptions options;
    HostOrigins result;
};

const core::ReportHostOrigin* HostOrigins::earlierThanMain() const
{
    if (others.empty())
        return nullptr;
    const core::ReportHostOrigin& first = others.front();
    return !mainHasOrigin || first.origin.origin.wallTime < mainOriginTime ? &first : nullptr;
}

HostOriginSearch::HostOriginSearch(QObject* parent) : QObject(parent) {}

HostOriginSearch::~HostOriginSearch()
{
    m_current.reset();
    for (QThread* thread : m_threads) {
        thread->wait();
        delete thread;
    }
}

void HostOriginSearch::start(const SnapshotPtr& snapshot, const QString& path,
                             std::vector<core::ExpectedPattern> expected)
{
    m_current.reset();
    if (!snapshot || snapshot->layout().fileSets.size() < 2)
        return;
    bool othersNonFinite = false;
    for (std::size_t h = 1; h < snapshot->layout().fileSets.size() && !othersNonFinite; ++h)
        for (std::uint64_t i = 0, n = snapshot->hostExecutionCount(h); i < n; ++i)
            if (snapshot->hostExecution(h, i).health.nonFinite()) {
                othersNonFinite = true;
                break;
            }
    if (!othersNonFinite)
        return;
    auto search = std::make_shared<Search>();
    search->snapshot = snapshot;
    search->path = path.toStdString();
    search->options.expected = std::move(expected);
    search->options.backgroundThreads = true;
    m_current = search;
    QThread* thread = QThread::create([search] {
        core::Report report = core::buildReport(*search->snapshot);
        core::addHostOrigins(report, search->path, search->options);
        HostOrigins& r = search->result;
        r.mainHost = report.hosts.empty() ? std::string() : report.hosts.front().name;
        r.mainHasOrigin = report.origin.has_value();
        r.mainOriginTime = report.origin ? report.origin->origin.wallTime : 0;
        r.others = std::move(report.hostOrigins);
    });
    connect(thread, &QThread::finished, this, [this, thread, search] {
        m_threads.erase(std::remove(m_threads.begin(), m_threads.end(), thread), m_threads.end());
        thread->deleteLater();
        finish(search);
    });
    m_threads.push_back(thread);
    thread->start(QThread::LowPriority);
}

void HostOriginSearch::cancel()
{
    m_current.reset();
}

void HostOriginSearch::finish(const std::shared_ptr<Search>& search)
{
    if (search != m_current)
        return; // a later start() or cancel() replaced it
    m_current.reset();
    Q_EMIT found(search->result);
}

} // namespace nanscope::items
