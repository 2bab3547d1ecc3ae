// SPDX-License-Identifier: Apache-2.0
// The gradient functions TensorFlow's tape builds for loss and model, written out by hand
// with the same ops, so that NaN and infinity spread through them as they do in TensorFlow.
// Written once for both demos over the demo's `Ops` (tensor_math.hpp's HostOps; the GPU demo's
// GpuOps in gpu_math.hpp), so that both declare and trace the same ops in the same order.
//
// An Ops provides the tensor type Float and, as static functions, the primitive ops (besides
// those of mlp.hpp's functions):
//   constant(shape, int32 values), scalar(float), reshape(x, shape), tile(x, shape),
//   multiply, divide, subtract, negate, reciprocal, zerosLike, greaterEqual, lessEqual,
//   select, reluGrad, sumAxis0, sumLastAxisKeepDims, matmulTransposeA, matmulTransposeB
#pragma once

#include "instrumentation.hpp"
#include "mlp.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nanscope::demo {

template <class Float>
struct LossGradientsOf
{
    Float probs;
    Float labels;
};

// The gradients of one dense_layer call; `input` is empty when nothing needs it.
template <class Float>
struct DenseGradientsOf
{
    Float input;
    Float kernel;
    Float bias;
    bool hasInput = false;

    // The outputs of the gradient function's call, in order.
    std::vector<TensorView> views() const
    {
        std::vector<TensorView> outputs;
        if (hasInput)
            outputs.push_back(view(input));
        outputs.push_back(view(kernel));
        outputs.push_back(view(bias));
        return outputs;
    }
};

template <class Float>
struct VariableGradientsOf
{
    DenseGradientsOf<Float> hidden;
    DenseGradientsOf<Float> logits;
};

