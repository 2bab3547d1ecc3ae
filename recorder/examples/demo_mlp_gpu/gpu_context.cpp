// SPDX-License-Identifier: Apache-2.0
#include "gpu_context.hpp"

#include <stdexcept>
#include <string>

namespace nanscope::demo::cuda {

const Context& context()
{
    static const Context instance = [] {
        Context c;
        check(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking), "creating a stream");
        check(cublasCreate(&c.blas), "creating a cuBLAS handle");
        check(cublasSetStream(c.blas, c.stream), "setting cuBLAS's stream");
        // TensorFlow's float32 MatMul without TF32, so that the numbers resemble the CPU demo's.
        check(cublasSetMathMode(c.blas, CUBLAS_DEFAULT_MATH), "setting cuBLAS's math mode");
        return c;
    }();
    return instance;
}

void check(cudaError_t error, const char* what)
{
    if (error != cudaSuccess)
        throw std::runtime_error(std::string("CUDA error while ") + what + ": " +
                                 cudaGetErrorString(error));
}

void check(cublasStatus_t status, const char* what)
{
    if (status != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string("cuBLAS error while ") + what + ": status " +
                                 std::to_string(static_cast<int>(status)));
}

void checkLaunch(const char* what)
{
    check(cudaGetLastError(), what);
}

} // namespace nanscope::demo::cuda
