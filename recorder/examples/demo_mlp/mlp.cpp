// SPDX-License-Identifier: Apache-2.0
#include "mlp.hpp"

#include "dataset.hpp"
#include "random.hpp"
#include "tensor_math.hpp"

namespace nanscope::demo {

namespace {

constexpr std::int64_t kHiddenUnits = 500;

enum class Activation { Relu, None };

// dense_layer(weights, x, act): act(x @ kernel + bias), one graph per activation.
FloatTensor denseLayer(FunctionGraph& g, const DenseWeights& weights, const FloatTensor& input,
                       Activation activation)
{
    const FloatTensor& x = g.op({"Placeholder", "x"}, input);
    g.declare({"Placeholder", "matmul_readvariableop_resource"});
    g.declare({"Placeholder", "add_readvariableop_resource"});
    const FloatTensor& kernel =
        g.op({"ReadVariableOp", "MatMul/ReadVariableOp", {"matmul_readvariableop_resource"}},
             weights.kernel);
    FloatTensor product =
        g.op({"MatMul", "MatMul", {"x", "MatMul/ReadVariableOp"}}, math::matmul(x, kernel));
    const FloatTensor& bias = g.op(
        {"ReadVariableOp", "add/ReadVariableOp", {"add_readvariableop_resource"}}, weights.bias);
    FloatTensor preactivation =
        g.op({"AddV2", "add", {"MatMul", "add/ReadVariableOp"}}, math::add(product, bias));
    if (activation == Activation::None) {
        g.declare({"Identity", "Identity", {"add"}});
        return preactivation;
    }
    FloatTensor activations = g.op({"Relu", "Relu", {"add"}}, math::relu(preactivation));
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

FormattedBatch formatExample(Functions& functions, const UInt8Tensor& imagesIn,
                             const UInt8Tensor& labelsIn)
{
    FunctionGraph& g = functions.formatExample;
    const UInt8Tensor& images = g.op({"Placeholder", "imgs"}, imagesIn);
    const UInt8Tensor& labels = g.op({"Placeholder", "labels"}, labelsIn);
    const Int32Tensor& shape =
        g.op({"Const", "Reshape/shape"},
             math::constant<std::int32_t>({2}, {-1, static_cast<std::int32_t>(kImagePixels)}));
    UInt8Tensor flat = g.op({"Reshape", "Reshape", {"imgs", "Reshape/shape"}},
                            math::reshape(images, {images.rows(), shape[1]}));
    FloatTensor pixels = g.op({"Cast", "Cast", {"Reshape"}}, math::cast<float>(flat));
    const FloatTensor& scale = g.op({"Const", "truediv/y"}, math::scalar(255.0f));
    FormattedBatch out;
    out.images = g.op({"RealDiv", "truediv", {"Cast", "truediv/y"}}, math::divide(pixels, scale));
    const Int32Tensor& depth = g.op({"Const", "one_hot/depth"}, math::scalar(kClasses));
    const FloatTensor& on = g.op({"Const", "one_hot/on_value"}, math::scalar(1.0f));
    const FloatTensor& off = g.op({"Const", "one_hot/off_value"}, math::scalar(0.0f));
    out.labels = g.op(
        {"OneHot", "one_hot", {"labels", "one_hot/depth", "one_hot/on_value", "one_hot/off_value"}},
        math::oneHot(labels, depth[0], on[0], off[0]));
    g.declare({"Identity", "Identity", {"truediv"}});
    g.declare({"Identity", "Identity_1", {"one_hot"}});
    return out;
}

ModelActivations model(Functions& functions, const Variables& variables, const FloatTensor& input)
{
    FunctionGraph& g = functions.model;
    const FloatTensor& x = g.op({"Placeholder", "x"}, input);
    // The captured variables, passed on to the dense_layer calls.
    g.declare({"Placeholder", "statefulpartitionedcall_args_1"});
    g.declare({"Placeholder", "statefulpartitionedcall_args_2"});
    g.declare({"Placeholder", "statefulpartitionedcall_1_args_1"});
    g.declare({"Placeholder", "statefulpartitionedcall_1_args_2"});
    ModelActivations out;
    out.hidden = g.op({"StatefulPartitionedCall",
                       "StatefulPartitionedCall",
                       {"x", "statefulpartitionedcall_args_1", "statefulpartitionedcall_args_2"}},
                      denseLayer(functions.hiddenLayer, variables.hidden, x, Activation::Relu));
    FloatTensor logits =
        g.op({"StatefulPartitionedCall",
              "StatefulPartitionedCall_1",
              {"StatefulPartitionedCall", "statefulpartitionedcall_1_args_1",
               "statefulpartitionedcall_1_args_2"}},
             denseLayer(functions.logitsLayer, variables.logits, out.hidden, Activation::None));
    out.probs = g.op({"Softmax", "Softmax", {"StatefulPartitionedCall_1"}}, math::softmax(logits));
    g.declare({"Identity", "Identity", {"Softmax"}});
    return out;
}

LossActivations loss(Functions& functions, const FloatTensor& probsIn, const FloatTensor& labelsIn,
                     bool clip)
{
    FunctionGraph& g = functions.loss;
    const FloatTensor& probs = g.op({"Placeholder", "probs"}, probsIn);
    const FloatTensor& labels = g.op({"Placeholder", "labels"}, labelsIn);
    LossActivations a;
    a.neg = g.op({"Neg", "Neg", {"labels"}}, math::negate(labels));
    if (!clip) {
        a.log = g.op({"Log", "Log", {"probs"}}, math::log(probs));
    } else {
        const FloatTensor& high = g.op({"Const", "clip_by_value/Minimum/y"}, math::scalar(1.0f));
        a.clippedAbove =
            g.op({"Minimum", "clip_by_value/Minimum", {"probs", "clip_by_value/Minimum/y"}},
                 math::minimum(probs, high));
        const FloatTensor& low = g.op({"Const", "clip_by_value/y"}, math::scalar(1e-6f));
        a.clipped = g.op({"Maximum", "clip_by_value", {"clip_by_value/Minimum", "clip_by_value/y"}},
                         math::maximum(a.clippedAbove, low));
        a.log = g.op({"Log", "Log", {"clip_by_value"}}, math::log(a.clipped));
    }
    FloatTensor terms = g.op({"Mul", "mul", {"Neg", "Log"}}, math::multiply(a.neg, a.log));
    g.op({"Const", "Const"}, math::constant<std::int32_t>({2}, {0, 1}));
    a.loss = g.op({"Mean", "Mean", {"mul", "Const"}}, math::meanAll(terms));
    g.declare({"Identity", "Identity", {"Mean"}});
    return a;
}

} // namespace nanscope::demo
