// SPDX-License-Identifier: Apache-2.0
#include "gpu_math.hpp"

#include "gpu_kernels.hpp"

#include <stdexcept>

namespace nanscope::demo::cuda::math {

namespace {

cudaStream_t stream()
{
    return context().stream;
}

Broadcast broadcastOf(const GpuFloat& x, const GpuFloat& y)
{
    if (y.size() == 1)
        return Broadcast::Scalar;
    if (y.shape == x.shape)
        return Broadcast::Same;
    if (y.shape.size() == 1 && y.shape[0] == x.cols())
        return Broadcast::Row;
    if (y.shape.size() == 2 && y.shape[1] == 1 && y.shape[0] == x.rows())
        return Broadcast::Column;
    throw std::invalid_argument("gpu_math: shapes do not broadcast");
}

std::int64_t count(const GpuFloat& t)
{
    return static_cast<std::int64_t>(t.size());
}

GpuFloat binaryOp(BinaryOp op, const GpuFloat& x, const GpuFloat& y)
{
    GpuFloat out(x.shape);
    binary(op, broadcastOf(x, y), x.data(), y.data(), out.data(), count(x), x.cols(), stream());
    checkLaunch("an element-wise op");
    return out;
}

GpuBool compareOp(CompareOp op, const GpuFloat& x, const GpuFloat& y)
{
    GpuBool out(x.shape);
    compare(op, broadcastOf(x, y), x.data(), y.data(), reinterpret_cast<std::uint8_t*>(out.data()),
            count(x), x.cols(), stream());
    checkLaunch("a comparison");
    return out;
}

GpuFloat unaryOp(UnaryOp op, const GpuFloat& x)
{
    GpuFloat out(x.shape);
    unary(op, x.data(), out.data(), count(x), stream());
    checkLaunch("an element-wise op");
    return out;
}

template <typename T>
GpuTensor<T> copyWithShape(const GpuTensor<T>& t, std::vector<std::int64_t> shape)
{
    GpuTensor<T> out(std::move(shape));
    if (out.size() != t.size())
        throw std::invalid_argument("gpu_math: reshape changes the element count");
    if (out.size() > 0)
        check(cudaMemcpyAsync(out.data(), t.data(), t.size() * sizeof(T), cudaMemcpyDeviceToDevice,
                              stream()),
              "reshaping a tensor");
    return out;
}

// C = op(A) · op(B) for row-major matrices: cuBLAS is column-major, where a row-major matrix
// is its own transpose, so it computes Cᵀ = op(B)ᵀ · op(A)ᵀ.
GpuFloat gemm(const GpuFloat& a, bool transposeA, const GpuFloat& b, bool transposeB)
{
    if (a.shape.size() != 2 || b.shape.size() != 2)
        throw std::invalid_argument("gpu_math: matmul needs matrices");
    const std::int64_t m = transposeA ? a.shape[1] : a.shape[0];
    const std::int64_t k = transposeA ? a.shape[0] : a.shape[1];
    const std::int64_t kb = transposeB ? b.shape[1] : b.shape[0];
    const std::int64_t n = transposeB ? b.shape[0] : b.shape[1];
    if (k != kb)
        throw std::invalid_argument("gpu_math: incompatible matrix shapes");
    GpuFloat c({m, n});
    const float one = 1.0f;
    const float zero = 0.0f;
    check(cublasSgemm(context().blas, transposeB ? CUBLAS_OP_T : CUBLAS_OP_N,
                      transposeA ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(n),
                      static_cast<int>(m), static_cast<int>(k), &one, b.data(),
                      static_cast<int>(b.shape[1]), a.data(), static_cast<int>(a.shape[1]), &zero,
                      c.data(), static_cast<int>(n)),
          "multiplying matrices");
    return c;
}

} // namespace

GpuFloat reshape(const GpuFloat& t, std::vector<std::int64_t> shape)
{
    return copyWithShape(t, std::move(shape));
}

GpuUInt8 reshape(const GpuUInt8& t, std::vector<std::int64_t> shape)
{
    return copyWithShape(t, std::move(shape));
}

GpuFloat castToFloat(const GpuUInt8& t)
{
    GpuFloat out(t.shape);
    cuda::castToFloat(t.data(), out.data(), static_cast<std::int64_t>(t.size()), false, stream());
    checkLaunch("a cast");
    return out;
}

GpuFloat castToFloat(const GpuBool& t)
{
    GpuFloat out(t.shape);
    cuda::castToFloat(reinterpret_cast<const std::uint8_t*>(t.data()), out.data(),
                      static_cast<std::int64_t>(t.size()), true, stream());
    checkLaunch("a cast");
    return out;
}

GpuFloat scalar(float value)
{
    GpuFloat out(std::vector<std::int64_t>{}); // a scalar
    fill(out.data(), 1, value, stream());
    checkLaunch("a constant");
    return out;
}

GpuInt32 constant(std::vector<std::int64_t> shape, const std::vector<std::int32_t>& values)
{
    Tensor<std::int32_t> host;
    host.shape = std::move(shape);
    host.values = values;
    return upload(host);
}

GpuFloat oneHot(const GpuUInt8& indices, int depth, float on, float off)
{
    auto shape = indices.shape;
    shape.push_back(depth);
    GpuFloat out(shape);
    cuda::oneHot(indices.data(), out.data(), static_cast<std::int64_t>(indices.size()), depth, on,
                 off, stream());
    checkLaunch("one-hot encoding");
    return out;
}

GpuFloat matmul(const GpuFloat& a, const GpuFloat& b)
{
    return gemm(a, false, b, false);
}

GpuFloat matmulTransposeA(const GpuFloat& a, const GpuFloat& b)
{
    return gemm(a, true, b, false);
}

GpuFloat matmulTransposeB(const GpuFloat& a, const GpuFloat& b)
{
    return gemm(a, false, b, true);
}

GpuFloat add(const GpuFloat& x, const GpuFloat& y)
{
    return binaryOp(BinaryOp::Add, x, y);
}

GpuFloat subtract(const GpuFloat& x, const GpuFloat& y)
{
    return binaryOp(BinaryOp::Subtract, x, y);
}

GpuFloat multiply(const GpuFloat& x, const GpuFloat& y)
{
    return binaryOp(BinaryOp::Multiply, x, y);
}

GpuFloat divide(const GpuFloat& x, const GpuFloat& y)
{
    return binaryOp(BinaryOp::Divide, x, y);
}

GpuFloat minimum(const GpuFloat& x, const GpuFloat& y)
{
    return binaryOp(BinaryOp::Minimum, x, y);
}

GpuFloat maximum(const GpuFloat& x, const GpuFloat& y)
{
    return binaryOp(BinaryOp::Maximum, x, y);
}

GpuBool greaterEqual(const GpuFloat& x, const GpuFloat& y)
{
    return compareOp(CompareOp::GreaterEqual, x, y);
}

GpuBool lessEqual(const GpuFloat& x, const GpuFloat& y)
{
    return compareOp(CompareOp::LessEqual, x, y);
}

GpuFloat negate(const GpuFloat& x)
{
    return unaryOp(UnaryOp::Negate, x);
}

GpuFloat log(const GpuFloat& x)
{
    return unaryOp(UnaryOp::Log, x);
}

GpuFloat reciprocal(const GpuFloat& x)
{
    return unaryOp(UnaryOp::Reciprocal, x);
}

GpuFloat relu(const GpuFloat& x)
{
    return unaryOp(UnaryOp::Relu, x);
}

GpuFloat reluGrad(const GpuFloat& gradients, const GpuFloat& features)
{
    GpuFloat out(gradients.shape);
    cuda::reluGrad(gradients.data(), features.data(), out.data(), count(gradients), stream());
    checkLaunch("ReluGrad");
    return out;
}

GpuFloat zerosLike(const GpuFloat& x)
{
    GpuFloat out(x.shape);
    fill(out.data(), count(x), 0.0f, stream());
    checkLaunch("ZerosLike");
    return out;
}

GpuFloat select(const GpuBool& condition, const GpuFloat& yes, const GpuFloat& no)
{
    GpuFloat out(yes.shape);
    cuda::select(reinterpret_cast<const std::uint8_t*>(condition.data()), yes.data(), no.data(),
                 out.data(), count(yes), stream());
    checkLaunch("SelectV2");
    return out;
}

GpuFloat softmax(const GpuFloat& logits)
{
    GpuFloat out(logits.shape);
    cuda::softmax(logits.data(), out.data(), logits.rows(), logits.cols(), stream());
    checkLaunch("Softmax");
    return out;
}

GpuFloat meanAll(const GpuFloat& x)
{
    GpuFloat out(std::vector<std::int64_t>{}); // a scalar
    cuda::meanAll(x.data(), out.data(), count(x), stream());
    checkLaunch("Mean");
    return out;
}

GpuFloat sumAxis0(const GpuFloat& x)
{
    GpuFloat out({x.cols()});
    cuda::sumAxis0(x.data(), out.data(), x.rows(), x.cols(), stream());
    checkLaunch("Sum");
    return out;
}

GpuFloat sumLastAxisKeepDims(const GpuFloat& x)
{
    GpuFloat out({x.rows(), 1});
    cuda::sumLastAxis(x.data(), out.data(), x.rows(), x.cols(), stream());
    checkLaunch("Sum");
    return out;
}

GpuFloat tile(const GpuFloat& x, const std::vector<std::int64_t>& shape)
{
    if (x.size() != 1)
        throw std::invalid_argument("gpu_math: tile repeats a one-element tensor");
    GpuFloat out(shape);
    broadcastScalar(out.data(), count(out), x.data(), stream());
    checkLaunch("Tile");
    return out;
}

GpuInt64 argmaxRows(const GpuFloat& x)
{
    GpuInt64 out({x.rows()});
    cuda::argmaxRows(x.data(), out.data(), x.rows(), x.cols(), stream());
    checkLaunch("ArgMax");
    return out;
}

GpuBool equal(const GpuInt64& x, const GpuInt64& y)
{
    GpuBool out(x.shape);
    cuda::equal(x.data(), y.data(), reinterpret_cast<std::uint8_t*>(out.data()),
                static_cast<std::int64_t>(x.size()), stream());
    checkLaunch("Equal");
    return out;
}

} // namespace nanscope::demo::cuda::math
