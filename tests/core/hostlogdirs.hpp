// SPDX-License-Identifier: GPL-3.0-or-later
// Logdirs of one run written by several hosts, with NaNscope's recorder: what the multi-host
// tests of the reader, the panels and the timeline share. No test framework here, so that
// Catch2 and QtTest tests use them alike.
#pragma once

#include "nanscope/recorder.hpp"

#include <filesystem>
#include <memory>

namespace nanscope::test {

// Opens host `host`'s recorder of run `runId` in `dir` (every event written as it comes, not
// closed at exit). The first host opened is the logdir's first file set when a
// later one is opened at least 20 ms after it (openSecondHost waits so).
Result<std::unique_ptr<Recorder>> openHost(const std::filesystem::path& dir, const char* runId,
                                           const char* host,
                                           TensorDebugMode mode = TensorDebugMode::FullHealth);
Result<std::unique_ptr<Recorder>>
openSecondHost(const std::filesystem::path& dir, const char* runId, const char* host,
               TensorDebugMode mode = TensorDebugMode::FullHealth);

// Run "two-hosts": host-a records the eager ops Exp (finite) and Log (-inf); host-b records
// Sqrt, Div (NaN) and Add, interleaved in that order (Exp, Sqrt, Log, Div, Add). Only
// executions: no graph, every op from one call site of hostlogdirs.cpp. Returns whether every
// call succeeded.
bool writeTwoHostExecutions(const std::filesystem::path& dir);

// Run "job" of two ranks: node-rank0 (the first to start) computes aten::mm and aten::add,
// finite; node-rank1 computes aten::mm, then aten::div makes NaN (its execution #1), between
// rank 0's two ops. Returns whether every call succeeded.
bool writeNaNOnSecondRank(const std::filesystem::path& dir);

} // namespace nanscope::test
