// SPDX-License-Identifier: GPL-3.0-or-later
// The device side of nanscope_bench_gpu: data generators and an MLP training step.
#include "bench_gpu.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <random>

namespace nanscope::bench {

namespace {

void checkBlas(cublasStatus_t s, const char* what)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "nanscope_bench_gpu: %s: cuBLAS status %d\n", what,
                     static_cast<int>(s));
        std::exit(1);
    }
}

struct Buffer
{
    void* data = nullptr;
    std::size_t bytes = 0;
    explicit Buffer(std::size_t size) : bytes(size)
    {
        check(cudaMalloc(&data, size), "cudaMalloc");
    }
    ~Buffer() { (void)cudaFree(data); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    float* f() const { return static_cast<float*>(data); }
};

__device__ std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Integers get the value's integer part (through int: converting a negative float to an
// unsigned type directly is undefined).
template <typename T>
__device__ T fromFloat(float v)
{
    return static_cast<T>(static_cast<int>(v));
}
template <>
__device__ float fromFloat<float>(float v)
{
    return v;
}
template <>
__device__ double fromFloat<double>(float v)
{
    return v;
}
template <>
__device__ __half fromFloat<__half>(float v)
{
    return __float2half(v);
}
template <>
__device__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float v)
{
    return __float2bfloat16(v);
}

template <typename T>
__global__ void fillRealistic(T* out, std::uint64_t n, std::uint64_t seed)
{
    for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::uint64_t{gridDim.x} * blockDim.x) {
        const std::uint64_t r = mix(seed ^ i);
        float v = static_cast<float>(static_cast<std::int64_t>(r % 2001) - 1000) / 100.0f;
        if ((r >> 32) % 1000003 == 0)
            v = __int_as_float(0x7fc00000); // one NaN in a million
        out[i] = fromFloat<T>(v);
    }
}

__global__ void fillBits(std::uint64_t* out, std::uint64_t words, std::uint64_t seed)
{
    for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < words;
         i += std::uint64_t{gridDim.x} * blockDim.x)
        out[i] = mix(seed ^ i);
}

void fillOn(void* data, DType dtype, std::uint64_t count, bool randomBits)
{
    const unsigned blocks = 4096;
    if (randomBits) {
        const std::uint64_t words = count * elementSize(dtype) / 8;
        fillBits<<<blocks, 256>>>(static_cast<std::uint64_t*>(data), words, 7);
    } else {
        switch (dtype) {
        case DType::Float16:
            fillRealistic<<<blocks, 256>>>(static_cast<__half*>(data), count, 1);
            break;
        case DType::BFloat16:
            fillRealistic<<<blocks, 256>>>(static_cast<__nv_bfloat16*>(data), count, 1);
            break;
        case DType::Float32:
            fillRealistic<<<blocks, 256>>>(static_cast<float*>(data), count, 1);
            break;
        case DType::Float64:
            fillRealistic<<<blocks, 256>>>(static_cast<double*>(data), count, 1);
            break;
        case DType::Int8:
            fillRealistic<<<blocks, 256>>>(static_cast<std::int8_t*>(data), count, 1);
            break;
        case DType::Int32:
            fillRealistic<<<blocks, 256>>>(static_cast<std::int32_t*>(data), count, 1);
            break;
        case DType::Int64:
            fillRealistic<<<blocks, 256>>>(static_cast<std::int64_t*>(data), count, 1);
            break;
        default:
            fillRealistic<<<blocks, 256>>>(static_cast<std::uint8_t*>(data), count, 1);
            break;
        }
    }
    check(cudaGetLastError(), "fill");
    check(cudaDeviceSynchronize(), "fill");
}

__global__ void biasRelu(const float* z, const float* bias, float* pre, float* out, int rows,
                         int cols, bool relu)
{
    const int n = rows * cols;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float v = z[i] + bias[i % cols];
        pre[i] = v;
        if (relu)
            out[i] = v > 0.0f ? v : 0.0f;
    }
}

