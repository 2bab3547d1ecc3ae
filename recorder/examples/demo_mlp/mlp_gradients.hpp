// SPDX-License-Identifier: Apache-2.0
// The gradient functions TensorFlow's tape builds for loss and model, written out by hand
// with the same ops, so that NaN and infinity spread through them as they do in TensorFlow.
#pragma once

#include "mlp.hpp"

#include <vector>

namespace nanscope::demo {

struct LossGradients
{
    FloatTensor probs;
    FloatTensor labels;
};

// __backward_loss: the gradients of the loss with respect to its inputs; `upstream` is the
// scalar gradient of the loss (1).
LossGradients lossBackward(Functions& functions, const FloatTensor& upstream,
                           const FloatTensor& probs, const LossActivations& activations, bool clip);

// The gradients of one dense_layer call; `input` is empty when nothing needs it.
struct DenseGradients
{
    FloatTensor input;
    FloatTensor kernel;
    FloatTensor bias;
    bool hasInput = false;

    // The outputs of the gradient function's call, in order.
    std::vector<TensorView> views() const;
};

struct VariableGradients
{
    DenseGradients hidden;
    DenseGradients logits;
};

// __backward_model: the gradients of the four variables from the gradient of the probs.
VariableGradients modelBackward(Functions& functions, const FloatTensor& upstream,
                                const FloatTensor& x, const ModelActivations& activations,
                                const Variables& variables);

} // namespace nanscope::demo
