// SPDX-License-Identifier: Apache-2.0
#include "dataset.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

namespace nanscope::demo {

Dataset gather(const Dataset& data, const std::vector<std::int64_t>& indices)
{
    const auto n = static_cast<std::int64_t>(indices.size());
    Dataset out{UInt8Tensor({n, kImageSide, kImageSide}), UInt8Tensor({n})};
    for (std::size_t i = 0; i < indices.size(); ++i) {
        const auto from = static_cast<std::size_t>(indices[i]);
        std::memcpy(out.images.data() + i * kImagePixels, data.images.data() + from * kImagePixels,
                    kImagePixels);
        out.labels[i] = data.labels[from];
    }
    return out;
}

BatchStream::BatchStream(const Dataset& data, std::int64_t batchSize, std::uint64_t seed)
    : m_data(data), m_batchSize(std::min(batchSize, data.size())), m_random(seed),
      m_order(static_cast<std::size_t>(data.size()))
{
    std::iota(m_order.begin(), m_order.end(), std::int64_t{0});
    reshuffle();
}

Dataset BatchStream::next()
{
    // A pass ends at its last full batch, like batch(drop_remainder=True) under repeat.
    if (m_position + static_cast<std::size_t>(m_batchSize) > m_order.size())
        reshuffle();
    const auto first = m_order.begin() + static_cast<std::ptrdiff_t>(m_position);
    std::vector<std::int64_t> indices(first, first + m_batchSize);
    m_position += static_cast<std::size_t>(m_batchSize);
    return gather(m_data, indices);
}

void BatchStream::reshuffle()
{
    for (std::size_t i = m_order.size(); i > 1; --i)
        std::swap(m_order[i - 1], m_order[m_random.below(static_cast<std::uint32_t>(i))]);
    m_position = 0;
}

} // namespace nanscope::demo
