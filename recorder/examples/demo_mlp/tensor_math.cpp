// SPDX-License-Identifier: Apache-2.0
#include "tensor_math.hpp"

#include <cassert>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace nanscope::demo::math {

namespace {

// How the right operand of an element-wise op lines up with the left one.
enum class Broadcast { Same, Scalar, Row, Column };

Broadcast broadcastOf(const FloatTensor& x, const FloatTensor& y)
{
    if (y.size() == 1)
        return Broadcast::Scalar;
    if (y.shape == x.shape)
        return Broadcast::Same;
    if (y.shape.size() == 1 && y.shape[0] == x.cols())
        return Broadcast::Row;
    if (y.shape.size() == 2 && y.shape[1] == 1 && y.shape[0] == x.rows())
        return Broadcast::Column;
    throw std::invalid_argument("tensor_math: shapes do not broadcast");
}

template <typename Out, typename F>
Tensor<Out> binary(const FloatTensor& x, const FloatTensor& y, F f)
{
    Tensor<Out> out(x.shape);
    const std::size_t n = x.size();
    const auto cols = static_cast<std::size_t>(x.cols());
    switch (broadcastOf(x, y)) {
    case Broadcast::Same:
        for (std::size_t i = 0; i < n; ++i)
            out[i] = f(x[i], y[i]);
        break;
    case Broadcast::Scalar: {
        const float s = y[0];
        for (std::size_t i = 0; i < n; ++i)
            out[i] = f(x[i], s);
        break;
    }
    case Broadcast::Row:
        for (std::size_t i = 0; i < n; i += cols)
            for (std::size_t j = 0; j < cols; ++j)
                out[i + j] = f(x[i + j], y[j]);
        break;
    case Broadcast::Column:
        for (std::size_t i = 0; i < n; i += cols)
            for (std::size_t j = 0; j < cols; ++j)
                out[i + j] = f(x[i + j], y[i / cols]);
        break;
    }
    return out;
}

template <typename F>
FloatTensor unary(const FloatTensor& x, F f)
{
    FloatTensor out(x.shape);
    for (std::size_t i = 0; i < x.size(); ++i)
        out[i] = f(x[i]);
    return out;
}

Bool toBool(bool b)
{
    return b ? Bool::True : Bool::False;
}

// c[rows×n] += a[rows×k] · b[k×n] for raw row-major buffers; the i-k-j order keeps the inner
// loop contiguous so that it vectorises, and four rows share each row of b read from memory.
void gemmAccumulate(const float* __restrict a, const float* __restrict b, float* __restrict c,
                    std::size_t rows, std::size_t k, std::size_t n)
{
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4) {
        float* __restrict c0 = c + i * n;
        float* __restrict c1 = c0 + n;
        float* __restrict c2 = c1 + n;
        float* __restrict c3 = c2 + n;
        const float* a0 = a + i * k;
        for (std::size_t p = 0; p < k; ++p) {
            const float* __restrict bp = b + p * n;
            const float s0 = a0[p], s1 = a0[k + p], s2 = a0[2 * k + p], s3 = a0[3 * k + p];
            for (std::size_t j = 0; j < n; ++j) {
                const float bv = bp[j];
                c0[j] += s0 * bv;
                c1[j] += s1 * bv;
                c2[j] += s2 * bv;
                c3[j] += s3 * bv;
            }
        }
    }
    for (; i < rows; ++i) {
        float* __restrict ci = c + i * n;
        for (std::size_t p = 0; p < k; ++p) {
            const float* __restrict bp = b + p * n;
            const float s = a[i * k + p];
            for (std::size_t j = 0; j < n; ++j)
                ci[j] += s * bp[j];
        }
    }
}

FloatTensor transpose(const FloatTensor& x)
{
    const auto rows = static_cast<std::size_t>(x.rows());
    const auto cols = static_cast<std::size_t>(x.cols());
    FloatTensor out({x.cols(), x.rows()});
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            out[j * rows + i] = x[i * cols + j];
    return out;
}

