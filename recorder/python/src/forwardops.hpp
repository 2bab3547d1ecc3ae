// SPDX-License-Identifier: Apache-2.0
// The forward ops that backward ops differentiate: what a backward op's record names as its
// forward op (type, module, stack).
#pragma once

#include "nanscope/recorder.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nanscope::python {

struct ForwardOp
{
    std::string opType;
    std::string modulePath;
    std::optional<StackId> stackId;  // interned
    std::vector<CodeLocation> stack; // otherwise
};

// Forward ops by the autograd node they made, keyed as RecordFunction names a node on both
// sides: the forward thread's id and the node's sequence number. Bounded: the newest
// 2 × kGeneration nodes at most are remembered (a backward runs soon after its forward).
// Thread-safe.
class ForwardOps
{
public:
    static constexpr std::size_t kGeneration = std::size_t{1} << 17;

    void remember(std::uint64_t thread, std::int64_t sequence, std::shared_ptr<const ForwardOp> op)
    {
        const std::lock_guard lock(m_mutex);
        if (m_current.size() >= kGeneration)
            m_previous = std::exchange(m_current, {});
        m_current[{thread, sequence}] = std::move(op);
    }

    std::shared_ptr<const ForwardOp> find(std::uint64_t thread, std::int64_t sequence) const
    {
        const std::lock_guard lock(m_mutex);
        for (const auto* generation : {&m_current, &m_previous})
            if (auto it = generation->find({thread, sequence}); it != generation->end())
                return it->second;
        return nullptr;
    }

    void clear()
    {
        const std::lock_guard lock(m_mutex);
        m_current.clear();
        m_previous.clear();
    }

private:
    using Key = std::pair<std::uint64_t, std::int64_t>;
    struct KeyHash
    {
        std::size_t operator()(const Key& k) const
        {
            return std::hash<std::uint64_t>{}(k.first * 0x9e3779b97f4a7c15ULL ^
                                              static_cast<std::uint64_t>(k.second));
        }
    };
    using Map = std::unordered_map<Key, std::shared_ptr<const ForwardOp>, KeyHash>;
    mutable std::mutex m_mutex;
    Map m_current;
    Map m_previous;
};

// Which forward op a thread's ops differentiate, as autograd nodes start and end on it. The
// engine fixes a node's gradients after the node's own call has ended (it sums a gradient to its
// input's shape, or casts it to its dtype): those ops belong to the node that just ended, as long
// as they run from the Python stack the node's ops ran from (the backward call) and no other op
// came between. The sum of two gradients for one input that follows does not: it feeds the next
// node, and so ends the link.
class BackwardLinks
{
public:
    void nodeStarts(std::shared_ptr<const ForwardOp> forward)
    {
        m_open.push_back(std::move(forward));
        m_lingering.reset();
    }

    void nodeEnds()
    {
        if (m_open.empty())
            return;
        m_lingering = std::move(m_open.back());
        m_open.pop_back();
    }

    // The forward op that an op of type `opType`, run from Python stack `stack`,
    // differentiates, or nullptr.
    const ForwardOp* forwardOf(std::string_view opType, const std::optional<StackId>& stack)
    {
        if (!m_open.empty()) {
            m_stack = stack;
            return m_open.back().get();
        }
        if (m_lingering && stack && m_stack && stack->index == m_stack->index &&
            isGradientFix(opType))
            return m_lingering.get();
        m_lingering.reset(); // the backward call returned
        return nullptr;
    }

private:
    // What the engine's validation of a node's outputs runs: a sum to the input's shape (then a
    // view), a cast to its dtype or device.
    static bool isGradientFix(std::string_view opType)
    {
        return opType == "aten::sum" || opType == "aten::view" || opType == "aten::squeeze" ||
               opType == "aten::_to_copy";
    }

    std::vector<std::shared_ptr<const ForwardOp>> m_open; // innermost last; nullptr: unknown
    std::shared_ptr<const ForwardOp> m_lingering;
    std::optional<StackId> m_stack; // that the last node's ops ran from
};

} // namespace nanscope::python
