// SPDX-License-Identifier: Apache-2.0
#include "gpu_kernels.hpp"

#include <cfloat>

namespace nanscope::demo::cuda {

namespace {

constexpr int kThreads = 256;

unsigned blocksFor(std::int64_t n)
{
    const std::int64_t blocks = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 65535 ? 65535 : blocks));
}

#define NANSCOPE_GRID_STRIDE(i, n)                                                                 \
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < (n);            \
         i += std::int64_t{gridDim.x} * blockDim.x)

__device__ float right(const float* y, Broadcast b, std::int64_t i, std::int64_t cols)
{
    switch (b) {
    case Broadcast::Same:
        return y[i];
    case Broadcast::Scalar:
        return y[0];
    case Broadcast::Row:
        return y[i % cols];
    case Broadcast::Column:
        return y[i / cols];
    }
    return 0.0f;
}

__global__ void binaryKernel(BinaryOp op, Broadcast b, const float* x, const float* y, float* out,
                             std::int64_t n, std::int64_t cols)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        const float u = x[i];
        const float v = right(y, b, i, cols);
        float r = 0.0f;
        switch (op) {
        case BinaryOp::Add:
            r = u + v;
            break;
        case BinaryOp::Subtract:
            r = u - v;
            break;
        case BinaryOp::Multiply:
            r = u * v;
            break;
        case BinaryOp::Divide:
            r = u / v;
            break;
        // Eigen's scalar_min/max without NaN propagation, as the CPU demo.
        case BinaryOp::Minimum:
            r = u < v ? u : v;
            break;
        case BinaryOp::Maximum:
            r = u > v ? u : v;
            break;
        }
        out[i] = r;
    }
}

__global__ void compareKernel(CompareOp op, Broadcast b, const float* x, const float* y,
                              std::uint8_t* out, std::int64_t n, std::int64_t cols)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        const float u = x[i];
        const float v = right(y, b, i, cols);
        out[i] = (op == CompareOp::GreaterEqual ? u >= v : u <= v) ? 1 : 0;
    }
}

__global__ void unaryKernel(UnaryOp op, const float* x, float* out, std::int64_t n)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        const float u = x[i];
        switch (op) {
        case UnaryOp::Negate:
            out[i] = -u;
            break;
        case UnaryOp::Log:
            out[i] = logf(u);
            break;
        case UnaryOp::Reciprocal:
            out[i] = 1.0f / u;
            break;
        case UnaryOp::Relu:
            out[i] = u > 0.0f ? u : 0.0f;
            break;
        }
    }
}

__global__ void reluGradKernel(const float* g, const float* f, float* out, std::int64_t n)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        out[i] = g[i] * (f[i] > 0.0f ? 1.0f : 0.0f);
    }
}

__global__ void selectKernel(const std::uint8_t* c, const float* yes, const float* no, float* out,
                             std::int64_t n)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        out[i] = c[i] != 0 ? yes[i] : no[i];
    }
}

__global__ void castKernel(const std::uint8_t* in, float* out, std::int64_t n, bool isBool)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        out[i] = isBool ? (in[i] != 0 ? 1.0f : 0.0f) : static_cast<float>(in[i]);
    }
}

__global__ void fillKernel(float* out, std::int64_t n, float value)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        out[i] = value;
    }
}

__global__ void broadcastScalarKernel(float* out, std::int64_t n, const float* value)
{
    const float v = *value;
    NANSCOPE_GRID_STRIDE(i, n)
    {
        out[i] = v;
    }
}

__global__ void oneHotKernel(const std::uint8_t* indices, float* out, std::int64_t n, int depth,
                             float on, float off)
{
    NANSCOPE_GRID_STRIDE(i, n * depth)
    {
        const std::int64_t row = i / depth;
        const int column = static_cast<int>(i % depth);
        out[i] = indices[row] == column ? on : off;
    }
}

// One thread per row: the rows are 10 wide, and the sequential order of the sum matches the
// CPU demo's.
__global__ void softmaxKernel(const float* logits, float* out, std::int64_t rows, std::int64_t cols)
{
    NANSCOPE_GRID_STRIDE(r, rows)
    {
        const float* in = logits + r * cols;
        float* p = out + r * cols;
        float top = -INFINITY;
        for (std::int64_t j = 0; j < cols; ++j)
            top = in[j] > top ? in[j] : top;
        float sum = 0.0f;
        for (std::int64_t j = 0; j < cols; ++j) {
            p[j] = expf(in[j] - top);
            sum += p[j];
        }
        const float inverse = 1.0f / sum;
        for (std::int64_t j = 0; j < cols; ++j)
            p[j] *= inverse;
    }
}

// One block: a fixed reduction order, so every run gives the same mean.
__global__ void meanKernel(const float* x, float* out, std::int64_t n)
{
    __shared__ float partial[kThreads];
    float s = 0.0f;
    for (std::int64_t i = threadIdx.x; i < n; i += kThreads)
        s += x[i];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int width = kThreads / 2; width > 0; width /= 2) {
        if (threadIdx.x < width)
            partial[threadIdx.x] += partial[threadIdx.x + width];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = partial[0] / static_cast<float>(n);
}

__global__ void sumAxis0Kernel(const float* x, float* out, std::int64_t rows, std::int64_t cols)
{
    NANSCOPE_GRID_STRIDE(c, cols)
    {
        float s = 0.0f;
        for (std::int64_t r = 0; r < rows; ++r)
            s += x[r * cols + c];
        out[c] = s;
    }
}

