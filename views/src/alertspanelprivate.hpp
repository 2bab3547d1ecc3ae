// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts panel's private parts, shared by its sources: its jobs and what they work out.
#pragma once

#include "nanscope/core/alertcounts.hpp"
#include "nanscope/core/snapshot.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "originbox.hpp"
#include "snapshotjob.hpp"

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace nanscope::views {

struct AlertsPanel::Analysis
{
    items::SnapshotPtr snapshot; // analysed: its propagation is known now
    core::AlertKindCounts counts;
    quint64 setAsideEvents = 0;
    std::vector<OriginBox::SetAsideLine> setAside;
    std::optional<core::Origin> origin;
    std::optional<core::Alert> firstAlert;
    QString firstAlertOp;
    bool firstAlertSetAside = false; // then it may come before the origin
};

class AlertsPanel::Jobs
{
public:
    explicit Jobs(AlertsPanel* panel)
        : analysis([panel](const Analysis& result) { panel->showAnalysis(result); })
    {}
    SnapshotJob<Analysis> analysis;
};

} // namespace nanscope::views
