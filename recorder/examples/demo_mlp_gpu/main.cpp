// SPDX-License-Identifier: Apache-2.0
// nanscope-demo-mlp-gpu: the tutorial's buggy MLP (nanscope-demo-mlp) trained on a CUDA GPU
// with cuBLAS, its device tensors recorded on the GPU by NaNscope's recorder: the same flags,
// the same graphs and calls, the same symptoms. Exits with status 3 when there is no usable
// CUDA device.
#include "commandline.hpp"
#include "gpu_training.hpp"
#include "instrumentation.hpp"
#include "nanscope/gpu/device.hpp"

#include <cstdio>
#include <exception>

namespace {

constexpr const char* kProgram = "nanscope-demo-mlp-gpu";

// No usable CUDA device (or driver): distinct from a bad command line (2) and a failure (1).
constexpr int kNoDevice = 3;

} // namespace

int main(int argc, char** argv)
{
    nanscope::demo::Flags flags;
    if (const auto exit = nanscope::demo::parseCommandLine(
            argc, argv, kProgram,
            "Trains the debug_mnist_v2 tutorial's network, bug included, on a CUDA GPU and "
            "records its device tensors as a tfdbg2 logdir.",
            flags))
        return *exit;
    if (!nanscope::gpu::available()) {
        std::fprintf(stderr, "%s: cannot run: %s\n", kProgram,
                     nanscope::gpu::deviceStatus().message().c_str());
        return kNoDevice;
    }

    try {
        const nanscope::demo::DataSplits data = nanscope::demo::loadData(flags, kProgram);
        std::printf("Training on %s, on %s\n", data.source.c_str(),
                    nanscope::gpu::deviceDescription().c_str());
        nanscope::demo::Instrumentation recording(nanscope::demo::openRecorder(flags, kProgram),
                                                  kProgram);
        recording.setDeviceName("/job:localhost/replica:0/task:0/device:GPU:0");
        nanscope::demo::cuda::train(flags.training, data, recording);
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
