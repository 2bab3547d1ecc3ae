// SPDX-License-Identifier: GPL-3.0-or-later
#include "runstripsource.hpp"

#include "nanscope/core/tracesaround.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"
#include "nanscope/items/optypetext.hpp"

#include <QStringList>

namespace nanscope::views {

using items::fromStd;

std::vector<widgets::TimelineCategory> RunStripSource::categories()
{
    // The colours of the Execution Timeline's strip, so that NaN looks the same in both.
    return {{QStringLiteral("op"), QColor(0xd3, 0xd7, 0xdc)},
            {QStringLiteral("±∞"), QColor(0xf2, 0x9c, 0x38), true},
            {QStringLiteral("NaN"), QColor(0xe0, 0x3e, 0x33), true}};
}

std::uint64_t RunStripSource::itemCount() const
{
    if (!m_snapshot)
        return 0;
    return m_list == core::EventSource::Graph ? m_snapshot->traceCount()
                                              : m_snapshot->executionCount();
}

std::uint8_t RunStripSource::category(std::uint64_t item) const
{
    const core::HealthDigest health = m_snapshot->health(event(item));
    if (!health.nonFinite())
        return PlainOp;
    return core::nodeHealth(health) == core::NodeHealth::Infinite ? Infinite : NaN;
}

QString RunStripSource::opType(std::uint64_t item) const
{
    if (m_list == core::EventSource::Eager)
        return fromStd(m_snapshot->execution(item).opType);
    const core::OpId op = m_snapshot->traceOp(item);
    const core::GraphTable& graphs = m_snapshot->graphs();
    return op < graphs.ops().size() ? fromStd(graphs.op(op).type) : QString();
}

QString RunStripSource::label(std::uint64_t item) const
{
    return items::opTypeText(opType(item));
}

QString RunStripSource::toolTip(std::uint64_t item) const
{
    QStringList lines;
    if (m_list == core::EventSource::Eager) {
        const core::ExecutionDigest digest = m_snapshot->execution(item);
        lines << QStringLiteral("Execution #%1").arg(item) << fromStd(digest.opType);
        if (!digest.modulePath.empty())
            lines << QStringLiteral("in module %1").arg(fromStd(digest.modulePath));
    } else {
        lines << QStringLiteral("Graph execution trace #%1").arg(item) << opType(item);
        const core::OpId op = m_snapshot->traceOp(item);
        if (op < m_snapshot->graphs().ops().size())
            lines << fromStd(m_snapshot->graphs().op(op).name);
    }
    lines << items::digestText(m_snapshot->health(event(item)));
    return lines.join(u'\n');
}

double RunStripSource::time(std::uint64_t item) const
{
    return m_snapshot->wallTime(event(item));
}

} // namespace nanscope::views
