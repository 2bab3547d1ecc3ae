// SPDX-License-Identifier: GPL-3.0-or-later
#include "executionstripsource.hpp"

#include "executiondescription.hpp"
#include "nanscope/core/tracesaround.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/optypetext.hpp"

#include <QStringList>

namespace nanscope::views {

using items::fromStd;

std::vector<widgets::TimelineCategory> ExecutionStripSource::categories()
{
    return {{QStringLiteral("op"), QColor(0xd3, 0xd7, 0xdc)},
            {QStringLiteral("function call"), QColor(0xa8, 0xc7, 0xfa)},
            {QStringLiteral("±∞"), QColor(0xf2, 0x9c, 0x38), true},
            {QStringLiteral("NaN"), QColor(0xe0, 0x3e, 0x33), true}};
}

void ExecutionStripSource::appendAlertExecutions(std::vector<std::uint64_t>& executions,
                                                 std::uint64_t from) const
{
    const std::uint64_t count = itemCount();
    for (std::uint64_t i = from; i < count; ++i) {
        const core::HealthDigest health = executionAt(i).health;
        if (health.nonFinite() && !health.has(core::health::NoAlert) && !setAside(i))
            executions.push_back(i);
    }
}

bool ExecutionStripSource::setAside(std::uint64_t item) const
{
    if (m_host != 0 || !m_analysed || m_analysed != m_snapshot)
        return false;
    const core::Propagation& p = m_analysed->propagation(); // worked out already: no walk here
    const core::EventRef event{core::EventSource::Eager, item};
    return p.intended(event) || p.uninitialised(event);
}

std::uint64_t ExecutionStripSource::itemCount() const
{
    return m_snapshot ? m_snapshot->hostExecutionCount(m_host) : 0;
}

std::uint8_t ExecutionStripSource::category(std::uint64_t item) const
{
    const core::ExecutionDigest digest = executionAt(item);
    if (digest.health.nonFinite() && !setAside(item))
        return core::nodeHealth(digest.health) == core::NodeHealth::Infinite ? Infinite : NaN;
    return isFunctionCall(digest.opType, digest.graphId) ? FunctionCall : PlainOp;
}

QString ExecutionStripSource::label(std::uint64_t item) const
{
    return items::opTypeText(executionAt(item).opType);
}

QString ExecutionStripSource::toolTip(std::uint64_t item) const
{
    const core::ExecutionDigest digest = executionAt(item);
    QStringList lines;
    lines << QStringLiteral("Execution #%1").arg(item) << fromStd(digest.opType);
    if (!digest.modulePath.empty())
        lines << QStringLiteral("in module %1").arg(fromStd(digest.modulePath));
    if (!digest.health.known()) {
        lines << QStringLiteral("health not recorded");
    } else if (!digest.health.nonFinite()) {
        lines << QStringLiteral("finite");
    } else {
        lines << items::nonFiniteKinds(digest.health);
        if (setAside(item))
            lines << QStringLiteral("set aside as intended: not counted");
    }
    return lines.join(u'\n');
}

double ExecutionStripSource::time(std::uint64_t item) const
{
    return executionAt(item).wallTime;
}

std::uint32_t ExecutionStripSource::group(std::uint64_t item) const
{
    const std::string_view module = executionAt(item).modulePath;
    if (module.empty())
        return 0;
    auto [it, inserted] = m_groupOf.try_emplace(std::string(module),
                                                static_cast<std::uint32_t>(m_modules.size() + 1));
    if (inserted)
        m_modules.emplace_back(module);
    return it->second;
}

QString ExecutionStripSource::groupName(std::uint32_t group) const
{
    return group >= 1 && group <= m_modules.size() ? fromStd(m_modules[group - 1]) : QString();
}

} // namespace nanscope::views
