// SPDX-License-Identifier: Apache-2.0
// A dense row-major host tensor, the only data structure the demo's math works on.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace nanscope::demo {

template <typename T>
struct Tensor
{
    std::vector<std::int64_t> shape; // empty for a scalar
    std::vector<T> values;

    Tensor() = default;
    explicit Tensor(std::vector<std::int64_t> dims, T fill = T{})
        : shape(std::move(dims)), values(static_cast<std::size_t>(count(shape)), fill)
    {}

    static std::int64_t count(const std::vector<std::int64_t>& dims)
    {
        std::int64_t n = 1;
        for (const std::int64_t d : dims)
            n *= d;
        return n;
    }

    std::int64_t rows() const { return shape.empty() ? 1 : shape.front(); }
    std::int64_t cols() const { return shape.size() < 2 ? 1 : shape.back(); }
    std::size_t size() const { return values.size(); }
    T* data() { return values.data(); }
    const T* data() const { return values.data(); }
    T& operator[](std::size_t i) { return values[i]; }
    const T& operator[](std::size_t i) const { return values[i]; }
};

// TensorFlow's bool is one byte; std::vector<bool> is not, so bool tensors hold this instead.
enum class Bool : std::uint8_t { False = 0, True = 1 };

using FloatTensor = Tensor<float>;
using Int32Tensor = Tensor<std::int32_t>;
using Int64Tensor = Tensor<std::int64_t>;
using UInt8Tensor = Tensor<std::uint8_t>;
using BoolTensor = Tensor<Bool>;

} // namespace nanscope::demo
