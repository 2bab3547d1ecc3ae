// SPDX-License-Identifier: GPL-3.0-or-later
// Finding what a test looks for in a snapshot and in a logdir's directory.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

namespace nanscope::test {

// The first diagnostic of this severity whose message contains `fragment`, or null.
inline const core::Diagnostic* findDiagnostic(const core::Snapshot& s, core::Severity severity,
                                              const std::string& fragment)
{
    for (const auto& d : s.diagnostics())
        if (d.severity == severity && d.message.find(fragment) != std::string::npos)
            return &d;
    return nullptr;
}

// The file in `dir` whose name ends in `suffix` (e.g. "graphs"); fails the test if there is none.
inline std::filesystem::path fileEndingIn(const std::filesystem::path& dir,
                                          const std::string& suffix)
{
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        if (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            return e.path();
    }
    FAIL("no file ending in " << suffix << " in " << dir);
    return {};
}

} // namespace nanscope::test
