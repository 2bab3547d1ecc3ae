// SPDX-License-Identifier: GPL-3.0-or-later
// The dump root's list of expected non-finite values (intent.hpp: kExpectedFileName).
#pragma once

#include "nanscope/core/diagnostic.hpp"
#include "nanscope/core/filesystem.hpp"
#include "nanscope/core/intent.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace nanscope::core {

// Appends the patterns of `directory`'s file, if it has one, to `patterns` (those already there
// are not repeated); a line that is no pattern, or a file that cannot be read or is too large,
// adds a warning to `diagnostics`.
void readExpectedFile(const FileSystem& files, const std::filesystem::path& directory,
                      std::vector<ExpectedPattern>& patterns, std::vector<Diagnostic>& diagnostics);

// The patterns as written, in order: what a saved origin is keyed by.
std::vector<std::string> patternTexts(const std::vector<ExpectedPattern>& patterns);

} // namespace nanscope::core
