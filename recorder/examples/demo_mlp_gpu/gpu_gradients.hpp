// SPDX-License-Identifier: Apache-2.0
// The gradient functions of the tutorial on the GPU, with the graphs and ops of the CPU demo's
// mlp_gradients.hpp, so that NaN and infinity spread through them as in TensorFlow.
#pragma once

#include "gpu_mlp.hpp"

#include <vector>

namespace nanscope::demo::cuda {

struct GpuLossGradients
{
    GpuFloat probs;
    GpuFloat labels;
};

GpuLossGradients lossBackward(Functions& functions, const GpuFloat& upstream, const GpuFloat& probs,
                              const GpuLossActivations& activations, bool clip);

struct GpuDenseGradients
{
    GpuFloat input;
    GpuFloat kernel;
    GpuFloat bias;
    bool hasInput = false;

    // The outputs of the gradient function's call, in order.
    std::vector<TensorView> views() const;
};

struct GpuVariableGradients
{
    GpuDenseGradients hidden;
    GpuDenseGradients logits;
};

GpuVariableGradients modelBackward(Functions& functions, const GpuFloat& upstream,
                                   const GpuFloat& x, const GpuModelActivations& activations,
                                   const GpuVariables& variables);

} // namespace nanscope::demo::cuda
