// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/hostorigins.hpp"

#include <algorithm>

namespace nanscope::core {

void addHostOrigins(Report& report, const std::filesystem::path& logdir,
                    const ReaderOptions& options, const ReportOptions& reportOptions)
{
    report.hostOrigins.clear();
    report.hostOriginsRead = true;
    for (std::size_t h = 1; h < report.hosts.size(); ++h) {
        const ReportHost& host = report.hosts[h];
        if (host.nonFiniteExecutions == 0)
            continue;
        ReaderOptions asMain = options;
        asMain.discovery.runId = report.runId;
        asMain.discovery.mainHost = host.name;
        asMain.indexCache = {}; // an index per host would fill the cache for one question
        LogdirReader reader(logdir, asMain);
        const auto snapshot = reader.update();
        if (snapshot->layout().fileSets.empty() ||
            snapshot->layout().fileSets.front().hostName != host.name)
            continue; // the host went away between the two readings
        Report hostReport = buildReport(*snapshot, reportOptions);
        if (!hostReport.origin)
            continue; // every non-finite value it made was intended
        report.hostOrigins.push_back(
            {host.name, hostReport.countedAlerts, std::move(*hostReport.origin)});
    }
    std::stable_sort(report.hostOrigins.begin(), report.hostOrigins.end(),
                     [](const ReportHostOrigin& a, const ReportHostOrigin& b) {
                         return a.origin.origin.wallTime < b.origin.origin.wallTime;
                     });
}

} // namespace nanscope::core
