// SPDX-License-Identifier: Apache-2.0
// The kernels of the demo's graphs, one per TensorFlow op it imitates, with TensorFlow's
// float32 semantics: nothing skips zeros or special-cases non-finite values, so NaN and
// infinity flow through exactly as they do in TensorFlow's CPU kernels.
#pragma once

#include "primitive_ops.hpp"
#include "tensor.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace nanscope::demo::math {

// Shapes only; the values are reused.
template <typename T>
Tensor<T> reshape(Tensor<T> t, const std::vector<std::int64_t>& shape)
{
    t.shape = shape;
    return t;
}

template <typename To, typename From>
Tensor<To> cast(const Tensor<From>& t)
{
    Tensor<To> out(t.shape);
    for (std::size_t i = 0; i < t.size(); ++i)
        out[i] = static_cast<To>(t[i]);
    return out;
}

inline FloatTensor castToFloat(const BoolTensor& t)
{
    FloatTensor out(t.shape);
    for (std::size_t i = 0; i < t.size(); ++i)
        out[i] = t[i] == Bool::True ? 1.0f : 0.0f;
    return out;
}

template <typename T>
Tensor<T> scalar(T value)
{
    return Tensor<T>({}, value);
}

template <typename T>
Tensor<T> constant(const std::vector<std::int64_t>& shape, std::vector<T> values)
{
    Tensor<T> t;
    t.shape = shape;
    t.values = std::move(values);
    return t;
}

FloatTensor oneHot(const UInt8Tensor& indices, std::int32_t depth, float on, float off);

// Matrix products of rank-2 tensors: a·b, aᵀ·b and a·bᵀ (MatMul with transpose attributes).
FloatTensor matmul(const FloatTensor& a, const FloatTensor& b);
FloatTensor matmulTransposeA(const FloatTensor& a, const FloatTensor& b);
FloatTensor matmulTransposeB(const FloatTensor& a, const FloatTensor& b);

// Element-wise, with a scalar or a last-axis vector broadcast on the right as TensorFlow does.
FloatTensor add(const FloatTensor& x, const FloatTensor& y);
FloatTensor subtract(const FloatTensor& x, const FloatTensor& y);
FloatTensor multiply(const FloatTensor& x, const FloatTensor& y);
FloatTensor divide(const FloatTensor& x, const FloatTensor& y);
FloatTensor minimum(const FloatTensor& x, const FloatTensor& y);
FloatTensor maximum(const FloatTensor& x, const FloatTensor& y);
BoolTensor greaterEqual(const FloatTensor& x, const FloatTensor& y);
BoolTensor lessEqual(const FloatTensor& x, const FloatTensor& y);

FloatTensor negate(const FloatTensor& x);
FloatTensor log(const FloatTensor& x);
FloatTensor reciprocal(const FloatTensor& x);
FloatTensor relu(const FloatTensor& x);
FloatTensor reluGrad(const FloatTensor& gradients, const FloatTensor& features);
FloatTensor zerosLike(const FloatTensor& x);
FloatTensor select(const BoolTensor& condition, const FloatTensor& yes, const FloatTensor& no);

// Softmax over the last axis, computed as TensorFlow's CPU kernel does.
FloatTensor softmax(const FloatTensor& logits);

// Reductions: over every element, over axis 0 of a matrix, over the last axis (kept as 1).
FloatTensor meanAll(const FloatTensor& x);
FloatTensor sumAxis0(const FloatTensor& x);
FloatTensor sumLastAxisKeepDims(const FloatTensor& x);

// Repeats a tensor of ones-only dimensions to `shape` (Tile of a reshaped scalar).
FloatTensor tile(const FloatTensor& x, const std::vector<std::int64_t>& shape);

// Index of the largest element of each row; comparisons with NaN are false, as in Eigen's
// reducer, so a row of NaN gives 0.
Int64Tensor argmaxRows(const FloatTensor& x);
BoolTensor equal(const Int64Tensor& x, const Int64Tensor& y);

} // namespace nanscope::demo::math

namespace nanscope::demo {

// The host math as the model's templates take it (mlp.hpp, mlp_gradients.hpp): the tensor type and
// the primitive ops, with the signatures both demos share.
struct HostOps
{
    using Float = FloatTensor;
    using UInt8 = UInt8Tensor;

    static Int32Tensor constant(const std::vector<std::int64_t>& shape,
                                std::vector<std::int32_t> values)
    {
        return math::constant<std::int32_t>(shape, std::move(values));
    }
    static FloatTensor scalar(float value) { return math::scalar(value); }
    template <typename T>
    static Tensor<T> reshape(const Tensor<T>& t, const std::vector<std::int64_t>& shape)
    {
        return math::reshape(t, shape);
    }
    static FloatTensor castToFloat(const UInt8Tensor& t) { return math::cast<float>(t); }
    NANSCOPE_DEMO_PRIMITIVE_OPS(NANSCOPE_DEMO_BIND_MATH_OP)
};

} // namespace nanscope::demo
