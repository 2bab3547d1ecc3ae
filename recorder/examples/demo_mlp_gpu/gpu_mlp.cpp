// SPDX-License-Identifier: Apache-2.0
#include "gpu_mlp.hpp"

#include "dataset.hpp"
#include "gpu_math.hpp"
#include "gpu_ops.hpp"

namespace nanscope::demo::cuda {

namespace {

enum class Activation { Relu, None };

// dense_layer(weights, x, act): act(x @ kernel + bias), one graph per activation.
GpuFloat denseLayer(FunctionGraph& g, const GpuDenseWeights& weights, const GpuFloat& input,
                    Activation activation)
{
    const GpuFloat& x = op(g, {"Placeholder", "x"}, input);
    g.declare({"Placeholder", "matmul_readvariableop_resource"});
    g.declare({"Placeholder", "add_readvariableop_resource"});
    const GpuFloat& kernel =
        op(g, {"ReadVariableOp", "MatMul/ReadVariableOp", {"matmul_readvariableop_resource"}},
           weights.kernel);
    GpuFloat product =
        op(g, {"MatMul", "MatMul", {"x", "MatMul/ReadVariableOp"}}, math::matmul(x, kernel));
    const GpuFloat& bias = op(
        g, {"ReadVariableOp", "add/ReadVariableOp", {"add_readvariableop_resource"}}, weights.bias);
    GpuFloat preactivation =
        op(g, {"AddV2", "add", {"MatMul", "add/ReadVariableOp"}}, math::add(product, bias));
    if (activation == Activation::None) {
        g.declare({"Identity", "Identity", {"add"}});
        return preactivation;
    }
    GpuFloat activations = op(g, {"Relu", "Relu", {"add"}}, math::relu(preactivation));
    g.declare({"Identity", "Identity", {"Relu"}});
    return activations;
}

} // namespace

GpuVariables uploadVariables(const Variables& variables)
{
    return {{upload(variables.hidden.kernel), upload(variables.hidden.bias)},
            {upload(variables.logits.kernel), upload(variables.logits.bias)}};
}

GpuFormattedBatch formatExample(Functions& functions, const GpuUInt8& imagesIn,
                                const GpuUInt8& labelsIn)
{
    FunctionGraph& g = functions.formatExample;
    const GpuUInt8& images = op(g, {"Placeholder", "imgs"}, imagesIn);
    const GpuUInt8& labels = op(g, {"Placeholder", "labels"}, labelsIn);
    const auto pixels = static_cast<std::int32_t>(kImagePixels);
    op(g, {"Const", "Reshape/shape"}, math::constant({2}, {-1, pixels}));
    GpuUInt8 flat = op(g, {"Reshape", "Reshape", {"imgs", "Reshape/shape"}},
                       math::reshape(images, {images.rows(), kImagePixels}));
    GpuFloat values = op(g, {"Cast", "Cast", {"Reshape"}}, math::castToFloat(flat));
    const GpuFloat& scale = op(g, {"Const", "truediv/y"}, math::scalar(255.0f));
    GpuFormattedBatch out;
    out.images = op(g, {"RealDiv", "truediv", {"Cast", "truediv/y"}}, math::divide(values, scale));
    op(g, {"Const", "one_hot/depth"}, math::constant({}, {kClasses}));
    op(g, {"Const", "one_hot/on_value"}, math::scalar(1.0f));
    op(g, {"Const", "one_hot/off_value"}, math::scalar(0.0f));
    out.labels = op(
        g,
        {"OneHot", "one_hot", {"labels", "one_hot/depth", "one_hot/on_value", "one_hot/off_value"}},
        math::oneHot(labels, kClasses, 1.0f, 0.0f));
    g.declare({"Identity", "Identity", {"truediv"}});
    g.declare({"Identity", "Identity_1", {"one_hot"}});
    return out;
}

GpuModelActivations model(Functions& functions, const GpuVariables& variables,
                          const GpuFloat& input)
{
    FunctionGraph& g = functions.model;
    const GpuFloat& x = op(g, {"Placeholder", "x"}, input);
    // The captured variables, passed on to the dense_layer calls.
    g.declare({"Placeholder", "statefulpartitionedcall_args_1"});
    g.declare({"Placeholder", "statefulpartitionedcall_args_2"});
    g.declare({"Placeholder", "statefulpartitionedcall_1_args_1"});
    g.declare({"Placeholder", "statefulpartitionedcall_1_args_2"});
    GpuModelActivations out;
    out.hidden = op(g,
                    {"StatefulPartitionedCall",
                     "StatefulPartitionedCall",
                     {"x", "statefulpartitionedcall_args_1", "statefulpartitionedcall_args_2"}},
                    denseLayer(functions.hiddenLayer, variables.hidden, x, Activation::Relu));
    GpuFloat logits =
        op(g,
           {"StatefulPartitionedCall",
            "StatefulPartitionedCall_1",
            {"StatefulPartitionedCall", "statefulpartitionedcall_1_args_1",
             "statefulpartitionedcall_1_args_2"}},
           denseLayer(functions.logitsLayer, variables.logits, out.hidden, Activation::None));
    out.probs = op(g, {"Softmax", "Softmax", {"StatefulPartitionedCall_1"}}, math::softmax(logits));
    g.declare({"Identity", "Identity", {"Softmax"}});
    return out;
}

GpuLossActivations loss(Functions& functions, const GpuFloat& probsIn, const GpuFloat& labelsIn,
                        bool clip)
{
    FunctionGraph& g = functions.loss;
    const GpuFloat& probs = op(g, {"Placeholder", "probs"}, probsIn);
    const GpuFloat& labels = op(g, {"Placeholder", "labels"}, labelsIn);
    GpuLossActivations a;
    a.neg = op(g, {"Neg", "Neg", {"labels"}}, math::negate(labels));
    if (!clip) {
        a.log = op(g, {"Log", "Log", {"probs"}}, math::log(probs));
    } else {
        const GpuFloat& high = op(g, {"Const", "clip_by_value/Minimum/y"}, math::scalar(1.0f));
        a.clippedAbove =
            op(g, {"Minimum", "clip_by_value/Minimum", {"probs", "clip_by_value/Minimum/y"}},
               math::minimum(probs, high));
        const GpuFloat& low = op(g, {"Const", "clip_by_value/y"}, math::scalar(1e-6f));
        a.clipped =
            op(g, {"Maximum", "clip_by_value", {"clip_by_value/Minimum", "clip_by_value/y"}},
               math::maximum(a.clippedAbove, low));
        a.log = op(g, {"Log", "Log", {"clip_by_value"}}, math::log(a.clipped));
    }
    GpuFloat terms = op(g, {"Mul", "mul", {"Neg", "Log"}}, math::multiply(a.neg, a.log));
    op(g, {"Const", "Const"}, math::constant({2}, {0, 1}));
    a.loss = op(g, {"Mean", "Mean", {"mul", "Const"}}, math::meanAll(terms));
    g.declare({"Identity", "Identity", {"Mean"}});
    return a;
}

} // namespace nanscope::demo::cuda
