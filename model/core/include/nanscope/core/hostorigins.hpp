// SPDX-License-Identifier: GPL-3.0-or-later
// Origins across the hosts of one run (the ranks of a PyTorch job). TensorFlow's reader, and so
// the main reading of a logdir, takes alerts and the origin from the main host only; a NaN made
// on another rank would go unnamed. Each other host that recorded non-finite executions is read
// again as the main one (DiscoveryOptions::mainHost), and its origin is reported beside the main
// host's, the earliest by wall time first: that rank's value is where the run went wrong.
#pragma once

#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"

#include <filesystem>

namespace nanscope::core {

// Fills report.hostOrigins: for each host but the main one with non-finite executions, the
// origin found when it is read as the main host (those with none that counts are left out),
// sorted by the origin's wall time. `options` are the main reading's; the hosts' readings save no
// index.
void addHostOrigins(Report& report, const std::filesystem::path& logdir,
                    const ReaderOptions& options, const ReportOptions& reportOptions = {});

} // namespace nanscope::core
