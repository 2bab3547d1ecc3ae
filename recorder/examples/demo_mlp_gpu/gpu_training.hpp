// SPDX-License-Identifier: Apache-2.0
// The tutorial's training loop on the GPU: one Adam step on a shuffled batch, then the accuracy
// on the whole test set, printed after every step; eager ops and function calls recorded as in
// the CPU demo (training.hpp), with device tensors.
#pragma once

#include "dataset.hpp"
#include "instrumentation.hpp"
#include "training.hpp"

namespace nanscope::demo::cuda {

void train(const TrainingOptions& options, const DataSplits& data, Instrumentation& recording);

} // namespace nanscope::demo::cuda
