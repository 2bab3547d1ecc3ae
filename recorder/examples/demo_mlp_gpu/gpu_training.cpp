// SPDX-License-Identifier: Apache-2.0
#include "gpu_training.hpp"

#include "adam.hpp"
#include "gpu_kernels.hpp"
#include "gpu_math.hpp"
#include "mlp.hpp"
#include "mlp_gradients.hpp"
#include "training_loop.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace nanscope::demo::cuda {

namespace {

struct GpuAdamSlots
{
    GpuFloat m;
    GpuFloat v;
};

// ResourceApplyAdam as the CPU demo's Adam computes it (adam.cpp), in float32.
class GpuAdam
{
public:
    explicit GpuAdam(AdamOptions options) : m_options(options) {}
    void beginStep() { ++m_step; }
    void apply(GpuFloat& variable, GpuAdamSlots& slots, const GpuFloat& gradient) const
    {
        const auto step = static_cast<float>(m_step);
        const float beta1Power = std::pow(m_options.beta1, step);
        const float beta2Power = std::pow(m_options.beta2, step);
        const float alpha =
            m_options.learningRate * std::sqrt(1.0f - beta2Power) / (1.0f - beta1Power);
        adam(variable.data(), slots.m.data(), slots.v.data(), gradient.data(),
             static_cast<std::int64_t>(variable.size()), alpha, 1.0f - m_options.beta1,
             1.0f - m_options.beta2, m_options.epsilon, context().stream);
        checkLaunch("ResourceApplyAdam");
    }

private:
    AdamOptions m_options;
    int m_step = 0;
};

// The CPU demo's initial weights, copied to the device.
VariablesOf<GpuFloat> uploadVariables(const Variables& variables)
{
    return {{upload(variables.hidden.kernel), upload(variables.hidden.bias)},
            {upload(variables.logits.kernel), upload(variables.logits.bias)}};
}

GpuFloat zeros(const std::vector<std::int64_t>& shape)
{
    return math::zerosLike(GpuFloat(shape));
}

// The training loop's tensors on the device, computed on the demo's stream.
struct CudaDevice
{
    using Float = GpuFloat;
    using Variables = VariablesOf<GpuFloat>;
    using Optimizer = GpuAdam;
    using Slots = GpuAdamSlots;

    // The CPU demo's initial weights, copied to the device.
    static Variables variables(std::uint64_t seed)
    {
        return uploadVariables(initialVariables(seed));
    }
    static GpuUInt8 place(const UInt8Tensor& t) { return upload(t); }

    static FormattedBatchOf<GpuFloat> formatExample(Functions& f, const GpuUInt8& images,
                                                    const GpuUInt8& labels)
    {
        return demo::formatExample<GpuOps>(f, images, labels);
    }
    static ModelActivationsOf<GpuFloat> model(Functions& f, const Variables& v, const GpuFloat& x)
    {
        return demo::model<GpuOps>(f, v, x);
    }
    static LossActivationsOf<GpuFloat> loss(Functions& f, const GpuFloat& probs,
                                            const GpuFloat& labels, bool clip)
    {
        return demo::loss<GpuOps>(f, probs, labels, clip);
    }
    static LossGradientsOf<GpuFloat> lossBackward(Functions& f, const GpuFloat& upstream,
                                                  const GpuFloat& probs,
                                                  const LossActivationsOf<GpuFloat>& a, bool clip)
    {
        return demo::lossBackward<GpuOps>(f, upstream, probs, a, clip);
    }
    static VariableGradientsOf<GpuFloat> modelBackward(Functions& f, const GpuFloat& upstream,
                                                       const GpuFloat& x,
                                                       const ModelActivationsOf<GpuFloat>& a,
                                                       const Variables& v)
    {
        return demo::modelBackward<GpuOps>(f, upstream, x, a, v);
    }

    static GpuFloat scalar(float value) { return math::scalar(value); }
    static GpuInt64 argmaxRows(const GpuFloat& x) { return math::argmaxRows(x); }
    static GpuBool equal(const GpuInt64& x, const GpuInt64& y) { return math::equal(x, y); }
    static GpuFloat castToFloat(const GpuBool& t) { return math::castToFloat(t); }
    static GpuFloat meanAll(const GpuFloat& x) { return math::meanAll(x); }
    static GpuAdamSlots makeSlots(const GpuFloat& variable)
    {
        return GpuAdamSlots{zeros(variable.shape), zeros(variable.shape)};
    }
    static float first(const GpuFloat& t) { return download(t)[0]; }
};

} // namespace

void train(const TrainingOptions& options, const DataSplits& data, Instrumentation& recording)
{
    trainOn<CudaDevice>(options, data, recording);
}

} // namespace nanscope::demo::cuda
