// SPDX-License-Identifier: Apache-2.0
#include "commandline.hpp"

#include "mnist_idx.hpp"
#include "synthetic_digits.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace nanscope::demo {

namespace {

std::string modeError(const std::string& text)
{
    if (parseTensorDebugMode(text))
        return {};
    return "unknown mode " + text +
           " (NO_TENSOR, CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH, SHAPE or FULL_TENSOR)";
}

void defineFlags(CLI::App& app, Flags& flags)
{
    app.add_option("--dump_dir", flags.dumpDir,
                   "Write a tfdbg2 logdir here (nothing is recorded without it)");
    app.add_option("--dump_tensor_debug_mode", flags.debugMode, "How much of each tensor to record")
        ->check(modeError)
        ->capture_default_str();
    app.add_option("--dump_circular_buffer_size", flags.circularBufferSize,
                   "Keep only the last N executions and traces (-1: write every event)")
        ->capture_default_str();
    app.add_option("--max_steps", flags.training.maxSteps, "Number of training steps")
        ->capture_default_str();
    app.add_option("--train_batch_size", flags.training.batchSize, "Images per training batch")
        ->capture_default_str();
    app.add_option("--learning_rate", flags.training.learningRate, "Adam's learning rate")
        ->capture_default_str();
    app.add_option("--data_dir", flags.dataDir,
                   "Directory with the four MNIST IDX files (synthetic digits without them)");
    app.add_flag("--fix", flags.training.fix,
                 "Clip the probabilities to [1e-6, 1] before the log (the tutorial's fix)");
    app.add_option("--seed", flags.seed, "Seed of the initial weights, data and shuffling")
        ->capture_default_str();
    app.add_flag("--stop_at_first_nonfinite", flags.stopAtFirstNonFinite,
                 "Stop at the first NaN or inf that is not intended, with everything recorded up "
                 "to it on disk (exit status 3); needs --dump_dir and a mode that reads values");
}

// Range checks that read better than CLI11's numeric validators' messages.
void validate(const Flags& flags)
{
    if (flags.training.maxSteps < 0)
        throw CLI::ValidationError("--max_steps", "must be 0 or more");
    if (flags.training.batchSize < 1)
        throw CLI::ValidationError("--train_batch_size", "must be 1 or more");
    if (!(flags.training.learningRate > 0.0f) || !std::isfinite(flags.training.learningRate))
        throw CLI::ValidationError("--learning_rate", "must be a positive number");
    if (flags.seed < 0)
        throw CLI::ValidationError("--seed", "must be 0 or more");
    if (flags.stopAtFirstNonFinite && flags.dumpDir.empty())
        throw CLI::ValidationError("--stop_at_first_nonfinite", "needs --dump_dir");
    if (flags.stopAtFirstNonFinite &&
        (flags.debugMode == "NO_TENSOR" || flags.debugMode == "SHAPE"))
        throw CLI::ValidationError("--stop_at_first_nonfinite",
                                   "needs a --dump_tensor_debug_mode that reads values");
}

} // namespace

std::optional<int> parseCommandLine(int argc, char** argv, const char* program,
                                    const char* description, Flags& flags)
{
    CLI::App app{description, program};
    defineFlags(app, flags);
    try {
        app.parse(argc, argv);
        validate(flags);
        flags.training.seed = static_cast<std::uint64_t>(flags.seed);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) // --help
            return app.exit(e);
        std::cerr << program << ": " << e.what() << "\n\n" << app.help();
        return kUsageError;
    }
    return std::nullopt;
}

DataSplits loadData(const Flags& flags, const char* program)
{
    if (!flags.dataDir.empty()) {
        if (auto mnist = loadMnist(flags.dataDir))
            return std::move(*mnist);
        std::fprintf(stderr, "%s: no MNIST files in %s; using synthetic digits\n", program,
                     flags.dataDir.c_str());
    }
    return makeSyntheticDigits({.seed = flags.training.seed});
}

std::unique_ptr<Recorder> openRecorder(const Flags& flags, const char* program)
{
    if (flags.dumpDir.empty())
        return nullptr;
    auto recorder = Recorder::open({.dumpRoot = std::filesystem::absolute(flags.dumpDir),
                                    .mode = *parseTensorDebugMode(flags.debugMode),
                                    .circularBufferSize = flags.circularBufferSize,
                                    .stopAtFirstNonFinite = flags.stopAtFirstNonFinite});
    if (!recorder) {
        std::fprintf(stderr, "%s: recording failed: %s (training goes on)\n", program,
                     recorder.status().message().c_str());
        return nullptr;
    }
    return std::move(*recorder);
}

} // namespace nanscope::demo
