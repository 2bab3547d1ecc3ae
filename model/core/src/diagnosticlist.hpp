// SPDX-License-Identifier: GPL-3.0-or-later
// A capped list of diagnostics: a logdir with a million bad records gets a readable list and a
// count, not a million lines.
#pragma once

#include "nanscope/core/diagnostic.hpp"

#include <cstdint>
#include <vector>

namespace nanscope::core {

class DiagnosticList
{
public:
    explicit DiagnosticList(std::size_t cap = 100) : m_cap(cap) {}

    void add(Diagnostic diagnostic);
    void append(const DiagnosticList& other);

    // The kept diagnostics plus, when some were dropped, one that counts them.
    std::vector<Diagnostic> list() const;

    // Its parts, as a saved index stores them (indexcache.cpp); restore() keeps the cap.
    const std::vector<Diagnostic>& items() const { return m_items; }
    std::uint64_t dropped() const { return m_dropped; }
    Severity droppedSeverity() const { return m_droppedSeverity; }
    void restore(std::vector<Diagnostic> items, std::uint64_t dropped, Severity droppedSeverity);

private:
    std::size_t m_cap;
    std::vector<Diagnostic> m_items;
    std::uint64_t m_dropped = 0;
    Severity m_droppedSeverity = Severity::Info;
};

// Most severe first; equal severities keep their order.
void sortBySeverity(std::vector<Diagnostic>& diagnostics);

} // namespace nanscope::core