__global__ void sumLastAxisKernel(const float* x, float* out, std::int64_t rows, std::int64_t cols)
{
    NANSCOPE_GRID_STRIDE(r, rows)
    {
        float s = 0.0f;
        for (std::int64_t j = 0; j < cols; ++j)
            s += x[r * cols + j];
        out[r] = s;
    }
}

__global__ void argmaxKernel(const float* x, std::int64_t* out, std::int64_t rows,
                             std::int64_t cols)
{
    NANSCOPE_GRID_STRIDE(r, rows)
    {
        float best = -FLT_MAX;
        std::int64_t index = 0;
        for (std::int64_t j = 0; j < cols; ++j)
            if (x[r * cols + j] > best) {
                best = x[r * cols + j];
                index = j;
            }
        out[r] = index;
    }
}

__global__ void equalKernel(const std::int64_t* x, const std::int64_t* y, std::uint8_t* out,
                            std::int64_t n)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        out[i] = x[i] == y[i] ? 1 : 0;
    }
}

__global__ void adamKernel(float* var, float* m, float* v, const float* g, std::int64_t n,
                           float alpha, float oneMinusBeta1, float oneMinusBeta2, float epsilon)
{
    NANSCOPE_GRID_STRIDE(i, n)
    {
        m[i] += (g[i] - m[i]) * oneMinusBeta1;
        v[i] += (g[i] * g[i] - v[i]) * oneMinusBeta2;
        var[i] -= (m[i] * alpha) / (sqrtf(v[i]) + epsilon);
    }
}

} // namespace

void binary(BinaryOp op, Broadcast broadcast, const float* x, const float* y, float* out,
            std::int64_t n, std::int64_t cols, cudaStream_t stream)
{
    binaryKernel<<<blocksFor(n), kThreads, 0, stream>>>(op, broadcast, x, y, out, n, cols);
}

void compare(CompareOp op, Broadcast broadcast, const float* x, const float* y, std::uint8_t* out,
             std::int64_t n, std::int64_t cols, cudaStream_t stream)
{
    compareKernel<<<blocksFor(n), kThreads, 0, stream>>>(op, broadcast, x, y, out, n, cols);
}

void unary(UnaryOp op, const float* x, float* out, std::int64_t n, cudaStream_t stream)
{
    unaryKernel<<<blocksFor(n), kThreads, 0, stream>>>(op, x, out, n);
}

void reluGrad(const float* gradients, const float* features, float* out, std::int64_t n,
              cudaStream_t stream)
{
    reluGradKernel<<<blocksFor(n), kThreads, 0, stream>>>(gradients, features, out, n);
}

void select(const std::uint8_t* condition, const float* yes, const float* no, float* out,
            std::int64_t n, cudaStream_t stream)
{
    selectKernel<<<blocksFor(n), kThreads, 0, stream>>>(condition, yes, no, out, n);
}

void castToFloat(const std::uint8_t* in, float* out, std::int64_t n, bool isBool,
                 cudaStream_t stream)
{
    castKernel<<<blocksFor(n), kThreads, 0, stream>>>(in, out, n, isBool);
}

void fill(float* out, std::int64_t n, float value, cudaStream_t stream)
{
    fillKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, n, value);
}

void broadcastScalar(float* out, std::int64_t n, const float* value, cudaStream_t stream)
{
    broadcastScalarKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, n, value);
}

void oneHot(const std::uint8_t* indices, float* out, std::int64_t n, int depth, float on, float off,
            cudaStream_t stream)
{
    oneHotKernel<<<blocksFor(n * depth), kThreads, 0, stream>>>(indices, out, n, depth, on, off);
}

void softmax(const float* logits, float* out, std::int64_t rows, std::int64_t cols,
             cudaStream_t stream)
{
    softmaxKernel<<<blocksFor(rows), kThreads, 0, stream>>>(logits, out, rows, cols);
}

void meanAll(const float* x, float* out, std::int64_t n, cudaStream_t stream)
{
    meanKernel<<<1, kThreads, 0, stream>>>(x, out, n);
}

void sumAxis0(const float* x, float* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream)
{
    sumAxis0Kernel<<<blocksFor(cols), kThreads, 0, stream>>>(x, out, rows, cols);
}

void sumLastAxis(const float* x, float* out, std::int64_t rows, std::int64_t cols,
                 cudaStream_t stream)
{
    sumLastAxisKernel<<<blocksFor(rows), kThreads, 0, stream>>>(x, out, rows, cols);
}

void argmaxRows(const float* x, std::int64_t* out, std::int64_t rows, std::int64_t cols,
                cudaStream_t stream)
{
    argmaxKernel<<<blocksFor(rows), kThreads, 0, stream>>>(x, out, rows, cols);
}

void equal(const std::int64_t* x, const std::int64_t* y, std::uint8_t* out, std::int64_t n,
           cudaStream_t stream)
{
    equalKernel<<<blocksFor(n), kThreads, 0, stream>>>(x, y, out, n);
}

void adam(float* variable, float* m, float* v, const float* gradient, std::int64_t n, float alpha,
          float oneMinusBeta1, float oneMinusBeta2, float epsilon, cudaStream_t stream)
{
    adamKernel<<<blocksFor(n), kThreads, 0, stream>>>(variable, m, v, gradient, n, alpha,
                                                      oneMinusBeta1, oneMinusBeta2, epsilon);
}

} // namespace nanscope::demo::cuda
