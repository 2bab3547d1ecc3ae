// SPDX-License-Identifier: GPL-3.0-or-later
// Test helpers: temporary logdirs and reading their files back as DebugEvents.
#pragma once

#include "nanscope/tfdbg/debug_event.pb.h"
#include "tempdir.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace nanscope::test {

// The single file of `dir` whose name ends in ".<suffix>".
std::filesystem::path findFile(const std::filesystem::path& dir, const std::string& suffix);

// Every record of a file, in order; fails the test on a torn or corrupt record.
std::vector<tfdbg::DebugEvent> readEvents(const std::filesystem::path& file);

// Every record of the file with the suffix in `dir`.
std::vector<tfdbg::DebugEvent> readEvents(const std::filesystem::path& dir,
                                          const std::string& suffix);

// The float64 values of a TensorProto with raw content.
std::vector<double> doubles(const tfdbg::TensorProto& proto);

} // namespace nanscope::test
