// SPDX-License-Identifier: GPL-3.0-or-later
// The origins of the hosts other than the main one (the ranks of a job), found in the
// background: each host with non-finite executions is read again as the main host
// (core::addHostOrigins), which takes as long as a load of its files. The views read only the
// main host, as TensorFlow does; this tells the window when another rank made the run's first
// NaN, so that it can offer to read that one.
#pragma once

#include "nanscope/core/report.hpp"
#include "nanscope/items/logdirsession.hpp"

#include <QObject>
#include <memory>
#include <vector>

class QThread;

namespace nanscope::items {

struct HostOrigins
{
    std::string mainHost;       // the host the snapshot was read with as the main one
    bool mainHasOrigin = false; // whether the main host made a non-finite value that counts
    double mainOriginTime = 0;  // its wall time, when it did
    std::vector<core::ReportHostOrigin> others; // earliest first

    // The host whose origin is the run's earliest, when it is not the main one.
    const core::ReportHostOrigin* earlierThanMain() const;
};

class HostOriginSearch : public QObject
{
    Q_OBJECT

public:
    explicit HostOriginSearch(QObject* parent = nullptr);
    ~HostOriginSearch() override; // waits for a search in progress

    // Reads the other hosts of `snapshot`'s logdir (`path`) with `expected` set aside; a search
    // in progress is dropped. Nothing runs when no other host recorded a non-finite value.
    void start(const SnapshotPtr& snapshot, const QString& path,
               std::vector<core::ExpectedPattern> expected);
    // Drops the search in progress, if any: found() will not come.
    void cancel();

Q_SIGNALS:
    // On the thread of this object, for the latest start() only.
    void found(const nanscope::items::HostOrigins& origins);

private:
    struct Search;
    void finish(const std::shared_ptr<Search>& search);

    std::shared_ptr<Search> m_current;
    std::vector<QThread*> m_threads; // running, each deleted when it ends
};

} // namespace nanscope::items
