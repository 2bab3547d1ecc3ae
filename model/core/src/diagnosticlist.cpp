// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosticlist.hpp"

#include <algorithm>

namespace nanscope::core {

void DiagnosticList::add(Diagnostic diagnostic)
{
    if (m_items.size() < m_cap) {
        m_items.push_back(std::move(diagnostic));
        return;
    }
    ++m_dropped;
    m_droppedSeverity = std::max(m_droppedSeverity, diagnostic.severity);
}

void DiagnosticList::append(const DiagnosticList& other)
{
    for (const auto& d : other.m_items)
        add(d);
    m_dropped += other.m_dropped;
    if (other.m_dropped > 0)
        m_droppedSeverity = std::max(m_droppedSeverity, other.m_droppedSeverity);
}

void DiagnosticList::restore(std::vector<Diagnostic> items, std::uint64_t dropped,
                             Severity droppedSeverity)
{
    m_items = std::move(items);
    if (m_items.size() > m_cap)
        m_items.resize(m_cap);
    m_dropped = dropped;
    m_droppedSeverity = droppedSeverity;
}

std::vector<Diagnostic> DiagnosticList::list() const
{
    std::vector<Diagnostic> out = m_items;
    if (m_dropped > 0)
        out.push_back({m_droppedSeverity,
                       {},
                       std::nullopt,
                       std::to_string(m_dropped) + " more problems like the ones above"});
    return out;
}

void sortBySeverity(std::vector<Diagnostic>& diagnostics)
{
    std::stable_sort(
        diagnostics.begin(), diagnostics.end(),
        [](const Diagnostic& a, const Diagnostic& b) { return a.severity > b.severity; });
}

} // namespace nanscope::core