namespace gradients_detail {

// The outputs of a dense_layer's gradient function, in the order of its forward inputs.
inline void declareDenseOutputs(FunctionGraph& g, bool hasInput)
{
    if (hasInput) {
        g.declare({"Identity", "Identity", {"gradients/MatMul_grad/MatMul"}});
        g.declare({"Identity", "Identity_1", {"gradients/MatMul_grad/MatMul_1"}});
        g.declare({"Identity", "Identity_2", {"gradients/add_grad/Sum"}});
    } else {
        g.declare({"Identity", "Identity", {"gradients/MatMul_grad/MatMul_1"}});
        g.declare({"Identity", "Identity_1", {"gradients/add_grad/Sum"}});
    }
}

// The backward function of one dense_layer: `relu` is the layer's ReLU output (null for the
// layer without activation) and `kernel` its kernel when the input's gradient is needed.
template <class Ops>
DenseGradientsOf<FloatOf<Ops>>
denseLayerBackward(FunctionGraph& g, const FloatOf<Ops>& upstream, const FloatOf<Ops>& input,
                   const FloatOf<Ops>* kernelIn, const FloatOf<Ops>* reluIn)
{
    using Float = FloatOf<Ops>;
    const Float& grad = g.op({"Placeholder", "gradients_grad_ys_0"}, upstream);
    const Float& x = g.op({"Placeholder", "x"}, input);
    const Float* kernel = nullptr;
    if (kernelIn)
        kernel = &g.op({"Placeholder", "matmul_readvariableop"}, *kernelIn);

    // Adding the bias passes the gradient through unchanged; only ReLU changes it.
    Float reluGrad;
    const Float* preactivation = &grad;
    std::string preactivationName = "gradients_grad_ys_0";
    if (reluIn) {
        const Float& relu = g.op({"Placeholder", "relu"}, *reluIn);
        reluGrad =
            g.op({"ReluGrad", "gradients/Relu_grad/ReluGrad", {"gradients_grad_ys_0", "relu"}},
                 Ops::reluGrad(grad, relu));
        preactivation = &reluGrad;
        preactivationName = "gradients/Relu_grad/ReluGrad";
    }

    DenseGradientsOf<Float> out;
    g.op({"Const", "gradients/add_grad/Sum/reduction_indices"}, Ops::constant({1}, {0}));
    out.bias = g.op({"Sum",
                     "gradients/add_grad/Sum",
                     {preactivationName, "gradients/add_grad/Sum/reduction_indices"}},
                    Ops::sumAxis0(*preactivation));
    if (kernel) {
        out.hasInput = true;
        out.input = g.op({"MatMul",
                          "gradients/MatMul_grad/MatMul",
                          {preactivationName, "matmul_readvariableop"}},
                         Ops::matmulTransposeB(*preactivation, *kernel));
    }
    out.kernel = g.op({"MatMul", "gradients/MatMul_grad/MatMul_1", {"x", preactivationName}},
                      Ops::matmulTransposeA(x, *preactivation));
    declareDenseOutputs(g, kernel != nullptr);
    return out;
}

// Mean: the upstream gradient spread evenly over every element of `terms`' shape (the loss's
// mean is over Neg · Log, shaped like Neg).
template <class Ops>
FloatOf<Ops> meanBackward(FunctionGraph& g, const FloatOf<Ops>& grad, const FloatOf<Ops>& terms)
{
    using Float = FloatOf<Ops>;
    g.op({"Const", "gradients/Mean_grad/Reshape/shape"}, Ops::constant({2}, {1, 1}));
    Float reshaped = g.op({"Reshape",
                           "gradients/Mean_grad/Reshape",
                           {"gradients_grad_ys_0", "gradients/Mean_grad/Reshape/shape"}},
                          Ops::reshape(grad, {1, 1}));
    g.op({"Const", "gradients/Mean_grad/Const"},
         Ops::constant({2}, {static_cast<std::int32_t>(terms.rows()),
                             static_cast<std::int32_t>(terms.cols())}));
    Float tiled = g.op({"Tile",
                        "gradients/Mean_grad/Tile",
                        {"gradients/Mean_grad/Reshape", "gradients/Mean_grad/Const"}},
                       Ops::tile(reshaped, terms.shape));
    const Float& count = g.op({"Const", "gradients/Mean_grad/Const_1"},
                              Ops::scalar(static_cast<float>(terms.size())));
    return g.op({"RealDiv",
                 "gradients/Mean_grad/truediv",
                 {"gradients/Mean_grad/Tile", "gradients/Mean_grad/Const_1"}},
                Ops::divide(tiled, count));
}

// clip_by_value = Maximum(Minimum(probs, 1), 1e-6): the gradient `dClipped` passes only where
// neither bound was applied.
template <class Ops>
FloatOf<Ops> clipBackward(FunctionGraph& g, const FloatOf<Ops>& dClipped,
                          const FloatOf<Ops>& clippedAbove, const FloatOf<Ops>& probs)
{
    using Float = FloatOf<Ops>;
    Float zeros =
        g.op({"ZerosLike", "gradients/clip_by_value_grad/zeros_like", {"gradients/Log_grad/mul"}},
             Ops::zerosLike(dClipped));
    const Float& low =
        g.op({"Const", "gradients/clip_by_value_grad/GreaterEqual/y"}, Ops::scalar(1e-6f));
    auto aboveLow = g.op({"GreaterEqual",
                          "gradients/clip_by_value_grad/GreaterEqual",
                          {"clip_by_value_minimum", "gradients/clip_by_value_grad/GreaterEqual/y"}},
                         Ops::greaterEqual(clippedAbove, low));
    Float dClippedAbove =
        g.op({"SelectV2",
              "gradients/clip_by_value_grad/SelectV2",
              {"gradients/clip_by_value_grad/GreaterEqual", "gradients/Log_grad/mul",
               "gradients/clip_by_value_grad/zeros_like"}},
             Ops::select(aboveLow, dClipped, zeros));
    Float zeros1 = g.op({"ZerosLike",
                         "gradients/clip_by_value/Minimum_grad/zeros_like",
                         {"gradients/clip_by_value_grad/SelectV2"}},
                        Ops::zerosLike(dClippedAbove));
    const Float& high =
        g.op({"Const", "gradients/clip_by_value/Minimum_grad/LessEqual/y"}, Ops::scalar(1.0f));
    auto belowHigh = g.op({"LessEqual",
                           "gradients/clip_by_value/Minimum_grad/LessEqual",
                           {"probs", "gradients/clip_by_value/Minimum_grad/LessEqual/y"}},
                          Ops::lessEqual(probs, high));
    return g.op(
        {"SelectV2",
         "gradients/clip_by_value/Minimum_grad/SelectV2",
         {"gradients/clip_by_value/Minimum_grad/LessEqual", "gradients/clip_by_value_grad/SelectV2",
          "gradients/clip_by_value/Minimum_grad/zeros_like"}},
        Ops::select(belowHigh, dClippedAbove, zeros1));
}

// Softmax: (grad - sum(grad · softmax)) · softmax, row by row.
template <class Ops>
FloatOf<Ops> softmaxBackward(FunctionGraph& g, const FloatOf<Ops>& grad,
                             const FloatOf<Ops>& softmax)
{
    using Float = FloatOf<Ops>;
    Float weighted = g.op({"Mul", "gradients/Softmax_grad/mul", {"gradients_grad_ys_0", "softmax"}},
                          Ops::multiply(grad, softmax));
    g.op({"Const", "gradients/Softmax_grad/Sum/reduction_indices"}, Ops::constant({}, {-1}));
    Float sum =
        g.op({"Sum",
              "gradients/Softmax_grad/Sum",
              {"gradients/Softmax_grad/mul", "gradients/Softmax_grad/Sum/reduction_indices"}},
             Ops::sumLastAxisKeepDims(weighted));
    Float centred = g.op({"Sub",
                          "gradients/Softmax_grad/sub",
                          {"gradients_grad_ys_0", "gradients/Softmax_grad/Sum"}},
                         Ops::subtract(grad, sum));
    return g.op({"Mul", "gradients/Softmax_grad/mul_1", {"gradients/Softmax_grad/sub", "softmax"}},
                Ops::multiply(centred, softmax));
}

} // namespace gradients_detail

