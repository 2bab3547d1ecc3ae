// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-report --compare A B: where run B first parts from run A (core/runcompare.hpp).
#pragma once

#include "nanscope/core/logdirreader.hpp"

#include <optional>
#include <string>

namespace nanscope {

struct CompareCommand
{
    std::string logdirA;
    std::string logdirB;
    std::optional<double> threshold; // --compare-threshold
    bool json = false;
    bool allowPartial = false;
};

// Exit statuses of --compare (the --help text and README.md say the same).
inline constexpr int kNoDivergence = 0;
inline constexpr int kDiverged = 1;
inline constexpr int kCompareUnreadable = 2;
inline constexpr int kCompareIncomplete = 3;

// Reads both logdirs, prints the comparison to stdout (an unreadable run: to stderr, or the JSON
// error object to stdout) and returns the exit status.
int runCompare(const CompareCommand& command, const core::ReaderOptions& readerOptions);

} // namespace nanscope
