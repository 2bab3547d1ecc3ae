// SPDX-License-Identifier: GPL-3.0-or-later
// The FULL_HEALTH logdir the reading and app benchmarks measure: a training step of ~80 ops in
// three graphs repeated, healthy until a Log of zero late in the run, NaN after it.
#pragma once

#include <cstdint>
#include <filesystem>

namespace nanscope::bench {

// Writes `traces` graph execution traces into `dir` with our recorder. It runs in a child
// process, so that the writer's memory never counts in the caller's resident set.
bool writeBenchLogdir(const std::filesystem::path& dir, std::uint64_t traces);

// A field of /proc/self/status in kB: "VmRSS", "VmHWM" (the peak), "RssAnon" (the process's own
// memory), "RssFile" (mapped files: page cache the system can reclaim); 0 when absent.
std::uint64_t statusKb(const char* field);

// The resident set size of this process, in kB (VmRSS).
std::uint64_t residentKb();

} // namespace nanscope::bench
