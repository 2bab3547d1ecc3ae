// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/inputtraces.hpp"

#include <algorithm>
#include <string_view>

namespace nanscope::core {
namespace {

constexpr int kMaxPassThroughDepth = 16;

bool isPassThrough(std::string_view type)
{
    return type == "Identity" || type == "IdentityN" || type == "Enter" || type == "Exit" ||
           type == "NextIteration" || type == "RefIdentity" || type == "RefEnter" ||
           type == "RefExit" || type == "RefNextIteration";
}

struct Wanted
{
    std::size_t input;
    OpId op;
    std::uint32_t slot;
};

} // namespace

std::vector<InputTrace> findInputTraces(const Snapshot& snapshot, std::uint64_t trace,
                                        std::uint64_t lookBack)
{
    if (trace >= snapshot.traceCount())
        return {};
    const OpId opId = snapshot.trace(trace).op;
    const auto& graphs = snapshot.graphs();
    if (opId == kNoOp || opId >= graphs.ops().size())
        return {};

    // Every (op, slot) that may have computed each input: the producer, and when it only
    // forwards a value, the ops it forwards from.
    std::vector<Wanted> wanted;
    const auto& inputs = graphs.op(opId).inputs;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        OpId op = inputs[i].op;
        auto slot = static_cast<std::uint32_t>(std::max(inputs[i].slot, 0));
        for (int depth = 0; depth < kMaxPassThroughDepth && op != kNoOp; ++depth) {
            wanted.push_back({i, op, slot});
            const OpInfo& info = graphs.op(op);
            if (!isPassThrough(info.type) || info.inputs.empty())
                break;
            const OpInput& forwarded = info.type == "IdentityN" && slot < info.inputs.size()
                                           ? info.inputs[slot]
                                           : info.inputs.front();
            op = forwarded.op;
            slot = static_cast<std::uint32_t>(std::max(forwarded.slot, 0));
        }
    }

    std::vector<InputTrace> found;
    std::vector<bool> done(inputs.size(), false);
    std::size_t remaining = 0;
    for (const auto& input : inputs)
        remaining += input.op != kNoOp ? 1 : 0;
    const std::uint64_t stop = trace > lookBack ? trace - lookBack : 0;
    for (std::uint64_t t = trace; remaining > 0 && t-- > stop;) {
        const TraceDigest digest = snapshot.trace(t);
        for (const Wanted& w : wanted) {
            if (!done[w.input] && digest.op == w.op && digest.outputSlot == w.slot) {
                done[w.input] = true;
                --remaining;
                found.push_back({w.input, t});
            }
        }
    }
    std::sort(found.begin(), found.end(),
              [](const InputTrace& a, const InputTrace& b) { return a.input < b.input; });
    return found;
}

} // namespace nanscope::core
