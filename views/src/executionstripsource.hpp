// SPDX-License-Identifier: GPL-3.0-or-later
// The executions of one host of a snapshot as the timeline strip sees them: a colour category, a
// short label and a tooltip per execution.
#pragma once

#include "nanscope/items/logdirsession.hpp"
#include "nanscope/widgets/timelinestrip.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace nanscope::views {

class ExecutionStripSource : public widgets::TimelineSource
{
public:
    // In rising order of how much they matter: a pixel column shows its highest.
    enum Category : std::uint8_t { PlainOp, FunctionCall, Infinite, NaN, CategoryCount };

    static std::vector<widgets::TimelineCategory> categories();

    // Host 0's executions are TensorFlow's list (Snapshot::execution); the others' are apart.
    explicit ExecutionStripSource(std::size_t host = 0) : m_host(host) {}
    std::size_t host() const { return m_host; }

    void setSnapshot(items::SnapshotPtr snapshot) { m_snapshot = std::move(snapshot); }
    const items::SnapshotPtr& snapshot() const { return m_snapshot; }
    // The snapshot whose propagation a job has worked out: while it is the one shown, the
    // executions whose values it set aside (a mask's -inf, uninitialised memory) are drawn,
    // marked and described as the plain ops they are to the user. Host 0 only: TensorFlow's
    // list is the one analysed.
    void setAnalysed(items::SnapshotPtr analysed) { m_analysed = std::move(analysed); }
    bool setAside(std::uint64_t item) const;

    // Appends the executions from `from` on that raised an alert (non-finite outputs that
    // TensorBoard's rules alert on, not set aside), read from the digests rather than the alert
    // list, which also holds every graph trace.
    void appendAlertExecutions(std::vector<std::uint64_t>& executions, std::uint64_t from) const;

    std::uint64_t itemCount() const override;
    std::uint8_t category(std::uint64_t item) const override;
    QString label(std::uint64_t item) const override;
    QString toolTip(std::uint64_t item) const override;
    // The module an execution ran in (PyTorch), numbered in first-seen order.
    std::uint32_t group(std::uint64_t item) const override;
    QString groupName(std::uint32_t group) const override;
    double time(std::uint64_t item) const override; // the execution's wall time

private:
    core::ExecutionDigest executionAt(std::uint64_t item) const
    {
        return m_snapshot->hostExecution(m_host, item);
    }

    std::size_t m_host = 0;
    items::SnapshotPtr m_snapshot;
    items::SnapshotPtr m_analysed;
    // Module paths by group number - 1; filled as the strip reads items (GUI thread only).
    mutable std::vector<std::string> m_modules;
    mutable std::unordered_map<std::string, std::uint32_t> m_groupOf;
};

} // namespace nanscope::views