// __backward_loss: the gradients of the loss with respect to its inputs; `upstream` is the
// scalar gradient of the loss (1) and `a` what the loss computed.
template <class Ops>
LossGradientsOf<FloatOf<Ops>> lossBackward(Functions& functions, const FloatOf<Ops>& upstream,
                                           const FloatOf<Ops>& probsIn,
                                           const LossActivationsOf<FloatOf<Ops>>& a, bool clip)
{
    using Float = FloatOf<Ops>;
    FunctionGraph& g = functions.lossBackward;
    const Float& grad = g.op({"Placeholder", "gradients_grad_ys_0"}, upstream);
    const Float& neg = g.op({"Placeholder", "neg"}, a.neg);
    const Float& log = g.op({"Placeholder", "log"}, a.log);
    const Float& probs = g.op({"Placeholder", "probs"}, probsIn);
    // With the fix, the log reads the clipped probabilities.
    const Float* clippedAbove = nullptr;
    const Float* logInput = &probs;
    std::string logInputName = "probs";
    if (clip) {
        clippedAbove = &g.op({"Placeholder", "clip_by_value_minimum"}, a.clippedAbove);
        logInput = &g.op({"Placeholder", "clip_by_value"}, a.clipped);
        logInputName = "clip_by_value";
    }
    Float dmul = gradients_detail::meanBackward<Ops>(g, grad, neg);

    // mul = Neg · Log: each factor's gradient is the other factor times the upstream one.
    Float dneg = g.op({"Mul", "gradients/mul_grad/Mul", {"gradients/Mean_grad/truediv", "log"}},
                      Ops::multiply(dmul, log));
    Float dlog = g.op({"Mul", "gradients/mul_grad/Mul_1", {"gradients/Mean_grad/truediv", "neg"}},
                      Ops::multiply(dmul, neg));
    LossGradientsOf<Float> out;
    out.labels =
        g.op({"Neg", "gradients/Neg_grad/Neg", {"gradients/mul_grad/Mul"}}, Ops::negate(dneg));

    // Log: d log(u) = du / u, infinite where u is 0.
    Float inverse = g.op({"Reciprocal", "gradients/Log_grad/Reciprocal", {logInputName}},
                         Ops::reciprocal(*logInput));
    Float dLogInput = g.op({"Mul",
                            "gradients/Log_grad/mul",
                            {"gradients/mul_grad/Mul_1", "gradients/Log_grad/Reciprocal"}},
                           Ops::multiply(dlog, inverse));
    std::string probsGradName = "gradients/Log_grad/mul";
    if (clip) {
        dLogInput = gradients_detail::clipBackward<Ops>(g, dLogInput, *clippedAbove, probs);
        probsGradName = "gradients/clip_by_value/Minimum_grad/SelectV2";
    }
    out.probs = std::move(dLogInput);
    g.declare({"Identity", "Identity", {probsGradName}});
    g.declare({"Identity", "Identity_1", {"gradients/Neg_grad/Neg"}});
    return out;
}

