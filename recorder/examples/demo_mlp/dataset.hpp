// SPDX-License-Identifier: Apache-2.0
// Labelled 28×28 grey images and the batches the training loop draws from them.
#pragma once

#include "random.hpp"
#include "tensor.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nanscope::demo {

inline constexpr std::int64_t kImageSide = 28;
inline constexpr std::int64_t kImagePixels = kImageSide * kImageSide;
inline constexpr int kClasses = 10;

struct Dataset
{
    UInt8Tensor images; // [n, 28, 28], 0 = background
    UInt8Tensor labels; // [n], digits 0–9

    std::int64_t size() const { return labels.rows(); }
};

struct DataSplits
{
    Dataset train;
    Dataset test;
    std::string source; // for the console: where the data came from
};

// The examples at `indices`, in that order.
Dataset gather(const Dataset& data, const std::vector<std::int64_t>& indices);

// Batches of a shuffled copy of the data, reshuffled for each pass (tf.data's
// shuffle → batch → repeat, with a seed).
class BatchStream
{
public:
    BatchStream(const Dataset& data, std::int64_t batchSize, std::uint64_t seed);
    Dataset next();

private:
    void reshuffle();

    const Dataset& m_data;
    std::int64_t m_batchSize;
    Random m_random;
    std::vector<std::int64_t> m_order;
    std::size_t m_position = 0;
};

} // namespace nanscope::demo
