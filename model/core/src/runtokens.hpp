// SPDX-License-Identifier: GPL-3.0-or-later
// The keys by which the events of two runs are aligned (runcompare.hpp), as small numbers that
// both runs share: equal keys, equal tokens.
#pragma once

#include "nanscope/core/graphtable.hpp"
#include "nanscope/core/snapshot.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

// A name without TensorFlow's uid: "__inference_loss_123" and "__inference_loss_77" are one
// function of two runs. Only names that start with "__" (TensorFlow's generated ones) lose their
// trailing digits: "dense_1" and "dense_2" stay two layers.
std::string_view withoutUid(std::string_view name);

class KeyTable
{
public:
    std::uint32_t intern(std::string_view key);
    std::size_t size() const { return m_ids.size(); }

private:
    StringMap<std::uint32_t> m_ids;
};

// One token per execution (op type and module path) or trace (graph name, op name and output
// slot), in the snapshot's order. Empty when `stop` was set on the way.
std::vector<std::uint32_t> executionTokens(const Snapshot& snapshot, KeyTable& keys,
                                           const std::atomic_bool* stop);
std::vector<std::uint32_t> traceTokens(const Snapshot& snapshot, KeyTable& keys,
                                       const std::atomic_bool* stop);

inline bool stopRequested(const std::atomic_bool* stop)
{
    return stop && stop->load(std::memory_order_relaxed);
}

} // namespace nanscope::core
