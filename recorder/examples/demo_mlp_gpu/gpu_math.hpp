// SPDX-License-Identifier: Apache-2.0
// The demo's ops on device tensors, one per TensorFlow op, with the interface of the CPU demo's
// tensor_math.hpp: each launches its kernel (or cuBLAS) on the demo's stream and returns at once.
#pragma once

#include "gpu_tensor.hpp"
#include "primitive_ops.hpp"

#include <cstdint>
#include <vector>

namespace nanscope::demo::cuda::math {

// A copy with another shape (TensorFlow's Reshape gives a new tensor).
GpuFloat reshape(const GpuFloat& t, std::vector<std::int64_t> shape);
GpuUInt8 reshape(const GpuUInt8& t, std::vector<std::int64_t> shape);

GpuFloat castToFloat(const GpuUInt8& t);
GpuFloat castToFloat(const GpuBool& t);
GpuFloat scalar(float value);
GpuInt32 constant(std::vector<std::int64_t> shape, const std::vector<std::int32_t>& values);
GpuFloat oneHot(const GpuUInt8& indices, int depth, float on, float off);

// a·b, aᵀ·b and a·bᵀ with cuBLAS in float32 (no TF32).
GpuFloat matmul(const GpuFloat& a, const GpuFloat& b);
GpuFloat matmulTransposeA(const GpuFloat& a, const GpuFloat& b);
GpuFloat matmulTransposeB(const GpuFloat& a, const GpuFloat& b);

// Element-wise, with a scalar or a last-axis vector broadcast on the right.
GpuFloat add(const GpuFloat& x, const GpuFloat& y);
GpuFloat subtract(const GpuFloat& x, const GpuFloat& y);
GpuFloat multiply(const GpuFloat& x, const GpuFloat& y);
GpuFloat divide(const GpuFloat& x, const GpuFloat& y);
GpuFloat minimum(const GpuFloat& x, const GpuFloat& y);
GpuFloat maximum(const GpuFloat& x, const GpuFloat& y);
GpuBool greaterEqual(const GpuFloat& x, const GpuFloat& y);
GpuBool lessEqual(const GpuFloat& x, const GpuFloat& y);

GpuFloat negate(const GpuFloat& x);
GpuFloat log(const GpuFloat& x);
GpuFloat reciprocal(const GpuFloat& x);
GpuFloat relu(const GpuFloat& x);
GpuFloat reluGrad(const GpuFloat& gradients, const GpuFloat& features);
GpuFloat zerosLike(const GpuFloat& x);
GpuFloat select(const GpuBool& condition, const GpuFloat& yes, const GpuFloat& no);

GpuFloat softmax(const GpuFloat& logits);
GpuFloat meanAll(const GpuFloat& x);
GpuFloat sumAxis0(const GpuFloat& x);
GpuFloat sumLastAxisKeepDims(const GpuFloat& x);
GpuFloat tile(const GpuFloat& x, const std::vector<std::int64_t>& shape);

GpuInt64 argmaxRows(const GpuFloat& x);
GpuBool equal(const GpuInt64& x, const GpuInt64& y);

} // namespace nanscope::demo::cuda::math

namespace nanscope::demo::cuda {

// The device math as the model's templates take it (mlp.hpp, mlp_gradients.hpp): the tensor type
// and the primitive ops, with the signatures both demos share.
struct GpuOps
{
    using Float = GpuFloat;
    using UInt8 = GpuUInt8;

    static GpuInt32 constant(const std::vector<std::int64_t>& shape,
                             const std::vector<std::int32_t>& values)
    {
        return math::constant(shape, values);
    }
    static GpuFloat scalar(float value) { return math::scalar(value); }
    template <typename T>
    static GpuTensor<T> reshape(const GpuTensor<T>& t, const std::vector<std::int64_t>& shape)
    {
        return math::reshape(t, shape);
    }
    static GpuFloat castToFloat(const GpuUInt8& t) { return math::castToFloat(t); }
    NANSCOPE_DEMO_PRIMITIVE_OPS(NANSCOPE_DEMO_BIND_MATH_OP)
};

} // namespace nanscope::demo::cuda
