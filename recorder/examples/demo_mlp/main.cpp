// SPDX-License-Identifier: Apache-2.0
// nanscope-demo-mlp: TensorFlow's debug_mnist_v2 tutorial program re-created in C++ and
// recorded with NaNscope's recorder. Without --fix its loss takes log(0) after the first
// training step, and NaN spreads from there into every weight; the logdir shows where.
#include "commandline.hpp"
#include "instrumentation.hpp"
#include "training.hpp"

#include <cstdio>
#include <exception>

namespace {

constexpr const char* kProgram = "nanscope-demo-mlp";

} // namespace

int main(int argc, char** argv)
{
    nanscope::demo::Flags flags;
    if (const auto exit = nanscope::demo::parseCommandLine(
            argc, argv, kProgram,
            "Trains the debug_mnist_v2 tutorial's network, bug included, and records it as a "
            "tfdbg2 logdir.",
            flags))
        return *exit;

    try {
        const nanscope::demo::DataSplits data = nanscope::demo::loadData(flags, kProgram);
        std::printf("Training on %s\n", data.source.c_str());
        nanscope::demo::Instrumentation recording(nanscope::demo::openRecorder(flags, kProgram));
        nanscope::demo::train(flags.training, data, recording);
        if (const auto logdir = recording.close())
            std::printf("Logdir: %s\n", logdir->c_str());
    } catch (const nanscope::demo::StoppedAtNonFinite& e) {
        // The recorder wrote and synced everything up to the op before it said so.
        std::fprintf(stderr, "%s: %s\n", kProgram, e.what());
        return nanscope::demo::kStoppedAtNonFinite;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", kProgram, e.what());
        return 1;
    }
    return 0;
}
