// SPDX-License-Identifier: Apache-2.0
// The demo's CUDA kernels behind a plain interface (raw device pointers, element counts, a
// stream), one per family of TensorFlow ops it imitates, with TensorFlow's float32 semantics:
// nothing skips zeros or special-cases non-finite values, so NaN and infinity flow through as
// they do in TensorFlow's GPU kernels.
#pragma once

#include <cstdint>
#include <cuda_runtime_api.h>

namespace nanscope::demo::cuda {

// How the right operand of an element-wise op lines up with the left one (as tensor_math.cpp).
enum class Broadcast { Same, Scalar, Row, Column };

enum class BinaryOp { Add, Subtract, Multiply, Divide, Minimum, Maximum };
enum class CompareOp { GreaterEqual, LessEqual };
enum class UnaryOp { Negate, Log, Reciprocal, Relu };

// out[i] = x[i] op y[...], `cols` columns per row for Row and Column broadcasts.
void binary(BinaryOp op, Broadcast broadcast, const float* x, const float* y, float* out,
            std::int64_t n, std::int64_t cols, cudaStream_t stream);
void compare(CompareOp op, Broadcast broadcast, const float* x, const float* y, std::uint8_t* out,
             std::int64_t n, std::int64_t cols, cudaStream_t stream);
void unary(UnaryOp op, const float* x, float* out, std::int64_t n, cudaStream_t stream);

// gradients · (features > 0 ? 1 : 0): a NaN gradient stays NaN where the unit was inactive.
void reluGrad(const float* gradients, const float* features, float* out, std::int64_t n,
              cudaStream_t stream);
void select(const std::uint8_t* condition, const float* yes, const float* no, float* out,
            std::int64_t n, cudaStream_t stream);

void castToFloat(const std::uint8_t* in, float* out, std::int64_t n, bool isBool,
                 cudaStream_t stream);
void fill(float* out, std::int64_t n, float value, cudaStream_t stream);
// Every element set to the single value at `value` (device memory): Tile of a scalar.
void broadcastScalar(float* out, std::int64_t n, const float* value, cudaStream_t stream);
void oneHot(const std::uint8_t* indices, float* out, std::int64_t n, int depth, float on, float off,
            cudaStream_t stream);

// Softmax over rows of `cols`, as TensorFlow computes it: exp(x - max) times 1 / sum.
void softmax(const float* logits, float* out, std::int64_t rows, std::int64_t cols,
             cudaStream_t stream);
void meanAll(const float* x, float* out, std::int64_t n, cudaStream_t stream);
void sumAxis0(const float* x, float* out, std::int64_t rows, std::int64_t cols,
              cudaStream_t stream);
void sumLastAxis(const float* x, float* out, std::int64_t rows, std::int64_t cols,
                 cudaStream_t stream);
// Index of the largest element of each row; comparisons with NaN are false, as in Eigen.
void argmaxRows(const float* x, std::int64_t* out, std::int64_t rows, std::int64_t cols,
                cudaStream_t stream);
void equal(const std::int64_t* x, const std::int64_t* y, std::uint8_t* out, std::int64_t n,
           cudaStream_t stream);

// One ResourceApplyAdam: updates m, v and the variable in place.
void adam(float* variable, float* m, float* v, const float* gradient, std::int64_t n, float alpha,
          float oneMinusBeta1, float oneMinusBeta2, float epsilon, cudaStream_t stream);

} // namespace nanscope::demo::cuda
