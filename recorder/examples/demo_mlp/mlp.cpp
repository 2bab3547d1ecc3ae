// SPDX-License-Identifier: Apache-2.0
#include "mlp.hpp"

#include "dataset.hpp"
#include "random.hpp"
#include "tensor_math.hpp"

// The GPU demo compiles this file too, with its device math, so that its model is this one.
#ifdef NANSCOPE_DEMO_MLP_GPU
#include "gpu_math.hpp"
#endif

namespace nanscope::demo {

namespace {

constexpr std::int64_t kHiddenUnits = 500;

enum class Activation { Relu, None };

// dense_layer(weights, x, act): act(x @ kernel + bias), one graph per activation.
template <class Ops>
FloatOf<Ops> denseLayer(FunctionGraph& g, const DenseWeightsOf<FloatOf<Ops>>& weights,
                        const FloatOf<Ops>& input, Activation activation)
{
    using Float = FloatOf<Ops>;
    const Float& x = g.op({"Placeholder", "x"}, input);
    g.declare({"Placeholder", "matmul_readvariableop_resource"});
    g.declare({"Placeholder", "add_readvariableop_resource"});
    const Float& kernel =
        g.op({"ReadVariableOp", "MatMul/ReadVariableOp", {"matmul_readvariableop_resource"}},
             weights.kernel);
    Float product =
        g.op({"MatMul", "MatMul", {"x", "MatMul/ReadVariableOp"}}, Ops::matmul(x, kernel));
    const Float& bias = g.op(
        {"ReadVariableOp", "add/ReadVariableOp", {"add_readvariableop_resource"}}, weights.bias);
    Float preactivation =
        g.op({"AddV2", "add", {"MatMul", "add/ReadVariableOp"}}, Ops::add(product, bias));
    if (activation == Activation::None) {
        g.declare({"Identity", "Identity", {"add"}});
        return preactivation;
    }
    Float activations = g.op({"Relu", "Relu", {"add"}}, Ops::relu(preactivation));
    g.declare({"Identity", "Identity", {"Relu"}});
    return activations;
}

FloatTensor truncatedNormalKernel(Random& random, std::int64_t inputs, std::int64_t units)
{
    FloatTensor kernel({inputs, units});
    for (float& v : kernel.values)
        v = static_cast<float>(random.truncatedNormal(0.0, 0.1));
    return kernel;
}

} // namespace

Functions::Functions(Instrumentation& instrumentation)
    : formatExample(instrumentation, "format_example", FunctionGraph::Kind::Inference),
      model(instrumentation, "model", FunctionGraph::Kind::Inference),
      hiddenLayer(instrumentation, "dense_layer", FunctionGraph::Kind::Inference, &model),
      logitsLayer(instrumentation, "dense_layer", FunctionGraph::Kind::Inference, &model),
      loss(instrumentation, "loss", FunctionGraph::Kind::Inference),
      lossBackward(instrumentation, "loss", FunctionGraph::Kind::Backward),
      modelBackward(instrumentation, "model", FunctionGraph::Kind::Backward),
      hiddenLayerBackward(instrumentation, "dense_layer", FunctionGraph::Kind::Backward,
                          &modelBackward),
      logitsLayerBackward(instrumentation, "dense_layer", FunctionGraph::Kind::Backward,
                          &modelBackward)
{}

Variables initialVariables(std::uint64_t seed)
{
    Random random(seed);
    Variables v;
    v.hidden.kernel = truncatedNormalKernel(random, kImagePixels, kHiddenUnits);
    v.hidden.bias = FloatTensor({kHiddenUnits}, 0.1f);
    v.logits.kernel = truncatedNormalKernel(random, kHiddenUnits, kClasses);
    v.logits.bias = FloatTensor({kClasses}, 0.1f);
    return v;
}

template <class Ops>
FormattedBatchOf<FloatOf<Ops>> formatExample(Functions& functions,
                                             const typename Ops::UInt8& imagesIn,
                                             const typename Ops::UInt8& labelsIn)
{
    using Float = FloatOf<Ops>;
    using UInt8 = typename Ops::UInt8;
    FunctionGraph& g = functions.formatExample;
    const UInt8& images = g.op({"Placeholder", "imgs"}, imagesIn);
    const UInt8& labels = g.op({"Placeholder", "labels"}, labelsIn);
    g.op({"Const", "Reshape/shape"},
         Ops::constant({2}, {-1, static_cast<std::int32_t>(kImagePixels)}));
    UInt8 flat = g.op({"Reshape", "Reshape", {"imgs", "Reshape/shape"}},
                      Ops::reshape(images, {images.rows(), kImagePixels}));
    Float pixels = g.op({"Cast", "Cast", {"Reshape"}}, Ops::castToFloat(flat));
    const Float& scale = g.op({"Const", "truediv/y"}, Ops::scalar(255.0f));
    FormattedBatchOf<Float> out;
    out.images = g.op({"RealDiv", "truediv", {"Cast", "truediv/y"}}, Ops::divide(pixels, scale));
    g.op({"Const", "one_hot/depth"}, Ops::constant({}, {kClasses}));
    g.op({"Const", "one_hot/on_value"}, Ops::scalar(1.0f));
    g.op({"Const", "one_hot/off_value"}, Ops::scalar(0.0f));
    out.labels = g.op(
        {"OneHot", "one_hot", {"labels", "one_hot/depth", "one_hot/on_value", "one_hot/off_value"}},
        Ops::oneHot(labels, kClasses, 1.0f, 0.0f));
    g.declare({"Identity", "Identity", {"truediv"}});
    g.declare({"Identity", "Identity_1", {"one_hot"}});
    return out;
}

template <class Ops>
ModelActivationsOf<FloatOf<Ops>>
model(Functions& functions, const VariablesOf<FloatOf<Ops>>& variables, const FloatOf<Ops>& input)
{
    using Float = FloatOf<Ops>;
    FunctionGraph& g = functions.model;
    const Float& x = g.op({"Placeholder", "x"}, input);
    // The captured variables, passed on to the dense_layer calls.
    g.declare({"Placeholder", "statefulpartitionedcall_args_1"});
    g.declare({"Placeholder", "statefulpartitionedcall_args_2"});
    g.declare({"Placeholder", "statefulpartitionedcall_1_args_1"});
    g.declare({"Placeholder", "statefulpartitionedcall_1_args_2"});
    ModelActivationsOf<Float> out;
    out.hidden =
        g.op({"StatefulPartitionedCall",
              "StatefulPartitionedCall",
              {"x", "statefulpartitionedcall_args_1", "statefulpartitionedcall_args_2"}},
             denseLayer<Ops>(functions.hiddenLayer, variables.hidden, x, Activation::Relu));
    Float logits = g.op(
        {"StatefulPartitionedCall",
         "StatefulPartitionedCall_1",
         {"StatefulPartitionedCall", "statefulpartitionedcall_1_args_1",
          "statefulpartitionedcall_1_args_2"}},
        denseLayer<Ops>(functions.logitsLayer, variables.logits, out.hidden, Activation::None));
    out.probs = g.op({"Softmax", "Softmax", {"StatefulPartitionedCall_1"}}, Ops::softmax(logits));
    g.declare({"Identity", "Identity", {"Softmax"}});
    return out;
}

template <class Ops>
LossActivationsOf<FloatOf<Ops>> loss(Functions& functions, const FloatOf<Ops>& probsIn,
                                     const FloatOf<Ops>& labelsIn, bool clip)
{
    using Float = FloatOf<Ops>;
    FunctionGraph& g = functions.loss;
    const Float& probs = g.op({"Placeholder", "probs"}, probsIn);
    const Float& labels = g.op({"Placeholder", "labels"}, labelsIn);
    LossActivationsOf<Float> a;
    a.neg = g.op({"Neg", "Neg", {"labels"}}, Ops::negate(labels));
    if (!clip) {
        a.log = g.op({"Log", "Log", {"probs"}}, Ops::log(probs));
    } else {
        const Float& high = g.op({"Const", "clip_by_value/Minimum/y"}, Ops::scalar(1.0f));
        a.clippedAbove =
            g.op({"Minimum", "clip_by_value/Minimum", {"probs", "clip_by_value/Minimum/y"}},
                 Ops::minimum(probs, high));
        const Float& low = g.op({"Const", "clip_by_value/y"}, Ops::scalar(1e-6f));
        a.clipped = g.op({"Maximum", "clip_by_value", {"clip_by_value/Minimum", "clip_by_value/y"}},
                         Ops::maximum(a.clippedAbove, low));
        a.log = g.op({"Log", "Log", {"clip_by_value"}}, Ops::log(a.clipped));
    }
    Float terms = g.op({"Mul", "mul", {"Neg", "Log"}}, Ops::multiply(a.neg, a.log));
    g.op({"Const", "Const"}, Ops::constant({2}, {0, 1}));
    a.loss = g.op({"Mean", "Mean", {"mul", "Const"}}, Ops::meanAll(terms));
    g.declare({"Identity", "Identity", {"Mean"}});
    return a;
}

// The host's model, and in the GPU demo the device's.
template FormattedBatch formatExample<HostOps>(Functions&, const UInt8Tensor&, const UInt8Tensor&);
template ModelActivations model<HostOps>(Functions&, const Variables&, const FloatTensor&);
template LossActivations loss<HostOps>(Functions&, const FloatTensor&, const FloatTensor&, bool);
#ifdef NANSCOPE_DEMO_MLP_GPU
template FormattedBatchOf<cuda::GpuFloat>
formatExample<cuda::GpuOps>(Functions&, const cuda::GpuUInt8&, const cuda::GpuUInt8&);
template ModelActivationsOf<cuda::GpuFloat>
model<cuda::GpuOps>(Functions&, const VariablesOf<cuda::GpuFloat>&, const cuda::GpuFloat&);
template LossActivationsOf<cuda::GpuFloat> loss<cuda::GpuOps>(Functions&, const cuda::GpuFloat&,
                                                              const cuda::GpuFloat&, bool);
#endif

} // namespace nanscope::demo
