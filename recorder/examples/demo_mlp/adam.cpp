// SPDX-License-Identifier: Apache-2.0
#include "adam.hpp"

#include <cmath>
#include <stdexcept>

namespace nanscope::demo {

AdamSlots Adam::makeSlots(const FloatTensor& variable)
{
    return {FloatTensor(variable.shape), FloatTensor(variable.shape)};
}

void Adam::apply(FloatTensor& variable, AdamSlots& slots, const FloatTensor& gradient) const
{
    if (gradient.size() != variable.size() || slots.m.size() != variable.size() ||
        slots.v.size() != variable.size())
        throw std::invalid_argument("Adam: the gradient does not match the variable");
    // Keras passes the bias-correction powers; the kernel folds them into the step size.
    const auto step = static_cast<float>(m_step);
    const float beta1Power = std::pow(m_options.beta1, step);
    const float beta2Power = std::pow(m_options.beta2, step);
    const float alpha = m_options.learningRate * std::sqrt(1.0f - beta2Power) / (1.0f - beta1Power);
    const float oneMinusBeta1 = 1.0f - m_options.beta1;
    const float oneMinusBeta2 = 1.0f - m_options.beta2;
    float* __restrict var = variable.data();
    float* __restrict m = slots.m.data();
    float* __restrict v = slots.v.data();
    const float* __restrict g = gradient.data();
    for (std::size_t i = 0; i < variable.size(); ++i) {
        m[i] += (g[i] - m[i]) * oneMinusBeta1;
        v[i] += (g[i] * g[i] - v[i]) * oneMinusBeta2;
        var[i] -= (m[i] * alpha) / (std::sqrt(v[i]) + m_options.epsilon);
    }
}

} // namespace nanscope::demo
