// SPDX-License-Identifier: GPL-3.0-or-later
// What the saved-index tests share: a reader that saves its index in a given directory, what a
// reader shows as text (to compare a reopened index with a read of the logdir), and a logdir of
// one op's traces that grows.
#pragma once

#include "nanscope/core/logdirreader.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace nanscope::test {

// Options that save the index in `cache` whatever the logdir's size, read through `files`
// (null: the disk).
core::ReaderOptions cachedIn(const std::filesystem::path& cache,
                             std::shared_ptr<const core::FileSystem> files = nullptr);

// Everything a reader shows of a logdir, as text: the report (counts, alerts, origin,
// diagnostics) and every trace, execution and alert field by field.
std::string fingerprint(const core::Snapshot& s);

// What a reader of the whole logdir, without a saved index, shows.
std::string readFresh(const std::filesystem::path& logdir);

// The one saved index in `cache` (a test failure when there is not exactly one).
std::filesystem::path onlySavedIndex(const std::filesystem::path& cache);

// A CURT_HEALTH trace of op "r" of graph "g" (runWithOneOp) at wall time `i`, framed.
std::string framedOneOpTrace(std::uint64_t i, bool nonFinite);

// The logdir's .graph_execution_traces file.
std::filesystem::path traceFileOf(const std::filesystem::path& logdir);

// A change within 50 ms of a save vouches for nothing (indexcachetrust.hpp): appends made
// before a reopen are made older than that, so that what is read is what the growth needs.
void letChangesAge();

} // namespace nanscope::test
