// SPDX-License-Identifier: GPL-3.0-or-later
// "The latest trace of output (op, slot)" while the index is walked in execution order: how a
// graph trace's inputs are found (origin.hpp).
#pragma once

#include "nanscope/core/graphtable.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nanscope::core {

inline constexpr std::uint64_t kNoTrace = UINT64_MAX;

// Ops that only forward a value and are never instrumented (TensorFlow's skip list): an input
// through them is followed to the op that computed the value.
inline bool isPassThrough(std::string_view type)
{
    return type == "Identity" || type == "IdentityN" || type == "Enter" || type == "Exit" ||
           type == "NextIteration" || type == "RefIdentity" || type == "RefEnter" ||
           type == "RefExit" || type == "RefNextIteration";
}

// "The latest trace of output (op, slot)" for every op output, in a dense array for the first
// slots of each op and a map for the rest (an op may claim 65536 outputs, a million ops may).
class LatestTraces
{
    static constexpr int kDense = 64;

public:
    explicit LatestTraces(const GraphTable& graphs) : m_graphs(graphs)
    {
        const auto& ops = graphs.ops();
        m_base.resize(ops.size() + 1, 0);
        for (std::size_t i = 0; i < ops.size(); ++i)
            m_base[i + 1] =
                m_base[i] + static_cast<std::uint64_t>(std::clamp(ops[i].numOutputs, 1, kDense));
        m_latest.assign(m_base.back(), kNoTrace);
    }

    // Where output (op, slot) is kept in the dense array: below denseOutputs(), or kNoTrace for
    // an output kept in the map (a slot past the first ones) or an op the table does not have.
    std::uint64_t denseIndex(OpId op, std::uint32_t slot) const
    {
        if (op >= m_base.size() - 1)
            return kNoTrace;
        const std::uint64_t at = m_base[op] + slot;
        return at < m_base[op + 1] ? at : kNoTrace;
    }
    std::uint64_t denseOutputs() const { return m_latest.size(); }

    void set(OpId op, std::uint32_t slot, std::uint64_t trace)
    {
        if (op >= m_base.size() - 1)
            return;
        if (const std::uint64_t at = denseIndex(op, slot); at != kNoTrace)
            m_latest[at] = trace;
        else
            m_overflow[(std::uint64_t{op} << 20) ^ slot] = trace;
    }

    std::uint64_t get(OpId op, std::uint32_t slot) const
    {
        if (op >= m_base.size() - 1)
            return kNoTrace;
        if (const std::uint64_t at = denseIndex(op, slot); at != kNoTrace)
            return m_latest[at];
        auto it = m_overflow.find((std::uint64_t{op} << 20) ^ slot);
        return it == m_overflow.end() ? kNoTrace : it->second;
    }

    // The tables as they stand, and putting them back (a walk's saved state): false when
    // `dense` is not of this graph table's size.
    const std::vector<std::uint64_t>& dense() const { return m_latest; }
    const std::unordered_map<std::uint64_t, std::uint64_t>& overflow() const { return m_overflow; }
    bool restore(std::vector<std::uint64_t> dense,
                 std::unordered_map<std::uint64_t, std::uint64_t> overflow)
    {
        if (dense.size() != m_latest.size())
            return false;
        m_latest = std::move(dense);
        m_overflow = std::move(overflow);
        return true;
    }

    // The trace that last computed input `input` of an op, following pass-through ops.
    std::uint64_t source(const OpInput& input) const
    {
        OpId op = input.op;
        auto slot = static_cast<std::uint32_t>(std::max(input.slot, 0));
        for (int depth = 0; depth < 16 && op != kNoOp; ++depth) {
            const std::uint64_t trace = get(op, slot);
            if (trace != kNoTrace)
                return trace;
            const OpInfo& info = m_graphs.op(op);
            if (!isPassThrough(info.type) || info.inputs.empty())
                return kNoTrace;
            const OpInput& forwarded = info.type == "IdentityN" && slot < info.inputs.size()
                                           ? info.inputs[slot]
                                           : info.inputs.front();
            op = forwarded.op;
            slot = static_cast<std::uint32_t>(std::max(forwarded.slot, 0));
        }
        return kNoTrace;
    }

private:
    const GraphTable& m_graphs;
    std::vector<std::uint64_t> m_base;
    std::vector<std::uint64_t> m_latest;
    std::unordered_map<std::uint64_t, std::uint64_t> m_overflow;
};

} // namespace nanscope::core
