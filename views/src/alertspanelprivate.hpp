// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts panel's private parts, shared by its sources: its jobs and what they work out.
#pragma once

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
    quint64 alerts = 0;          // that count: not set aside
    quint64 setAsideAlerts = 0;
    quint64 setAsideEvents = 0;
    std::vector<OriginBox::SetAsideLine> setAside;
    quint64 nan = 0;
    quint64 negInf = 0;
    quint64 posInf = 0;
    bool kindsKnown = false; // some alert's record told which non-finite values it held
    std::optional<core::Origin> origin;
    std::optional<core::Alert> firstAlert;
    QString firstAlertOp;
    bool firstAlertSetAside = false; // then it may come before the origin
};

// The list's rows: those that pass the filters, in the order the user chose.
struct AlertsPanel::ShownRows
{
    std::vector<int> filterRows; // ascending; empty when nothing is filtered out
    std::vector<int> rows;       // as shown
    std::vector<int> positions;  // of each model row in `rows` when sorted, else empty
};

class AlertsPanel::Jobs
{
public:
    explicit Jobs(AlertsPanel* panel)
        : analysis([panel](const Analysis& result) { panel->showAnalysis(result); }),
          rows([panel](ShownRows shown) { panel->showRows(std::move(shown)); })
    {}
    SnapshotJob<Analysis> analysis;
    SnapshotJob<ShownRows> rows;
};

namespace alertspanel {

// Whether alert `k`'s values were set aside as intended or uninitialised.
inline bool setAside(const core::Snapshot& s, const core::Propagation& p, std::uint64_t k)
{
    const core::EventRef event = s.alert(k).event;
    return p.intended(event) || p.uninitialised(event);
}

} // namespace alertspanel

} // namespace nanscope::views
