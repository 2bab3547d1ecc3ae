// SPDX-License-Identifier: Apache-2.0
// The command line of the demos (nanscope-demo-mlp and its GPU twin): the tutorial's flags,
// their checks, and the data and recorder they select.
#pragma once

#include "dataset.hpp"
#include "nanscope/recorder.hpp"
#include "training.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace nanscope::demo {

// Exit status for a bad command line, as argparse and most Unix tools use.
inline constexpr int kUsageError = 2;
// Exit status of a run that --stop_at_first_nonfinite stopped.
inline constexpr int kStoppedAtNonFinite = 3;

struct Flags
{
    std::string dumpDir;
    std::string debugMode = "FULL_HEALTH";
    int circularBufferSize = -1;
    std::string dataDir;
    std::int64_t seed = 42; // signed: CLI11 would wrap "-1" into an unsigned
    bool stopAtFirstNonFinite = false;
    TrainingOptions training;
};

// Parses the command line into `flags`; an exit status when the program should stop there
// (0 after --help, kUsageError after printing what is wrong), nullopt to go on.
std::optional<int> parseCommandLine(int argc, char** argv, const char* program,
                                    const char* description, Flags& flags);

// MNIST from --data_dir when its files are there, the synthetic digits otherwise.
DataSplits loadData(const Flags& flags, const char* program);

// The recorder, or null when recording is off or the logdir cannot be created.
std::unique_ptr<Recorder> openRecorder(const Flags& flags, const char* program);

} // namespace nanscope::demo
