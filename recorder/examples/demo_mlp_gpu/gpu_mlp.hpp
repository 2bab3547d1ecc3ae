// SPDX-License-Identifier: Apache-2.0
// The tutorial's tf.functions on the GPU: format_example, dense_layer, model and loss, with the
// graphs and ops of the CPU demo (mlp.hpp), declared and traced on the lines that compute them.
#pragma once

#include "gpu_tensor.hpp"
#include "mlp.hpp"

namespace nanscope::demo::cuda {

struct GpuDenseWeights
{
    GpuFloat kernel; // [inputs, units]
    GpuFloat bias;   // [units]
};

struct GpuVariables
{
    GpuDenseWeights hidden;
    GpuDenseWeights logits;
};

// The CPU demo's initial weights, copied to the device.
GpuVariables uploadVariables(const Variables& variables);

struct GpuFormattedBatch
{
    GpuFloat images; // [n, 784] in [0, 1]
    GpuFloat labels; // [n, 10] one-hot
};

GpuFormattedBatch formatExample(Functions& functions, const GpuUInt8& images,
                                const GpuUInt8& labels);

struct GpuModelActivations
{
    GpuFloat hidden; // ReLU output, [n, 500]
    GpuFloat probs;  // softmax output, [n, 10]
};

GpuModelActivations model(Functions& functions, const GpuVariables& variables, const GpuFloat& x);

struct GpuLossActivations
{
    GpuFloat neg;
    GpuFloat clippedAbove; // with the fix only
    GpuFloat clipped;      // with the fix only
    GpuFloat log;
    GpuFloat loss; // scalar
};

// The mean of -labels · log(probs): the tutorial's bug; `clip` applies the tutorial's fix.
GpuLossActivations loss(Functions& functions, const GpuFloat& probs, const GpuFloat& labels,
                        bool clip);

} // namespace nanscope::demo::cuda
