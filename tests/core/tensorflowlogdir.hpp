// SPDX-License-Identifier: GPL-3.0-or-later
// Logdirs shaped as TensorFlow's enable_dump_debug_info writes them for the tutorial's bug, with
// creation stacks as TensorFlow records them: tf_stack.extract_stack() outermost first, made
// absolute with os.path.abspath, down to the dumping callback itself; one SourceFile for every
// file on a stack, with text only for ".py" files (source_utils reads nothing else).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace nanscope::test {

enum class TensorFlowStack {
    // `python -m tensorflow.python.debug.examples.v2.debug_mnist_v2`, Python 3.8 and TensorFlow
    // installed in dist-packages: the user's script lives inside TensorFlow's own package.
    TutorialModule,
    // The same with Python 3.11, whose runpy is a frozen module ("<frozen runpy>").
    TutorialModuleFrozenRunpy,
    // `python train.py` building a Keras model with a custom layer in the user's model.py.
    KerasModel,
    // A console script of the user's own package installed into a virtualenv's site-packages.
    InstalledPackage,
    // An op created by framework code alone, on a thread the framework started.
    FrameworkOnly,
};

// What a reader should find as the user's frame (for FrameworkOnly: none).
struct ExpectedUserFrame
{
    std::string file; // empty for FrameworkOnly
    int line = 0;
    std::string function;
};

// Writes the logdir: graph "__inference_train_step_1" with the tutorial's ops (MatMul, Softmax,
// Log, mul, Sum, Neg), two steps of FULL_HEALTH traces; at step 2 the softmax underflows to an
// exact zero, Log makes -inf from it (the origin) and mul turns it into NaN. Returns where the
// Log op was created in the user's code.
ExpectedUserFrame writeTensorFlowLogdir(const std::filesystem::path& dir, TensorFlowStack stack);

// The same program run for many steps, for benchmarks: `traces` FULL_HEALTH traces (eight per
// step) and half as many executions (four per step: the traced function's call and three eager
// ops, each with its FULL_HEALTH summary in tensor_protos and a code location), with stack frame
// ids shaped as TensorFlow makes them (UUIDs), so that records have TensorFlow's sizes. The
// softmax underflows at 90 % of the steps; every step from there on is NaN. Records are written
// in large appends, so a million traces take seconds.
void writeLargeTensorFlowLogdir(const std::filesystem::path& dir, TensorFlowStack stack,
                                std::uint64_t traces);

// Parses "tutorial", "tutorial-frozen-runpy", "keras", "installed-package", "framework-only".
bool parseTensorFlowStack(const std::string& name, TensorFlowStack& stack);

} // namespace nanscope::test
