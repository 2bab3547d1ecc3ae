// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/tracesaround.hpp"

namespace nanscope::core {

NodeHealth nodeHealth(HealthDigest digest)
{
    if (!digest.known())
        return NodeHealth::Unknown;
    if (!digest.nonFinite())
        return NodeHealth::Finite;
    if (digest.has(health::NaN) || !digest.has(health::NegInf | health::PosInf))
        return NodeHealth::NaN;
    return NodeHealth::Infinite;
}

std::string_view toString(NodeHealth health)
{
    switch (health) {
    case NodeHealth::Finite:
        return "finite";
    case NodeHealth::Infinite:
        return "inf";
    case NodeHealth::NaN:
        return "nan";
    case NodeHealth::Unknown:
        break;
    }
    return "unknown";
}

std::vector<OpTrace> tracesAround(const Snapshot& snapshot, const std::vector<OpId>& ops,
                                  const std::vector<bool>& downstream,
                                  std::optional<std::uint64_t> focusedTrace, std::uint64_t budget)
{
    std::vector<OpTrace> result(ops.size());
    const std::uint64_t count = snapshot.traceCount();
    if (count == 0 || ops.empty())
        return result;
    // An index past the end is no focus (plain values: the optional is not read again).
    const bool hasFocus = focusedTrace.has_value() && *focusedTrace < count;
    const std::uint64_t focusedIndex = hasFocus ? *focusedTrace : count - 1;

    // A slot per op id of the whole logdir: one array index per digest read, no hashing.
    const std::size_t opCount = snapshot.graphs().ops().size();
    std::vector<std::int32_t> wanted(opCount, -1);
    std::size_t missing = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (ops[i] < opCount && wanted[ops[i]] < 0) {
            wanted[ops[i]] = static_cast<std::int32_t>(i);
            ++missing;
        }
    }
    auto take = [&](std::vector<std::int32_t>& slots, std::uint64_t index,
                    const TraceDigest& digest) {
        if (digest.op >= opCount || slots[digest.op] < 0)
            return false;
        OpTrace& found = result[static_cast<std::size_t>(slots[digest.op])];
        found.trace = index;
        found.health = digest.health;
        slots[digest.op] = -1;
        return true;
    };

    std::uint64_t index = focusedIndex + 1;
    for (std::uint64_t read = 0; missing > 0 && index > 0 && read < budget; ++read) {
        --index;
        if (take(wanted, index, snapshot.trace(index)))
            --missing;
    }
    if (!hasFocus || downstream.size() != ops.size())
        return result;

    // Downstream ops: what they compute next, before the focused tensor is computed again.
    const TraceDigest focused = snapshot.trace(focusedIndex);
    std::vector<std::int32_t> later(opCount, -1);
    std::size_t pending = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (downstream[i] && ops[i] < opCount && ops[i] != focused.op && later[ops[i]] < 0) {
            later[ops[i]] = static_cast<std::int32_t>(i);
            ++pending;
        }
    }
    index = focusedIndex + 1;
    for (std::uint64_t read = 0; pending > 0 && index < count && read < budget; ++read, ++index) {
        const TraceDigest digest = snapshot.trace(index);
        if (digest.op == focused.op && digest.outputSlot == focused.outputSlot)
            break; // the next run begins
        if (take(later, index, digest))
            --pending;
    }
    return result;
}

std::vector<bool> downstreamOf(const GraphTable& graphs, const std::vector<OpId>& ops, OpId focused)
{
    std::vector<bool> result(ops.size(), false);
    if (focused >= graphs.ops().size())
        return result;
    std::vector<bool> reached(graphs.ops().size(), false);
    std::vector<OpId> stack{focused};
    while (!stack.empty()) {
        const OpId op = stack.back();
        stack.pop_back();
        for (const std::vector<OpConsumer>& slot : graphs.op(op).consumers) {
            for (const OpConsumer& consumer : slot) {
                if (consumer.op < reached.size() && !reached[consumer.op]) {
                    reached[consumer.op] = true;
                    stack.push_back(consumer.op);
                }
            }
        }
    }
    for (std::size_t i = 0; i < ops.size(); ++i)
        result[i] = ops[i] < reached.size() && reached[ops[i]];
    return result;
}

} // namespace nanscope::core