// Softmax, its cross-entropy gradient (p - onehot) / rows, and each row's loss; one warp per
// row.
__global__ void softmaxCrossEntropy(const float* logits, const int* labels, float* probs,
                                    float* gradient, float* rowLoss, int rows, int cols)
{
    const int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (r >= rows)
        return;
    const float* x = logits + static_cast<std::size_t>(r) * cols;
    float top = -INFINITY;
    for (int j = lane; j < cols; j += 32)
        top = fmaxf(top, x[j]);
    for (int o = 16; o > 0; o /= 2)
        top = fmaxf(top, __shfl_xor_sync(0xffffffffu, top, o));
    float sum = 0.0f;
    for (int j = lane; j < cols; j += 32)
        sum += expf(x[j] - top);
    for (int o = 16; o > 0; o /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, o);
    float* p = probs + static_cast<std::size_t>(r) * cols;
    float* g = gradient + static_cast<std::size_t>(r) * cols;
    const int label = labels[r];
    for (int j = lane; j < cols; j += 32) {
        p[j] = expf(x[j] - top) / sum;
        g[j] = (p[j] - (j == label ? 1.0f : 0.0f)) / static_cast<float>(rows);
        if (j == label)
            rowLoss[r] = -logf(p[j]);
    }
}

__global__ void reluGradient(const float* upstream, const float* pre, float* out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = pre[i] > 0.0f ? upstream[i] : 0.0f;
}

__global__ void columnSums(const float* x, float* out, int rows, int cols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float s = 0.0f;
    for (int r = 0; r < rows; ++r)
        s += x[static_cast<std::size_t>(r) * cols + c];
    out[c] = s;
}

__global__ void adam(float* w, float* m, float* v, const float* g, int n, float alpha)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        m[i] += (g[i] - m[i]) * 0.1f;
        v[i] += (g[i] * g[i] - v[i]) * 0.001f;
        w[i] -= m[i] * alpha / (sqrtf(v[i]) + 1e-7f);
    }
}

__global__ void meanOf(const float* x, float* out, int n)
{
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += x[i];
    __shared__ float partial[256];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            partial[threadIdx.x] += partial[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = partial[0] / static_cast<float>(n);
}

unsigned gridFor(std::size_t n)
{
    return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65535));
}

// C = op(A) · op(B) for row-major matrices: cuBLAS is column-major, so compute Cᵀ = op(B)ᵀ op(A)ᵀ.
void gemm(cublasHandle_t h, bool transA, bool transB, int m, int n, int k, const float* a,
          const float* b, float* c)
{
    const float one = 1.0f, zero = 0.0f;
    checkBlas(cublasSgemm(h, transB ? CUBLAS_OP_T : CUBLAS_OP_N, transA ? CUBLAS_OP_T : CUBLAS_OP_N,
                          n, m, k, &one, b, transB ? k : n, a, transA ? m : k, &zero, c, n),
              "cublasSgemm");
}

struct Layer
{
    int in = 0, out = 0;
    std::unique_ptr<Buffer> w, b, mw, vw, mb, vb; // parameters and Adam slots
    std::unique_ptr<Buffer> z, pre, act;          // x·W, + bias, ReLU
    std::unique_ptr<Buffer> dw, db, dx, dpre;     // gradients
    std::vector<std::int64_t> wShape, bShape, actShape, inShape;
};

} // namespace

