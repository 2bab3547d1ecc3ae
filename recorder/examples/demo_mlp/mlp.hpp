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

// A demo's float tensor type (FloatTensor, or the GPU demo's device tensor).
template <class Ops>
using FloatOf = typename Ops::Float;

template <class Float>
struct DenseWeightsOf
{
    Float kernel; // [inputs, units]
    Float bias;   // [units]
};

// The four tf.Variables: 784→500 hidden ReLU layer and 500→10 logits layer.
template <class Float>
struct VariablesOf
{
    DenseWeightsOf<Float> hidden;
    DenseWeightsOf<Float> logits;
};

using DenseWeights = DenseWeightsOf<FloatTensor>;
using Variables = VariablesOf<FloatTensor>;

// Kernels from a truncated normal (mean 0, stddev 0.1), biases 0.1.
Variables initialVariables(std::uint64_t seed);

template <class Float>
struct FormattedBatchOf
{
    Float images; // [n, 784] in [0, 1]
    Float labels; // [n, 10] one-hot
};

template <class Float>
struct ModelActivationsOf
{
    Float hidden; // ReLU output, [n, 500]
    Float probs;  // softmax output, [n, 10]
};

// What the loss computed, kept for its gradient as TensorFlow's tape keeps it.
template <class Float>
struct LossActivationsOf
{
    Float neg;          // -labels
    Float clippedAbove; // min(probs, 1), with the fix only
    Float clipped;      // max(min(probs, 1), 1e-6), with the fix only
    Float log;
    Float loss; // scalar
};

using FormattedBatch = FormattedBatchOf<FloatTensor>;
using ModelActivations = ModelActivationsOf<FloatTensor>;
using LossActivations = LossActivationsOf<FloatTensor>;

// The functions are written once for both demos over the demo's `Ops`: tensor_math.hpp's
// HostOps, or the GPU demo's GpuOps (gpu_math.hpp), which provide the tensor types Float and
// UInt8 and the primitive ops as static functions. Defined and instantiated for both in
// mlp.cpp, so that the ops' creation stacks lead to the lines there in either demo.

// Flattens and scales the images, one-hot encodes the labels.
template <class Ops>
FormattedBatchOf<FloatOf<Ops>> formatExample(Functions& functions,
                                             const typename Ops::UInt8& images,
                                             const typename Ops::UInt8& labels);

template <class Ops>
ModelActivationsOf<FloatOf<Ops>>
model(Functions& functions, const VariablesOf<FloatOf<Ops>>& variables, const FloatOf<Ops>& x);

// The mean over all elements of -labels · log(probs): the tutorial's bug, as nothing keeps the
// probabilities away from 0. `clip` applies the tutorial's fix before the log.
template <class Ops>
LossActivationsOf<FloatOf<Ops>> loss(Functions& functions, const FloatOf<Ops>& probs,
                                     const FloatOf<Ops>& labels, bool clip);

} // namespace nanscope::demo
