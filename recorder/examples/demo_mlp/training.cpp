// SPDX-License-Identifier: Apache-2.0
#include "training.hpp"

#include "adam.hpp"
#include "mlp.hpp"
#include "mlp_gradients.hpp"
#include "tensor_math.hpp"
#include "training_loop.hpp"

#include <cstdint>

namespace nanscope::demo {

namespace {

// The training loop's tensors on the host, computed by tensor_math.
struct HostDevice
{
    using Float = FloatTensor;
    using Variables = demo::Variables;
    using Optimizer = Adam;
    using Slots = AdamSlots;

    static Variables variables(std::uint64_t seed) { return initialVariables(seed); }
    // The datasets' tensors are read where they are.
    static const UInt8Tensor& place(const UInt8Tensor& t) { return t; }

    static FormattedBatch formatExample(Functions& f, const UInt8Tensor& images,
                                        const UInt8Tensor& labels)
    {
        return demo::formatExample<HostOps>(f, images, labels);
    }
    static ModelActivations model(Functions& f, const Variables& v, const FloatTensor& x)
    {
        return demo::model<HostOps>(f, v, x);
    }
    static LossActivations loss(Functions& f, const FloatTensor& probs, const FloatTensor& labels,
                                bool clip)
    {
        return demo::loss<HostOps>(f, probs, labels, clip);
    }
    static LossGradientsOf<FloatTensor> lossBackward(Functions& f, const FloatTensor& upstream,
                                                     const FloatTensor& probs,
                                                     const LossActivations& a, bool clip)
    {
        return demo::lossBackward<HostOps>(f, upstream, probs, a, clip);
    }
    static VariableGradientsOf<FloatTensor> modelBackward(Functions& f, const FloatTensor& upstream,
                                                          const FloatTensor& x,
                                                          const ModelActivations& a,
                                                          const Variables& v)
    {
        return demo::modelBackward<HostOps>(f, upstream, x, a, v);
    }

    static FloatTensor scalar(float value) { return math::scalar(value); }
    static Int64Tensor argmaxRows(const FloatTensor& x) { return math::argmaxRows(x); }
    static BoolTensor equal(const Int64Tensor& x, const Int64Tensor& y)
    {
        return math::equal(x, y);
    }
    static FloatTensor castToFloat(const BoolTensor& t) { return math::castToFloat(t); }
    static FloatTensor meanAll(const FloatTensor& x) { return math::meanAll(x); }
    static AdamSlots makeSlots(const FloatTensor& variable) { return Adam::makeSlots(variable); }
    static float first(const FloatTensor& t) { return t[0]; }
};

} // namespace

void train(const TrainingOptions& options, const DataSplits& data, Instrumentation& recording)
{
    trainOn<HostDevice>(options, data, recording);
}

} // namespace nanscope::demo
