// SPDX-License-Identifier: Apache-2.0
#include "gpu_gradients.hpp"

#include "gpu_math.hpp"
#include "gpu_ops.hpp"

#include <string>

namespace nanscope::demo::cuda {

namespace {

// The backward function of one dense_layer: `relu` is the layer's ReLU output (null for the
// layer without activation) and `kernel` its kernel when the input's gradient is needed.
GpuDenseGradients denseLayerBackward(FunctionGraph& g, const GpuFloat& upstream,
                                     const GpuFloat& input, const GpuFloat* kernelIn,
                                     const GpuFloat* reluIn)
{
    const GpuFloat& grad = op(g, {"Placeholder", "gradients_grad_ys_0"}, upstream);
    const GpuFloat& x = op(g, {"Placeholder", "x"}, input);
    const GpuFloat* kernel = nullptr;
    if (kernelIn)
        kernel = &op(g, {"Placeholder", "matmul_readvariableop"}, *kernelIn);

    // Adding the bias passes the gradient through unchanged; only ReLU changes it.
    GpuFloat reluGrad;
    const GpuFloat* preactivation = &grad;
    std::string preactivationName = "gradients_grad_ys_0";
    if (reluIn) {
        const GpuFloat& relu = op(g, {"Placeholder", "relu"}, *reluIn);
        reluGrad =
            op(g, {"ReluGrad", "gradients/Relu_grad/ReluGrad", {"gradients_grad_ys_0", "relu"}},
               math::reluGrad(grad, relu));
        preactivation = &reluGrad;
        preactivationName = "gradients/Relu_grad/ReluGrad";
    }

    GpuDenseGradients out;
    op(g, {"Const", "gradients/add_grad/Sum/reduction_indices"}, math::constant({1}, {0}));
    out.bias = op(g,
                  {"Sum",
                   "gradients/add_grad/Sum",
                   {preactivationName, "gradients/add_grad/Sum/reduction_indices"}},
                  math::sumAxis0(*preactivation));
    if (kernel) {
        out.hasInput = true;
        out.input = op(g,
                       {"MatMul",
                        "gradients/MatMul_grad/MatMul",
                        {preactivationName, "matmul_readvariableop"}},
                       math::matmulTransposeB(*preactivation, *kernel));
    }
    out.kernel = op(g, {"MatMul", "gradients/MatMul_grad/MatMul_1", {"x", preactivationName}},
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

std::vector<TensorView> GpuDenseGradients::views() const
{
    std::vector<TensorView> outputs;
    if (hasInput)
        outputs.push_back(view(input));
    outputs.push_back(view(kernel));
    outputs.push_back(view(bias));
    return outputs;
}

GpuLossGradients lossBackward(Functions& functions, const GpuFloat& upstream,
                              const GpuFloat& probsIn, const GpuLossActivations& a, bool clip)
{
    FunctionGraph& g = functions.lossBackward;
    const GpuFloat& grad = op(g, {"Placeholder", "gradients_grad_ys_0"}, upstream);
    const GpuFloat& neg = op(g, {"Placeholder", "neg"}, a.neg);
    const GpuFloat& log = op(g, {"Placeholder", "log"}, a.log);
    const GpuFloat& probs = op(g, {"Placeholder", "probs"}, probsIn);
    // With the fix, the log reads the clipped probabilities.
    const GpuFloat* clippedAbove = nullptr;
    const GpuFloat* logInput = &probs;
    std::string logInputName = "probs";
    if (clip) {
        clippedAbove = &op(g, {"Placeholder", "clip_by_value_minimum"}, a.clippedAbove);
        logInput = &op(g, {"Placeholder", "clip_by_value"}, a.clipped);
        logInputName = "clip_by_value";
    }

    // Mean: the upstream gradient spread evenly over every element.
    op(g, {"Const", "gradients/Mean_grad/Reshape/shape"}, math::constant({2}, {1, 1}));
    GpuFloat reshaped = op(g,
                           {"Reshape",
                            "gradients/Mean_grad/Reshape",
                            {"gradients_grad_ys_0", "gradients/Mean_grad/Reshape/shape"}},
                           math::reshape(grad, {1, 1}));
    op(g, {"Const", "gradients/Mean_grad/Const"},
       math::constant(
           {2}, {static_cast<std::int32_t>(neg.rows()), static_cast<std::int32_t>(neg.cols())}));
    GpuFloat tiled = op(g,
                        {"Tile",
                         "gradients/Mean_grad/Tile",
                         {"gradients/Mean_grad/Reshape", "gradients/Mean_grad/Const"}},
                        math::tile(reshaped, neg.shape));
    const GpuFloat& count = op(g, {"Const", "gradients/Mean_grad/Const_1"},
                               math::scalar(static_cast<float>(neg.size())));
    GpuFloat dmul = op(g,
                       {"RealDiv",
                        "gradients/Mean_grad/truediv",
                        {"gradients/Mean_grad/Tile", "gradients/Mean_grad/Const_1"}},
                       math::divide(tiled, count));

    // mul = Neg · Log: each factor's gradient is the other factor times the upstream one.
    GpuFloat dneg = op(g, {"Mul", "gradients/mul_grad/Mul", {"gradients/Mean_grad/truediv", "log"}},
                       math::multiply(dmul, log));
    GpuFloat dlog =
        op(g, {"Mul", "gradients/mul_grad/Mul_1", {"gradients/Mean_grad/truediv", "neg"}},
           math::multiply(dmul, neg));
    GpuLossGradients out;
    out.labels =
        op(g, {"Neg", "gradients/Neg_grad/Neg", {"gradients/mul_grad/Mul"}}, math::negate(dneg));

    // Log: d log(u) = du / u, infinite where u is 0.
    GpuFloat inverse = op(g, {"Reciprocal", "gradients/Log_grad/Reciprocal", {logInputName}},
                          math::reciprocal(*logInput));
    GpuFloat dLogInput = op(g,
                            {"Mul",
                             "gradients/Log_grad/mul",
                             {"gradients/mul_grad/Mul_1", "gradients/Log_grad/Reciprocal"}},
                            math::multiply(dlog, inverse));
    std::string probsGradName = "gradients/Log_grad/mul";

    if (clip) {
        // clip_by_value = Maximum(Minimum(probs, 1), 1e-6): the gradient passes only where
        // neither bound was applied.
        GpuFloat zeros = op(
            g, {"ZerosLike", "gradients/clip_by_value_grad/zeros_like", {"gradients/Log_grad/mul"}},
            math::zerosLike(dLogInput));
        const GpuFloat& low =
            op(g, {"Const", "gradients/clip_by_value_grad/GreaterEqual/y"}, math::scalar(1e-6f));
        GpuBool aboveLow =
            op(g,
               {"GreaterEqual",
                "gradients/clip_by_value_grad/GreaterEqual",
                {"clip_by_value_minimum", "gradients/clip_by_value_grad/GreaterEqual/y"}},
               math::greaterEqual(*clippedAbove, low));
        GpuFloat dClippedAbove =
            op(g,
               {"SelectV2",
                "gradients/clip_by_value_grad/SelectV2",
                {"gradients/clip_by_value_grad/GreaterEqual", "gradients/Log_grad/mul",
                 "gradients/clip_by_value_grad/zeros_like"}},
               math::select(aboveLow, dLogInput, zeros));
        GpuFloat zeros1 = op(g,
                             {"ZerosLike",
                              "gradients/clip_by_value/Minimum_grad/zeros_like",
                              {"gradients/clip_by_value_grad/SelectV2"}},
                             math::zerosLike(dClippedAbove));
        const GpuFloat& high = op(g, {"Const", "gradients/clip_by_value/Minimum_grad/LessEqual/y"},
                                  math::scalar(1.0f));
        GpuBool belowHigh = op(g,
                               {"LessEqual",
                                "gradients/clip_by_value/Minimum_grad/LessEqual",
                                {"probs", "gradients/clip_by_value/Minimum_grad/LessEqual/y"}},
                               math::lessEqual(probs, high));
        dLogInput = op(g,
                       {"SelectV2",
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

GpuVariableGradients modelBackward(Functions& functions, const GpuFloat& upstream,
                                   const GpuFloat& xIn, const GpuModelActivations& a,
                                   const GpuVariables& variables)
{
    FunctionGraph& g = functions.modelBackward;
    const GpuFloat& grad = op(g, {"Placeholder", "gradients_grad_ys_0"}, upstream);
    const GpuFloat& softmax = op(g, {"Placeholder", "softmax"}, a.probs);
    const GpuFloat& x = op(g, {"Placeholder", "x"}, xIn);
    const GpuFloat& hidden = op(g, {"Placeholder", "statefulpartitionedcall"}, a.hidden);
    const GpuFloat& kernel =
        op(g, {"Placeholder", "statefulpartitionedcall_1_matmul_readvariableop"},
           variables.logits.kernel);

    // Softmax: (grad - sum(grad · softmax)) · softmax, row by row.
    GpuFloat weighted =
        op(g, {"Mul", "gradients/Softmax_grad/mul", {"gradients_grad_ys_0", "softmax"}},
           math::multiply(grad, softmax));
    op(g, {"Const", "gradients/Softmax_grad/Sum/reduction_indices"}, math::constant({}, {-1}));
    GpuFloat sum =
        op(g,
           {"Sum",
            "gradients/Softmax_grad/Sum",
            {"gradients/Softmax_grad/mul", "gradients/Softmax_grad/Sum/reduction_indices"}},
           math::sumLastAxisKeepDims(weighted));
    GpuFloat centred = op(g,
                          {"Sub",
                           "gradients/Softmax_grad/sub",
                           {"gradients_grad_ys_0", "gradients/Softmax_grad/Sum"}},
                          math::subtract(grad, sum));
    GpuFloat dlogits =
        op(g, {"Mul", "gradients/Softmax_grad/mul_1", {"gradients/Softmax_grad/sub", "softmax"}},
           math::multiply(centred, softmax));

    // The two dense_layer calls, last first.
    GpuVariableGradients out;
    out.logits =
        op(g,
           {"PartitionedCall",
            "gradients/StatefulPartitionedCall_1_grad/PartitionedCall",
            {"gradients/Softmax_grad/mul_1", "statefulpartitionedcall",
             "statefulpartitionedcall_1_matmul_readvariableop"},
            3},
           denseLayerBackward(functions.logitsLayerBackward, dlogits, hidden, &kernel, nullptr));
    out.hidden = op(
        g,
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

} // namespace nanscope::demo::cuda
