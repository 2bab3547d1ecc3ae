// nanscope-demo-mlp: TensorFlow's debug_mnist_v2 tutorial program re-created in C++ and
// recorded with NaNscope's recorder. Without --fix its loss takes log(0) after the first
// training step, and NaN spreads from there into every weight; the logdir shows where.
#include "instrumentation.hpp"
#include "mnist_idx.hpp"
#include "nanscope/recorder.hpp"
#include "synthetic_digits.hpp"
#include "training.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

namespace {

constexpr const char* kProgram = "nanscope-demo-mlp";

// Exit status for a bad command line, as argparse and most Unix tools use.
constexpr int kUsageError = 2;

struct Flags
{
    std::string dumpDir;
    std::string debugMode = "FULL_HEALTH";
    int circularBufferSize = -1;
    std::string dataDir;
    std::int64_t seed = 42; // signed: CLI11 would wrap "-1" into an unsigned
    nanscope::demo::TrainingOptions training;
};

std::string modeError(const std::string& text)
{
    if (nanscope::parseTensorDebugMode(text))
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
}

nanscope::demo::DataSplits loadData(const Flags& flags)
{
    if (!flags.dataDir.empty()) {
        if (auto mnist = nanscope::demo::loadMnist(flags.dataDir))
            return std::move(*mnist);
        std::fprintf(stderr, "%s: no MNIST files in %s; using synthetic digits\n", kProgram,
                     flags.dataDir.c_str());
    }
    return nanscope::demo::makeSyntheticDigits({.seed = flags.training.seed});
}

// The recorder, or null when recording is off or the logdir cannot be created.
std::unique_ptr<nanscope::Recorder> openRecorder(const Flags& flags)
{
    if (flags.dumpDir.empty())
        return nullptr;
    auto recorder =
        nanscope::Recorder::open({.dumpRoot = std::filesystem::absolute(flags.dumpDir),
                                  .mode = *nanscope::parseTensorDebugMode(flags.debugMode),
                                  .circularBufferSize = flags.circularBufferSize});
    if (!recorder) {
        std::fprintf(stderr, "%s: recording failed: %s (training goes on)\n", kProgram,
                     recorder.status().message().c_str());
        return nullptr;
    }
    return std::move(*recorder);
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App app{"Trains the debug_mnist_v2 tutorial's network, bug included, and records it as "
                 "a tfdbg2 logdir.",
                 kProgram};
    Flags flags;
    defineFlags(app, flags);
    try {
        app.parse(argc, argv);
        validate(flags);
        flags.training.seed = static_cast<std::uint64_t>(flags.seed);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) // --help
            return app.exit(e);
        std::cerr << kProgram << ": " << e.what() << "\n\n" << app.help();
        return kUsageError;
    }

    try {
        const nanscope::demo::DataSplits data = loadData(flags);
        std::printf("Training on %s\n", data.source.c_str());
        nanscope::demo::Instrumentation recording(openRecorder(flags));
        nanscope::demo::train(flags.training, data, recording);
        if (const auto logdir = recording.close())
            std::printf("Logdir: %s\n", logdir->c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", kProgram, e.what());
        return 1;
    }
    return 0;
}