void check(cudaError_t e, const char* what)
{
    if (e != cudaSuccess) {
        std::fprintf(stderr, "nanscope_bench_gpu: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

void fill(void* data, DType dtype, std::uint64_t count, FillKind kind)
{
    fillOn(data, dtype, count, kind == FillKind::RandomBits);
}

struct TrainingStep::Impl
{
    int batch = 0;
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;
    std::vector<Layer> layers;
    std::unique_ptr<Buffer> x, probs, rowLoss, loss, labels;
    float* hostLoss = nullptr;
    std::vector<std::int64_t> xShape, rowShape, scalar;
};

TrainingStep::TrainingStep(const std::vector<int>& widths, int batch, bool tf32)
    : m_impl(std::make_unique<Impl>())
{
    Impl& d = *m_impl;
    d.batch = batch;
    check(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking), "cudaStreamCreate");
    checkBlas(cublasCreate(&d.blas), "cublasCreate");
    checkBlas(cublasSetStream(d.blas, d.stream), "cublasSetStream");
    checkBlas(cublasSetMathMode(d.blas, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
              "cublasSetMathMode");
    std::mt19937 random(42);
    std::normal_distribution<float> normal(0.0f, 0.05f);
    for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
        Layer layer;
        layer.in = widths[l];
        layer.out = widths[l + 1];
        const std::size_t wBytes = std::size_t(layer.in) * layer.out * 4;
        const std::size_t bBytes = std::size_t(layer.out) * 4;
        const std::size_t aBytes = std::size_t(batch) * layer.out * 4;
        for (auto* p : {&layer.w, &layer.mw, &layer.vw, &layer.dw})
            *p = std::make_unique<Buffer>(wBytes);
        for (auto* p : {&layer.b, &layer.mb, &layer.vb, &layer.db})
            *p = std::make_unique<Buffer>(bBytes);
        for (auto* p : {&layer.z, &layer.pre, &layer.act, &layer.dpre})
            *p = std::make_unique<Buffer>(aBytes);
        layer.dx = std::make_unique<Buffer>(std::size_t(batch) * layer.in * 4);
        std::vector<float> w(std::size_t(layer.in) * layer.out);
        for (float& v : w)
            v = normal(random);
        check(cudaMemcpy(layer.w->data, w.data(), wBytes, cudaMemcpyHostToDevice), "upload");
        for (auto* p : {&layer.b, &layer.mb, &layer.vb})
            check(cudaMemset((*p)->data, 0, bBytes), "cudaMemset");
        for (auto* p : {&layer.mw, &layer.vw})
            check(cudaMemset((*p)->data, 0, wBytes), "cudaMemset");
        layer.wShape = {layer.in, layer.out};
        layer.bShape = {layer.out};
        layer.actShape = {batch, layer.out};
        layer.inShape = {batch, layer.in};
        d.layers.push_back(std::move(layer));
    }
    const int classes = widths.back();
    d.x = std::make_unique<Buffer>(std::size_t(batch) * widths.front() * 4);
    d.probs = std::make_unique<Buffer>(std::size_t(batch) * classes * 4);
    d.rowLoss = std::make_unique<Buffer>(std::size_t(batch) * 4);
    d.loss = std::make_unique<Buffer>(4);
    d.labels = std::make_unique<Buffer>(std::size_t(batch) * 4);
    fill(d.x->data, DType::Float32, std::size_t(batch) * widths.front(), FillKind::Realistic);
    std::vector<int> labels(static_cast<std::size_t>(batch));
    for (int& l : labels)
        l = static_cast<int>(random() % static_cast<unsigned>(classes));
    check(cudaMemcpy(d.labels->data, labels.data(), labels.size() * 4, cudaMemcpyHostToDevice),
          "upload");
    check(cudaMallocHost(&d.hostLoss, 4), "cudaMallocHost");
    d.xShape = {batch, widths.front()};
    d.rowShape = {batch};
}

TrainingStep::~TrainingStep()
{
    (void)cudaStreamSynchronize(m_impl->stream);
    (void)cudaFreeHost(m_impl->hostLoss);
    (void)cublasDestroy(m_impl->blas);
    m_impl->layers.clear();
    (void)cudaStreamDestroy(m_impl->stream);
}

float TrainingStep::run()
{
    Impl& d = *m_impl;
    const float* input = d.x->f();
    for (std::size_t l = 0; l < d.layers.size(); ++l) {
        Layer& L = d.layers[l];
        const bool last = l + 1 == d.layers.size();
        gemm(d.blas, false, false, d.batch, L.out, L.in, input, L.w->f(), L.z->f());
        const std::size_t n = std::size_t(d.batch) * L.out;
        biasRelu<<<gridFor(n), 256, 0, d.stream>>>(L.z->f(), L.b->f(), L.pre->f(), L.act->f(),
                                                   d.batch, L.out, !last);
        input = L.act->f();
    }
    Layer& top = d.layers.back();
    softmaxCrossEntropy<<<(d.batch + 3) / 4, 128, 0, d.stream>>>(
        top.pre->f(), static_cast<const int*>(d.labels->data), d.probs->f(), top.dpre->f(),
        d.rowLoss->f(), d.batch, top.out);
    meanOf<<<1, 256, 0, d.stream>>>(d.rowLoss->f(), d.loss->f(), d.batch);
    for (std::size_t l = d.layers.size(); l-- > 0;) {
        Layer& L = d.layers[l];
        const float* layerInput = l == 0 ? d.x->f() : d.layers[l - 1].act->f();
        gemm(d.blas, true, false, L.in, L.out, d.batch, layerInput, L.dpre->f(), L.dw->f());
        columnSums<<<(L.out + 127) / 128, 128, 0, d.stream>>>(L.dpre->f(), L.db->f(), d.batch,
                                                              L.out);
        if (l > 0) {
            gemm(d.blas, false, true, d.batch, L.in, L.out, L.dpre->f(), L.w->f(), L.dx->f());
            Layer& below = d.layers[l - 1];
            const int n = d.batch * below.out;
            reluGradient<<<gridFor(n), 256, 0, d.stream>>>(L.dx->f(), below.pre->f(),
                                                           below.dpre->f(), n);
        }
    }
    for (Layer& L : d.layers) {
        const int nw = L.in * L.out;
        adam<<<gridFor(nw), 256, 0, d.stream>>>(L.w->f(), L.mw->f(), L.vw->f(), L.dw->f(), nw,
                                                1e-3f);
        adam<<<gridFor(L.out), 256, 0, d.stream>>>(L.b->f(), L.mb->f(), L.vb->f(), L.db->f(), L.out,
                                                   1e-3f);
    }
    check(cudaGetLastError(), "step kernels");
    check(cudaMemcpyAsync(d.hostLoss, d.loss->data, 4, cudaMemcpyDeviceToHost, d.stream), "loss");
    check(cudaStreamSynchronize(d.stream), "step");
    return *d.hostLoss;
}

std::vector<StepTensor> TrainingStep::tracedTensors() const
{
    const Impl& d = *m_impl;
    std::vector<StepTensor> out = {{d.x->data, d.xShape}};
    for (const Layer& L : d.layers)
        for (const StepTensor& t :
             {StepTensor{L.w->data, L.wShape}, StepTensor{L.b->data, L.bShape},
              StepTensor{L.z->data, L.actShape}, StepTensor{L.pre->data, L.actShape},
              StepTensor{L.act->data, L.actShape}})
            out.push_back(t);
    out.push_back({d.probs->data, d.layers.back().actShape});
    out.push_back({d.rowLoss->data, d.rowShape});
    out.push_back({d.loss->data, d.scalar});
    for (const Layer& L : d.layers)
        for (const StepTensor& t :
             {StepTensor{L.dpre->data, L.actShape}, StepTensor{L.dw->data, L.wShape},
              StepTensor{L.db->data, L.bShape}, StepTensor{L.dx->data, L.inShape}})
            out.push_back(t);
    return out;
}

StepTensor TrainingStep::loss() const
{
    return {m_impl->loss->data, m_impl->scalar};
}

cudaStream_t TrainingStep::stream() const
{
    return m_impl->stream;
}

} // namespace nanscope::bench