void requireMatrices(const FloatTensor& a, const FloatTensor& b, std::int64_t aInner,
                     std::int64_t bInner)
{
    if (a.shape.size() != 2 || b.shape.size() != 2 || aInner != bInner)
        throw std::invalid_argument("tensor_math: incompatible matrix shapes");
}

} // namespace

FloatTensor oneHot(const UInt8Tensor& indices, std::int32_t depth, float on, float off)
{
    auto shape = indices.shape;
    shape.push_back(depth);
    FloatTensor out(shape, off);
    for (std::size_t i = 0; i < indices.size(); ++i)
        if (indices[i] < depth)
            out[i * static_cast<std::size_t>(depth) + indices[i]] = on;
    return out;
}

FloatTensor matmul(const FloatTensor& a, const FloatTensor& b)
{
    requireMatrices(a, b, a.shape[1], b.shape[0]);
    FloatTensor c({a.shape[0], b.shape[1]});
    gemmAccumulate(a.data(), b.data(), c.data(), static_cast<std::size_t>(a.shape[0]),
                   static_cast<std::size_t>(a.shape[1]), static_cast<std::size_t>(b.shape[1]));
    return c;
}

FloatTensor matmulTransposeA(const FloatTensor& a, const FloatTensor& b)
{
    requireMatrices(a, b, a.shape[0], b.shape[0]);
    const auto inner = static_cast<std::size_t>(a.shape[0]);
    const auto m = static_cast<std::size_t>(a.shape[1]);
    const auto n = static_cast<std::size_t>(b.shape[1]);
    FloatTensor c({a.shape[1], b.shape[1]});
    // Sum of outer products of matching rows: every access stays contiguous without a copy.
    for (std::size_t p = 0; p < inner; ++p) {
        const float* __restrict ap = a.data() + p * m;
        const float* __restrict bp = b.data() + p * n;
        for (std::size_t i = 0; i < m; ++i) {
            float* __restrict ci = c.data() + i * n;
            const float s = ap[i];
            for (std::size_t j = 0; j < n; ++j)
                ci[j] += s * bp[j];
        }
    }
    return c;
}

FloatTensor matmulTransposeB(const FloatTensor& a, const FloatTensor& b)
{
    requireMatrices(a, b, a.shape[1], b.shape[1]);
    return matmul(a, transpose(b));
}

FloatTensor add(const FloatTensor& x, const FloatTensor& y)
{
    return binary<float>(x, y, [](float u, float v) { return u + v; });
}

FloatTensor subtract(const FloatTensor& x, const FloatTensor& y)
{
    return binary<float>(x, y, [](float u, float v) { return u - v; });
}

FloatTensor multiply(const FloatTensor& x, const FloatTensor& y)
{
    return binary<float>(x, y, [](float u, float v) { return u * v; });
}

FloatTensor divide(const FloatTensor& x, const FloatTensor& y)
{
    return binary<float>(x, y, [](float u, float v) { return u / v; });
}

// Eigen's scalar_min/max without NaN propagation: the comparison picks the second operand
// when it is false.
FloatTensor minimum(const FloatTensor& x, const FloatTensor& y)
{
    return binary<float>(x, y, [](float u, float v) { return u < v ? u : v; });
}

FloatTensor maximum(const FloatTensor& x, const FloatTensor& y)
{
    return binary<float>(x, y, [](float u, float v) { return u > v ? u : v; });
}

BoolTensor greaterEqual(const FloatTensor& x, const FloatTensor& y)
{
    return binary<Bool>(x, y, [](float u, float v) { return toBool(u >= v); });
}

BoolTensor lessEqual(const FloatTensor& x, const FloatTensor& y)
{
    return binary<Bool>(x, y, [](float u, float v) { return toBool(u <= v); });
}

FloatTensor negate(const FloatTensor& x)
{
    return unary(x, [](float u) { return -u; });
}

