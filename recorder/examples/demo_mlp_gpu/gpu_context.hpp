// SPDX-License-Identifier: Apache-2.0
// The demo's one CUDA stream and cuBLAS handle, and CUDA errors as exceptions (the demo stops
// at the first one, as a failed TensorFlow op would).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace nanscope::demo::cuda {

struct Context
{
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;
};

// Created on first use, on the current device.
const Context& context();

// Throws std::runtime_error naming `what` when `error` is not cudaSuccess (or, for the
// overload, when the last launch failed).
void check(cudaError_t error, const char* what);
void check(cublasStatus_t status, const char* what);
void checkLaunch(const char* what);

} // namespace nanscope::demo::cuda
