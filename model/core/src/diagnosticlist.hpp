// SPDX-License-Identifier: GPL-3.0-or-later
// A capped list of diagnostics: a logdir with a million bad records gets a readable list and a
// count, not a million lines.
//
// The cap is kept per file, and applied across files only when the list is taken, in an order of
// files the caller gives. A file is read front to back, so each file's first problems are the
// same whether it was read whole or in passes as it grew, and so is the list: which problems are
// shown never depends on the order in which the files' passes came.
#pragma once

#include "nanscope/core/diagnostic.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nanscope::core {

class DiagnosticList
{
public:
    explicit DiagnosticList(std::size_t cap = 100) : m_cap(cap) {}

    void add(Diagnostic diagnostic);
    void append(const DiagnosticList& other);

    // A file's position in the list; files of equal positions keep the order they came in.
    using FileRank = std::function<std::size_t(const std::string& file)>;
    // At most the cap of the kept diagnostics, file by file in `rank`'s order and each file's in
    // the order added, plus, when there are others, one that counts them.
    std::vector<Diagnostic> list(const FileRank& rank = {}) const;

    // Its parts, as a saved index stores them (indexcache.cpp); restore() keeps the cap.
    struct FileProblems
    {
        std::string file;
        std::vector<Diagnostic> kept;
        std::uint64_t dropped = 0;
        Severity droppedSeverity = Severity::Info;
    };
    const std::vector<FileProblems>& files() const { return m_files; }
    void restore(std::vector<FileProblems> files);

private:
    FileProblems& of(const std::string& file);

    std::size_t m_cap;
    std::vector<FileProblems> m_files; // in the order they first had a problem
};

// Most severe first; equal severities keep their order.
void sortBySeverity(std::vector<Diagnostic>& diagnostics);

} // namespace nanscope::core
