// SPDX-License-Identifier: Apache-2.0
// Keras's Adam as TensorFlow's ResourceApplyAdam kernel computes it, in float32.
#pragma once

#include "tensor.hpp"

namespace nanscope::demo {

struct AdamOptions
{
    float learningRate = 0.001f;
    float beta1 = 0.9f;
    float beta2 = 0.999f;
    float epsilon = 1e-7f;
};

// The optimizer's two slot variables of one model variable.
struct AdamSlots
{
    FloatTensor m;
    FloatTensor v;
};

class Adam
{
public:
    explicit Adam(AdamOptions options) : m_options(options) {}

    const AdamOptions& options() const { return m_options; }

    // Starts one apply_gradients: every variable updated until the next call uses this step.
    void beginStep() { ++m_step; }

    // Zero slots shaped like `variable`, as Keras creates them on the first step.
    static AdamSlots makeSlots(const FloatTensor& variable);

    // One ResourceApplyAdam: updates `slots` and `variable` in place.
    void apply(FloatTensor& variable, AdamSlots& slots, const FloatTensor& gradient) const;

private:
    AdamOptions m_options;
    int m_step = 0;
};

} // namespace nanscope::demo