// __backward_model: the gradients of the four variables from the gradient of the probs.
template <class Ops>
VariableGradientsOf<FloatOf<Ops>>
modelBackward(Functions& functions, const FloatOf<Ops>& upstream, const FloatOf<Ops>& xIn,
              const ModelActivationsOf<FloatOf<Ops>>& a, const VariablesOf<FloatOf<Ops>>& variables)
{
    using Float = FloatOf<Ops>;
    FunctionGraph& g = functions.modelBackward;
    const Float& grad = g.op({"Placeholder", "gradients_grad_ys_0"}, upstream);
    const Float& softmax = g.op({"Placeholder", "softmax"}, a.probs);
    const Float& x = g.op({"Placeholder", "x"}, xIn);
    const Float& hidden = g.op({"Placeholder", "statefulpartitionedcall"}, a.hidden);
    const Float& kernel = g.op({"Placeholder", "statefulpartitionedcall_1_matmul_readvariableop"},
                               variables.logits.kernel);
    Float dlogits = gradients_detail::softmaxBackward<Ops>(g, grad, softmax);

    // The two dense_layer calls, last first.
    VariableGradientsOf<Float> out;
    out.logits = g.op({"PartitionedCall",
                       "gradients/StatefulPartitionedCall_1_grad/PartitionedCall",
                       {"gradients/Softmax_grad/mul_1", "statefulpartitionedcall",
                        "statefulpartitionedcall_1_matmul_readvariableop"},
                       3},
                      gradients_detail::denseLayerBackward<Ops>(functions.logitsLayerBackward,
                                                                dlogits, hidden, &kernel, nullptr));
    out.hidden = g.op({"PartitionedCall",
                       "gradients/StatefulPartitionedCall_grad/PartitionedCall",
                       {"gradients/StatefulPartitionedCall_1_grad/PartitionedCall", "x",
                        "statefulpartitionedcall"},
                       2},
                      gradients_detail::denseLayerBackward<Ops>(
                          functions.hiddenLayerBackward, out.logits.input, x, nullptr, &hidden));
    g.declare({"Identity", "Identity", {"gradients/StatefulPartitionedCall_grad/PartitionedCall"}});
    g.declare(
        {"Identity", "Identity_1", {"gradients/StatefulPartitionedCall_grad/PartitionedCall:1"}});
    g.declare(
        {"Identity", "Identity_2", {"gradients/StatefulPartitionedCall_1_grad/PartitionedCall:1"}});
    g.declare(
        {"Identity", "Identity_3", {"gradients/StatefulPartitionedCall_1_grad/PartitionedCall:2"}});
    return out;
}

} // namespace nanscope::demo
