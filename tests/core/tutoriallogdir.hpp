// SPDX-License-Identifier: GPL-3.0-or-later
// TensorFlow's debug_mnist_v2 bug in miniature, written with NaNscope's recorder (FULL_HEALTH):
// graph "model" (x → MatMul → Softmax) and graph "loss" (probs, labels → Neg, Log, Mul, Mean),
// two steps; in step 1 `probs` holds an exact 0.0, so Log gives -inf and Mul NaN.
#pragma once

#include <cstdint>
#include <filesystem>

namespace nanscope::test {

struct TutorialLogdir
{
    static constexpr std::uint64_t kTracesPerStep = 9;
    static constexpr std::uint64_t kProbsTrace = 12; // step 1
    static constexpr std::uint64_t kLogTrace = 15;
    static constexpr std::uint64_t kMulTrace = 16;
    static constexpr std::uint64_t kMeanTrace = 17;

    // Writes the logdir; returns the source line on which the Log op was declared.
    static int write(const std::filesystem::path& dir);
};

} // namespace nanscope::test