FloatTensor log(const FloatTensor& x)
{
    return unary(x, [](float u) { return std::log(u); });
}

FloatTensor reciprocal(const FloatTensor& x)
{
    return unary(x, [](float u) { return 1.0f / u; });
}

FloatTensor relu(const FloatTensor& x)
{
    return unary(x, [](float u) { return u > 0.0f ? u : 0.0f; });
}

// TensorFlow multiplies by the mask instead of selecting, so a NaN gradient stays NaN even
// where the unit was inactive.
FloatTensor reluGrad(const FloatTensor& gradients, const FloatTensor& features)
{
    return binary<float>(gradients, features,
                         [](float g, float f) { return g * (f > 0.0f ? 1.0f : 0.0f); });
}

FloatTensor zerosLike(const FloatTensor& x)
{
    return FloatTensor(x.shape);
}

FloatTensor select(const BoolTensor& condition, const FloatTensor& yes, const FloatTensor& no)
{
    FloatTensor out(yes.shape);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = condition[i] == Bool::True ? yes[i] : no[i];
    return out;
}

FloatTensor softmax(const FloatTensor& logits)
{
    FloatTensor out(logits.shape);
    const auto cols = static_cast<std::size_t>(logits.cols());
    for (std::size_t r = 0; r < logits.size(); r += cols) {
        const float* in = logits.data() + r;
        float* p = out.data() + r;
        float top = -std::numeric_limits<float>::infinity();
        for (std::size_t j = 0; j < cols; ++j)
            top = in[j] > top ? in[j] : top;
        float sum = 0.0f;
        for (std::size_t j = 0; j < cols; ++j) {
            p[j] = std::exp(in[j] - top);
            sum += p[j];
        }
        // Multiplying by the inverse of the sum, as TensorFlow's kernel does.
        const float inverse = 1.0f / sum;
        for (std::size_t j = 0; j < cols; ++j)
            p[j] *= inverse;
    }
    return out;
}

FloatTensor meanAll(const FloatTensor& x)
{
    float sum = 0.0f;
    for (const float v : x.values)
        sum += v;
    return scalar(sum / static_cast<float>(x.size()));
}

FloatTensor sumAxis0(const FloatTensor& x)
{
    const auto cols = static_cast<std::size_t>(x.cols());
    FloatTensor out({x.cols()});
    for (std::size_t r = 0; r < x.size(); r += cols)
        for (std::size_t j = 0; j < cols; ++j)
            out[j] += x[r + j];
    return out;
}

FloatTensor sumLastAxisKeepDims(const FloatTensor& x)
{
    const auto cols = static_cast<std::size_t>(x.cols());
    FloatTensor out({x.rows(), 1});
    for (std::size_t r = 0; r < x.size(); r += cols) {
        float sum = 0.0f;
        for (std::size_t j = 0; j < cols; ++j)
            sum += x[r + j];
        out[r / cols] = sum;
    }
    return out;
}

FloatTensor tile(const FloatTensor& x, const std::vector<std::int64_t>& shape)
{
    assert(x.size() == 1);
    return FloatTensor(shape, x[0]);
}

Int64Tensor argmaxRows(const FloatTensor& x)
{
    const auto cols = static_cast<std::size_t>(x.cols());
    Int64Tensor out({x.rows()});
    for (std::size_t r = 0; r < x.size(); r += cols) {
        float best = std::numeric_limits<float>::lowest();
        std::int64_t index = 0;
        for (std::size_t j = 0; j < cols; ++j)
            if (x[r + j] > best) {
                best = x[r + j];
                index = static_cast<std::int64_t>(j);
            }
        out[r / cols] = index;
    }
    return out;
}

BoolTensor equal(const Int64Tensor& x, const Int64Tensor& y)
{
    BoolTensor out(x.shape);
    for (std::size_t i = 0; i < x.size(); ++i)
        out[i] = toBool(x[i] == y[i]);
    return out;
}

} // namespace nanscope::demo::math
