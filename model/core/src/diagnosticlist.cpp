// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosticlist.hpp"

#include <algorithm>

namespace nanscope::core {

DiagnosticList::FileProblems& DiagnosticList::of(const std::string& file)
{
    // A logdir has a handful of files, and problems are rare: a search beats a map here.
    const auto it = std::find_if(m_files.begin(), m_files.end(),
                                 [&file](const FileProblems& f) { return f.file == file; });
    if (it != m_files.end())
        return *it;
    return m_files.emplace_back(FileProblems{.file = file});
}

void DiagnosticList::add(Diagnostic diagnostic)
{
    FileProblems& f = of(diagnostic.file);
    if (f.kept.size() < m_cap) {
        f.kept.push_back(std::move(diagnostic));
        return;
    }
    ++f.dropped;
    f.droppedSeverity = std::max(f.droppedSeverity, diagnostic.severity);
}

void DiagnosticList::append(const DiagnosticList& other)
{
    for (const FileProblems& theirs : other.m_files) {
        for (const Diagnostic& d : theirs.kept)
            add(d);
        FileProblems& mine = of(theirs.file);
        mine.dropped += theirs.dropped;
        if (theirs.dropped > 0)
            mine.droppedSeverity = std::max(mine.droppedSeverity, theirs.droppedSeverity);
    }
}

void DiagnosticList::restore(std::vector<FileProblems> files)
{
    m_files = std::move(files);
    for (FileProblems& f : m_files)
        if (f.kept.size() > m_cap)
            f.kept.resize(m_cap);
}

std::vector<Diagnostic> DiagnosticList::list(const FileRank& rank) const
{
    std::vector<const FileProblems*> ordered;
    ordered.reserve(m_files.size());
    for (const FileProblems& f : m_files)
        ordered.push_back(&f);
    if (rank)
        std::stable_sort(ordered.begin(), ordered.end(),
                         [&rank](const FileProblems* a, const FileProblems* b) {
                             return rank(a->file) < rank(b->file);
                         });
    std::vector<Diagnostic> out;
    std::uint64_t dropped = 0;
    Severity droppedSeverity = Severity::Info;
    for (const FileProblems* f : ordered) {
        for (const Diagnostic& d : f->kept) {
            if (out.size() < m_cap) {
                out.push_back(d);
                continue;
            }
            ++dropped;
            droppedSeverity = std::max(droppedSeverity, d.severity);
        }
        dropped += f->dropped;
        if (f->dropped > 0)
            droppedSeverity = std::max(droppedSeverity, f->droppedSeverity);
    }
    if (dropped > 0)
        out.push_back({droppedSeverity,
                       {},
                       std::nullopt,
                       std::to_string(dropped) + " more problems like the ones above",
                       dropped});
    return out;
}

void sortBySeverity(std::vector<Diagnostic>& diagnostics)
{
    std::stable_sort(
        diagnostics.begin(), diagnostics.end(),
        [](const Diagnostic& a, const Diagnostic& b) { return a.severity > b.severity; });
}

} // namespace nanscope::core
