// SPDX-License-Identifier: GPL-3.0-or-later
// How fuzzer inputs become files. libFuzzer mutates bytes, and a record whose CRCs do not match is
// rejected before any decoder sees it, so the decoding and logdir targets take *payloads*
// separated by a marker and frame them with valid CRCs themselves. The seeds are made from real
// logdirs by nanscope-fuzz-seeds in this format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::fuzz {

// Between two record payloads of one file.
inline constexpr std::string_view kRecordSeparator = "\xfe\xedNsRec\xfe";
// Between two files of a logdir input.
inline constexpr std::string_view kFileSeparator = "\xfe\xedNsFile\xfe";

// The six files of a file set, in the order of a logdir input's parts.
inline constexpr std::string_view kSuffixes[6] = {
    "metadata", "source_files", "stack_frames", "graphs", "execution", "graph_execution_traces"};

std::vector<std::string_view> split(std::string_view bytes, std::string_view separator);
std::string join(const std::vector<std::string>& parts, std::string_view separator);

// The payloads of `part`, each framed as a TFRecord with valid CRCs.
std::string frameAll(std::string_view part);

// The files of a logdir input (the logdir target's format, after its leading bytes): up to
// twelve, the six of a main file set, then the six of a second host's, in kSuffixes' order. File
// i is its part's raw bytes when bit i % 6 of `rawFiles` is set, else its payloads framed.
std::vector<std::string> logdirFiles(std::string_view input, std::uint8_t rawFiles);
// Where file `i` of logdirFiles() goes in `dir`.
std::filesystem::path logdirFilePath(const std::filesystem::path& dir, std::size_t i);

// The payloads of the complete records at the start of `file` (for making seeds).
std::vector<std::string> payloadsOf(std::string_view file);

std::string_view asText(std::span<const std::uint8_t> data);

// A private directory for the process's files, removed at exit: under /dev/shm when it exists
// (the targets write files at every execution), else the system's temporary directory.
const std::filesystem::path& scratchDirectory();

// Replaces the file's content with `bytes` (created if needed).
void writeFile(const std::filesystem::path& file, std::string_view bytes);

} // namespace nanscope::fuzz
