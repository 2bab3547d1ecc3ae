// SPDX-License-Identifier: GPL-3.0-or-later
// What a reader says of what it read (Diagnostic): per file, where reading stopped and why and
// what was skipped; of the index, graphs and ops that do not add up, and what records name that
// no record declares. Worded here, once, for the report and the app.
#pragma once

#include "indexstate.hpp"
#include "nanscope/core/diagnostic.hpp"

#include <string>
#include <vector>

namespace nanscope::core {

struct FileState;

// Where reading `f` stopped and why, and the corrupt ranges read past.
void fileDiagnostics(const FileState& f, const IndexState& index, std::vector<Diagnostic>& out);
// Graphs and ops of the index that do not add up (cycles of outer graphs, ops without frames …).
void indexDiagnostics(const IndexState& index, const std::string& graphsPath,
                      const std::string& stackFramesPath, std::vector<Diagnostic>& out);
// What records name that no record declares, per kind.
void unknownsDiagnostics(const IndexState& index, const std::string& graphsPath,
                         const std::string& executionsPath, std::vector<Diagnostic>& out);

} // namespace nanscope::core
