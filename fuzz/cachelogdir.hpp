// SPDX-License-Identifier: GPL-3.0-or-later
// The logdir whose saved index the index_cache fuzz target's inputs stand for: small, but with
// every part a saved index holds (two hosts, an op no record declares, trace devices, alerts
// among traces and executions, tensor ids and per-output health, a record problem).
#pragma once

#include "nanscope/core/filesystem.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace nanscope::fuzz {

// The logdir, in memory under `dir`.
std::shared_ptr<core::MemoryFileSystem> indexCacheLogdir(const std::filesystem::path& dir);

// Its saved index, as a reader of it writes one (the target's seed).
std::string savedIndexOfCacheLogdir();

// Where the target keeps the logdir (made-up: it exists only in memory).
inline const std::filesystem::path kCacheLogdirPath = "/logdir";
// The reader's memory limit there, part of what a saved index is the index of.
inline constexpr std::uint64_t kCacheLogdirMemoryLimit = 2u << 20;

} // namespace nanscope::fuzz
