// SPDX-License-Identifier: Apache-2.0
#include "mlp_gradients.hpp"

#include "tensor_math.hpp"

#include <string>

namespace nanscope::demo {

namespace {

// The backward function of one dense_layer: `relu` is the layer's ReLU output (null for the
// layer without activation) and `kernel` its kernel when the input's gradient is needed.
DenseGradients denseLayerBackward(FunctionGraph& g, const FloatTensor& upstream,
                                  const FloatTensor& input, const FloatTensor* kernelIn,
                                  const FloatTensor* reluIn)
{
    const FloatTensor& grad = g.op({"Placeholder", "gradients_grad_ys_0"}, upstream);
    const FloatTensor& x = g.op({"Placeholder", "x"}, input);
    const FloatTensor* kernel = nullptr;
    if (kernelIn)
        kernel = &g.op({"Placeholder", "matmul_readvariableop"}, *kernelIn);

    // Adding the bias passes the gradient through unchanged; only ReLU changes it.
    FloatTensor reluGrad;
    const FloatTensor* preactivation = &grad;
    std::string preactivationName = "gradients_grad_ys_0";
    if (reluIn) {
        const FloatTensor& relu = g.op({"Placeholder", "relu"}, *reluIn);
        reluGrad =
            g.op({"ReluGrad", "gradients/Relu_grad/ReluGrad", {"gradients_grad_ys_0", "relu"}},
                 math::reluGrad(grad, relu));
        preactivation = &reluGrad;
        preactivationName = "gradients/Relu_grad/ReluGrad";
    }

    DenseGradients out;
    g.op({"Const", "gradients/add_grad/Sum/reduction_indices"},
         math::constant<std::int32_t>({1}, {0}));
    out.bias = g.op({"Sum",
                     "gradients/add_grad/Sum",
                     {preactivationName, "gradients/add_grad/Sum/reduction_indices"}},
                    math::sumAxis0(*preactivation));
    if (kernel) {
        out.hasInput = true;
        out.input = g.op({"MatMul",
                          "gradients/MatMul_grad/MatMul",
                          {preactivationName, "matmul_readvariableop"}},
                         math::matmulTransposeB(*preactivation, *kernel));
    }
    out.kernel = g.op({"MatMul", "gradients/MatMul_grad/MatMul_1", {"x", preactivationName}},
                      math::matmulTransposeA(x, *preactivation));

    // The outputs, in the order of the forward function's inputs.
    if (kernel) {
        g.declare({"Identity", "Identity", {"gradients/MatMul_grad/MatMul"}});
        g.declare({"Identity", "Identity_1", {"gradients/MatMul_grad/MatMul_1"}});
        g.declare({"Identity", "Identity_2", {"gradients/add_grad/Sum"}});
    } else {
        g.declare({"Identity", "Identity", {"gradients/MatMul_grad/MatMul_1"}});
        g.declare({"Identity", "Identity_1", {"gradients/add_grad/Sum"}});
    }
    return out;
}

} // namespace

std::vector<TensorView> DenseGradients::views() const
{
    std::vector<TensorView> outputs;
    if (hasInput)
        outputs.push_back(view(input));
    outputs.push_back(view(kernel));
    outputs.push_back(view(bias));
    return outputs;
}

LossGradients lossBackward(Functions& functions, const FloatTensor& upstream,
                           const FloatTensor& probsIn, const LossActivations& a, bool clip)
{
    FunctionGraph& g = functions.lossBackward;
    const FloatTensor& grad = g.op({"Placeholder", "gradients_grad_ys_0"}, upstream);
    const FloatTensor& neg = g.op({"Placeholder", "neg"}, a.neg);
    const FloatTensor& log = g.op({"Placeholder", "log"}, a.log);
    const FloatTensor& probs = g.op({"Placeholder", "probs"}, probsIn);
    // With the fix, the log reads the clipped probabilities.
    const FloatTensor* clippedAbove = nullptr;
    const FloatTensor* logInput = &probs;
    std::string logInputName = "probs";
    if (clip) {
        clippedAbove = &g.op({"Placeholder", "clip_by_value_minimum"}, a.clippedAbove);
        logInput = &g.op({"Placeholder", "clip_by_value"}, a.clipped);
        logInputName = "clip_by_value";
    }

    // Mean: the upstream gradient spread evenly over every element.
    const Int32Tensor& shape = g.op({"Const", "gradients/Mean_grad/Reshape/shape"},
                                    math::constant<std::int32_t>({2}, {1, 1}));
    FloatTensor reshaped = g.op({"Reshape",
                                 "gradients/Mean_grad/Reshape",
                                 {"gradients_grad_ys_0", "gradients/Mean_grad/Reshape/shape"}},
                                math::reshape(grad, {shape[0], shape[1]}));
    g.op({"Const", "gradients/Mean_grad/Const"},
         math::constant<std::int32_t>(
             {2}, {static_cast<std::int32_t>(neg.rows()), static_cast<std::int32_t>(neg.cols())}));
    FloatTensor tiled = g.op({"Tile",
                              "gradients/Mean_grad/Tile",
                              {"gradients/Mean_grad/Reshape", "gradients/Mean_grad/Const"}},
                             math::tile(reshaped, neg.shape));
    const FloatTensor& count = g.op({"Const", "gradients/Mean_grad/Const_1"},
                                    math::scalar(static_cast<float>(neg.size())));
    FloatTensor dmul = g.op({"RealDiv",
                             "gradients/Mean_grad/truediv",
                             {"gradients/Mean_grad/Tile", "gradients/Mean_grad/Const_1"}},
                            math::divide(tiled, count));

    // mul = Neg · Log: each factor's gradient is the other factor times the upstream one.
    FloatTensor dneg =
        g.op({"Mul", "gradients/mul_grad/Mul", {"gradients/Mean_grad/truediv", "log"}},
             math::multiply(dmul, log));
    FloatTensor dlog =
        g.op({"Mul", "gradients/mul_grad/Mul_1", {"gradients/Mean_grad/truediv", "neg"}},
             math::multiply(dmul, neg));
    LossGradients out;
    out.labels =
        g.op({"Neg", "gradients/Neg_grad/Neg", {"gradients/mul_grad/Mul"}}, math::negate(dneg));

    // Log: d log(u) = du / u, infinite where u is 0.
    FloatTensor inverse = g.op({"Reciprocal", "gradients/Log_grad/Reciprocal", {logInputName}},
                               math::reciprocal(*logInput));
    FloatTensor dLogInput = g.op({"Mul",
                                  "gradients/Log_grad/mul",
                                  {"gradients/mul_grad/Mul_1", "gradients/Log_grad/Reciprocal"}},
                                 math::multiply(dlog, inverse));
    std::string probsGradName = "gradients/Log_grad/mul";

    if (clip) {
        // clip_by_value = Maximum(Minimum(probs, 1), 1e-6): the gradient passes only where
        // neither bound was applied.
        FloatTensor zeros = g.op(
            {"ZerosLike", "gradients/clip_by_value_grad/zeros_like", {"gradients/Log_grad/mul"}},
            math::zerosLike(dLogInput));
        const FloatTensor& low =
            g.op({"Const", "gradients/clip_by_value_grad/GreaterEqual/y"}, math::scalar(1e-6f));
        BoolTensor aboveLow =
            g.op({"GreaterEqual",
                  "gradients/clip_by_value_grad/GreaterEqual",
                  {"clip_by_value_minimum", "gradients/clip_by_value_grad/GreaterEqual/y"}},
                 math::greaterEqual(*clippedAbove, low));
        FloatTensor dClippedAbove =
            g.op({"SelectV2",
                  "gradients/clip_by_value_grad/SelectV2",
                  {"gradients/clip_by_value_grad/GreaterEqual", "gradients/Log_grad/mul",
                   "gradients/clip_by_value_grad/zeros_like"}},
                 math::select(aboveLow, dLogInput, zeros));
        FloatTensor zeros1 = g.op({"ZerosLike",
                                   "gradients/clip_by_value/Minimum_grad/zeros_like",
                                   {"gradients/clip_by_value_grad/SelectV2"}},
                                  math::zerosLike(dClippedAbove));
        const FloatTensor& high =
            g.op({"Const", "gradients/clip_by_value/Minimum_grad/LessEqual/y"}, math::scalar(1.0f));
        BoolTensor belowHigh = g.op({"LessEqual",
                                     "gradients/clip_by_value/Minimum_grad/LessEqual",
                                     {"probs", "gradients/clip_by_value/Minimum_grad/LessEqual/y"}},
                                    math::lessEqual(probs, high));
        dLogInput = g.op({"SelectV2",
                          "gradients/clip_by_value/Minimum_grad/SelectV2",
                          {"gradients/clip_by_value/Minimum_grad/LessEqual",
                           "gradients/clip_by_value_grad/SelectV2",
                           "gradients/clip_by_value/Minimum_grad/zeros_like"}},
                         math::select(belowHigh, dClippedAbove, zeros1));
        probsGradName = "gradients/clip_by_value/Minimum_grad/SelectV2";
    }
    out.probs = std::move(dLogInput);
    g.declare({"Identity", "Identity", {probsGradName}});
    g.declare({"Identity", "Identity_1", {"gradients/Neg_grad/Neg"}});
    return out;
}

VariableGradients modelBackward(Functions& functions, const FloatTensor& upstream,
                                const FloatTensor& xIn, const ModelActivations& a,
                                const Variables& variables)
{
    FunctionGraph& g = functions.modelBackward;
    const FloatTensor& grad = g.op({"Placeholder", "gradients_grad_ys_0"}, upstream);
    const FloatTensor& softmax = g.op({"Placeholder", "softmax"}, a.probs);
    const FloatTensor& x = g.op({"Placeholder", "x"}, xIn);
    const FloatTensor& hidden = g.op({"Placeholder", "statefulpartitionedcall"}, a.hidden);
    const FloatTensor& kernel =
        g.op({"Placeholder", "statefulpartitionedcall_1_matmul_readvariableop"},
             variables.logits.kernel);

    // Softmax: (grad - sum(grad · softmax)) · softmax, row by row.
    FloatTensor weighted =
        g.op({"Mul", "gradients/Softmax_grad/mul", {"gradients_grad_ys_0", "softmax"}},
             math::multiply(grad, softmax));
    g.op({"Const", "gradients/Softmax_grad/Sum/reduction_indices"}, math::scalar<std::int32_t>(-1));
    FloatTensor sum =
        g.op({"Sum",
              "gradients/Softmax_grad/Sum",
              {"gradients/Softmax_grad/mul", "gradients/Softmax_grad/Sum/reduction_indices"}},
             math::sumLastAxisKeepDims(weighted));
    FloatTensor centred = g.op({"Sub",
                                "gradients/Softmax_grad/sub",
                                {"gradients_grad_ys_0", "gradients/Softmax_grad/Sum"}},
                               math::subtract(grad, sum));
    FloatTensor dlogits =
        g.op({"Mul", "gradients/Softmax_grad/mul_1", {"gradients/Softmax_grad/sub", "softmax"}},
             math::multiply(centred, softmax));

    // The two dense_layer calls, last first.
    VariableGradients out;
    out.logits =
        g.op({"PartitionedCall",
              "gradients/StatefulPartitionedCall_1_grad/PartitionedCall",
              {"gradients/Softmax_grad/mul_1", "statefulpartitionedcall",
               "statefulpartitionedcall_1_matmul_readvariableop"},
              3},
             denseLayerBackward(functions.logitsLayerBackward, dlogits, hidden, &kernel, nullptr));
    out.hidden = g.op(
        {"PartitionedCall",
         "gradients/StatefulPartitionedCall_grad/PartitionedCall",
         {"gradients/StatefulPartitionedCall_1_grad/PartitionedCall", "x",
          "statefulpartitionedcall"},
         2},
        denseLayerBackward(functions.hiddenLayerBackward, out.logits.input, x, nullptr, &hidden));
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
