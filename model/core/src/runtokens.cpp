// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtokens.hpp"

#include <limits>
#include <unordered_map>

namespace nanscope::core {
namespace {

constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
// How often the loops look at the stop flag: a relaxed load per event would cost little, but
// one per 64 Ki events costs nothing and still answers within a millisecond.
constexpr std::uint64_t kStopMask = 0xffff;
// Separates the parts of a key: no op type, op name or module path holds it, and if a hostile
// logdir's does, two of its ops share a token, which costs an alignment nothing but precision.
constexpr char kSeparator = '\x1f';

} // namespace

std::string_view withoutUid(std::string_view name)
{
    if (!name.starts_with("__"))
        return name;
    std::size_t end = name.size();
    while (end > 2 && name[end - 1] >= '0' && name[end - 1] <= '9')
        --end;
    return name.substr(0, end);
}

std::uint32_t KeyTable::intern(std::string_view key)
{
    if (const auto it = m_ids.find(key); it != m_ids.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_ids.size());
    m_ids.emplace(std::string(key), id);
    return id;
}

std::vector<std::uint32_t> executionTokens(const Snapshot& snapshot, KeyTable& keys,
                                           const std::atomic_bool* stop)
{
    const std::uint64_t count = snapshot.executionCount();
    std::vector<std::uint32_t> tokens;
    tokens.reserve(count);
    std::string key;
    for (std::uint64_t i = 0; i < count; ++i) {
        if ((i & kStopMask) == 0 && stopRequested(stop))
            return {};
        const ExecutionDigest execution = snapshot.execution(i);
        key.assign(withoutUid(execution.opType));
        key.push_back(kSeparator);
        key.append(execution.modulePath);
        tokens.push_back(keys.intern(key));
    }
    return tokens;
}

std::vector<std::uint32_t> traceTokens(const Snapshot& snapshot, KeyTable& keys,
                                       const std::atomic_bool* stop)
{
    const GraphTable& graphs = snapshot.graphs();
    // Most traces are of slot 0: a token per op for those, a map for the rest.
    std::vector<std::uint32_t> slotZero(graphs.ops().size(), kUnset);
    std::unordered_map<std::uint64_t, std::uint32_t> otherSlots;
    std::string key;
    auto tokenOf = [&](OpId op, std::uint32_t slot) {
        key.clear();
        if (op < graphs.ops().size()) {
            const OpInfo& info = graphs.op(op);
            if (info.graph < graphs.graphs().size())
                key.assign(withoutUid(graphs.graph(info.graph).name));
            key.push_back(kSeparator);
            key.append(info.name);
        } else {
            key.push_back(kSeparator); // a trace of no known op: all such traces are alike
        }
        key.push_back(kSeparator);
        key.append(std::to_string(slot));
        return keys.intern(key);
    };

    const std::uint64_t count = snapshot.traceCount();
    std::vector<std::uint32_t> tokens;
    tokens.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        if ((i & kStopMask) == 0 && stopRequested(stop))
            return {};
        const TraceDigest trace = snapshot.trace(i);
        std::uint32_t* cached = nullptr;
        if (trace.outputSlot == 0 && trace.op < slotZero.size()) {
            cached = &slotZero[trace.op];
        } else {
            const std::uint64_t both = (std::uint64_t{trace.op} << 32) | trace.outputSlot;
            cached = &otherSlots.try_emplace(both, kUnset).first->second;
        }
        if (*cached == kUnset)
            *cached = tokenOf(trace.op, trace.outputSlot);
        tokens.push_back(*cached);
    }
    return tokens;
}

} // namespace nanscope::core
