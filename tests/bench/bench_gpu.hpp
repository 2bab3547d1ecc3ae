// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA half of nanscope_bench_gpu (bench_gpu.cu, C++17 for nvcc): device data for the
// bandwidth runs, and an MLP training step with cuBLAS whose tensors the driver records.
#pragma once

#include "nanscope/dtype.hpp"

#include <cstdint>
#include <cuda_runtime_api.h>
#include <memory>
#include <string>
#include <vector>

namespace nanscope::bench {

// Prints what failed and exits: a benchmark cannot go on after a CUDA error.
void check(cudaError_t error, const char* what);

enum class FillKind {
    Realistic,  // finite values with one NaN in a million, as a network's tensors are
    RandomBits, // any pattern: the worst case for the kernel's all-finite fast path
};

// Fills `count` elements of `dtype` at `data` (device memory) and waits.
void fill(void* data, DType dtype, std::uint64_t count, FillKind kind);

struct CallCost
{
    std::string call;
    double microseconds; // the median host time of one call
};

// The host time of each CUDA call a device summary makes, each measured alone on `stream`
// (bench_launch.cu); `deviceData` is any device allocation, for the pointer query.
std::vector<CallCost> measureCallCosts(cudaStream_t stream, const void* deviceData);

struct StepTensor
{
    const void* data;
    std::vector<std::int64_t> shape; // float32
};

// Dense ReLU layers of `widths`, softmax cross-entropy on random labels, backward, Adam, on its
// own stream; float32 GEMMs (TF32 tensor cores with `tf32`).
class TrainingStep
{
public:
    TrainingStep(const std::vector<int>& widths, int batch, bool tf32);
    ~TrainingStep();
    TrainingStep(const TrainingStep&) = delete;
    TrainingStep& operator=(const TrainingStep&) = delete;

    // Enqueues one step and reads the loss back, as a training loop that prints it does.
    float run();

    // The graph tensors TensorFlow's dumping would trace in a step: the input, weights read,
    // products, pre-activations, activations, probabilities, losses and gradients.
    std::vector<StepTensor> tracedTensors() const;
    StepTensor loss() const;
    cudaStream_t stream() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace nanscope::bench
