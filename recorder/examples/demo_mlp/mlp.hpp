// SPDX-License-Identifier: Apache-2.0
// The tutorial's model as its tf.functions: format_example, dense_layer, model and loss.
// Each function computes with the math kernels and declares and traces its graph's ops on the
// lines that compute them, so that a debugger leads from an op back to its line here.
#pragma once

#include "instrumentation.hpp"
#include "tensor.hpp"

#include <cstdint>

namespace nanscope::demo {

// The traced functions of the program; nested graphs name their enclosing one.
struct Functions
{
    explicit Functions(Instrumentation& instrumentation);

    FunctionGraph formatExample;
    FunctionGraph model;
    FunctionGraph hiddenLayer; // dense_layer with ReLU, traced inside model
    FunctionGraph logitsLayer; // dense_layer without activation, traced inside model
    FunctionGraph loss;
    FunctionGraph lossBackward;
    FunctionGraph modelBackward;
    FunctionGraph hiddenLayerBackward;
    FunctionGraph logitsLayerBackward;
};

struct DenseWeights
{
    FloatTensor kernel; // [inputs, units]
    FloatTensor bias;   // [units]
};

// The four tf.Variables: 784→500 hidden ReLU layer and 500→10 logits layer.
struct Variables
{
    DenseWeights hidden;
    DenseWeights logits;
};

// Kernels from a truncated normal (mean 0, stddev 0.1), biases 0.1.
Variables initialVariables(std::uint64_t seed);

struct FormattedBatch
{
    FloatTensor images; // [n, 784] in [0, 1]
    FloatTensor labels; // [n, 10] one-hot
};

// Flattens and scales the images, one-hot encodes the labels.
FormattedBatch formatExample(Functions& functions, const UInt8Tensor& images,
                             const UInt8Tensor& labels);

struct ModelActivations
{
    FloatTensor hidden; // ReLU output, [n, 500]
    FloatTensor probs;  // softmax output, [n, 10]
};

ModelActivations model(Functions& functions, const Variables& variables, const FloatTensor& x);

// What the loss computed, kept for its gradient as TensorFlow's tape keeps it.
struct LossActivations
{
    FloatTensor neg;          // -labels
    FloatTensor clippedAbove; // min(probs, 1), with the fix only
    FloatTensor clipped;      // max(min(probs, 1), 1e-6), with the fix only
    FloatTensor log;
    FloatTensor loss; // scalar
};

// The mean over all elements of -labels · log(probs): the tutorial's bug, as nothing keeps the
// probabilities away from 0. `clip` applies the tutorial's fix before the log.
LossActivations loss(Functions& functions, const FloatTensor& probs, const FloatTensor& labels,
                     bool clip);

} // namespace nanscope::demo
