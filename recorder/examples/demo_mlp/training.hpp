// SPDX-License-Identifier: Apache-2.0
// The tutorial's training loop: one Adam step on a shuffled batch, then the accuracy on the
// whole test set, printed after every step. Eager ops and function calls are recorded as
// TensorFlow records them.
#pragma once

#include "dataset.hpp"
#include "instrumentation.hpp"

#include <cstdint>

namespace nanscope::demo {

struct TrainingOptions
{
    int maxSteps = 10;
    std::int64_t batchSize = 100;
    float learningRate = 0.025f;
    bool fix = false; // clip the probabilities before the log
    std::uint64_t seed = 42;
};

void train(const TrainingOptions& options, const DataSplits& data, Instrumentation& recording);

} // namespace nanscope::demo
