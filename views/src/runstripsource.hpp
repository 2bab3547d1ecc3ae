// SPDX-License-Identifier: GPL-3.0-or-later
// One run's executions or graph execution traces as the Compare view's timeline strips see them:
// plain ops, and the ones whose values were NaN or ±inf.
#pragma once

#include "nanscope/items/logdirsession.hpp"
#include "nanscope/widgets/timelinestrip.hpp"

namespace nanscope::views {

class RunStripSource : public widgets::TimelineSource
{
public:
    // In rising order of how much they matter: a pixel column shows its highest.
    enum Category : std::uint8_t { PlainOp, Infinite, NaN, CategoryCount };

    static std::vector<widgets::TimelineCategory> categories();

    RunStripSource(items::SnapshotPtr snapshot, core::EventSource list)
        : m_snapshot(std::move(snapshot)), m_list(list)
    {}

    std::uint64_t itemCount() const override;
    std::uint8_t category(std::uint64_t item) const override;
    QString label(std::uint64_t item) const override;
    QString toolTip(std::uint64_t item) const override;
    double time(std::uint64_t item) const override;

private:
    core::EventRef event(std::uint64_t item) const { return {m_list, item}; }
    QString opType(std::uint64_t item) const;

    items::SnapshotPtr m_snapshot;
    core::EventSource m_list;
};

} // namespace nanscope::views
