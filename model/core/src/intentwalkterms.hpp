// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's terms (intentwalk.hpp): what it knows of a value while it may still be read
// (Label), of an op (OpTraits: which of intent.hpp's rules apply to it), and of a group of values
// one op made (Group), from which the first walk's verdicts come.
#pragma once

#include "intentwalk.hpp"

#include <algorithm>
#include <cstdint>
#include <memory_resource>
#include <string_view>
#include <vector>

namespace nanscope::core::intentwalk {

using Hop = std::uint16_t;
constexpr Hop kFinite = Propagation::kFinite;

inline bool nonFinite(std::uint8_t bits)
{
    return (bits & health::Known) && (bits & health::NonFinite);
}

// The kinds a health digest tells; 0 when its mode tells none (CURT_HEALTH).
inline std::uint8_t kindsOf(std::uint8_t bits)
{
    std::uint8_t kinds = 0;
    if (bits & health::NegInf)
        kinds |= nonfinite::NegInf;
    if (bits & health::PosInf)
        kinds |= nonfinite::PosInf;
    if (bits & health::NaN)
        kinds |= nonfinite::NaN;
    return kinds;
}

// A number of traces and of executions: the first ones of the index.
struct EventCounts
{
    std::uint64_t traces = 0;
    std::uint64_t executions = 0;

    std::uint64_t of(EventSource source) const
    {
        return source == EventSource::Graph ? traces : executions;
    }
};

inline constexpr std::uint32_t kNoStep = UINT32_MAX;
inline constexpr std::uint32_t kNoModule = UINT32_MAX;

// What the value of one tensor is, while it may still be read.
struct Label
{
    std::uint32_t group = IntentWalk::kNoGroup; // kNoGroup: finite or unknown
    std::uint32_t step = kNoStep;               // the first walk's step that made it
    Hop hop = kFinite;                          // the second walk's hop (kIntended …)
    std::uint8_t kinds = 0;
    bool known = false; // its health is known (finite or not)
    bool read = false;  // a later op read its values

    bool nonFinite() const { return group != IntentWalk::kNoGroup; }
};

struct TensorState
{
    IntentWalk::TensorSource source;
    Label label;
};

// What the rules need to know of an op, looked up once per op (graph) or op type (eager).
struct OpTraits
{
    std::uint32_t id = 0; // the graph op's id, or the eager op type's string id
    bool eager = false;
    std::string_view type;
    std::string_view name;
    bool constant = false;
    bool uninitialised = false;
    bool noValueRead = false;
    bool softmaxLike = false;
    bool scalerCheck = false; // the loss scaler's check: reading there is what it is for
    bool scaling = false;     // multiplies: scales the loss when it reads the scale
    // The user's patterns whose op matches, worked out when the op first makes a non-finite
    // value: globs over a million op names would cost more than the walk.
    mutable bool patternsMatched = false;
    mutable std::vector<std::uint16_t> patterns;
};

inline OpTraits traitsOf(std::uint32_t id, bool eager, std::string_view type, std::string_view name)
{
    OpTraits t;
    t.id = id;
    t.eager = eager;
    t.type = type;
    t.name = name;
    t.constant = isConstantWriter(type);
    t.uninitialised = isUninitialisedOutput(type);
    t.noValueRead = consumesNoValue(type);
    t.softmaxLike = isSoftmaxLike(type);
    t.scalerCheck = isLossScalerCheck(type);
    t.scaling = isLossScaling(type);
    return t;
}

// What the counting pass must see of one event, logged by the first walk in execution order
// (intentwalk.hpp): a group's first event, an event that carried non-finite values on, one that
// made uninitialised ones, or a finite value made of a group's values. A walk resumed from a
// saved state (intentwalkstate.hpp) begins its log with a Restored step for each live value it
// took up, whose hop the count already gave: `begin` holds it.
struct Step
{
    enum class Kind : std::uint8_t { Root, Carry, Uninitialised, Absorbed, Restored };
    EventRef event;          // Absorbed: none
    std::uint32_t op = 0;    // Root, Uninitialised, Absorbed: OpTraits::id
    std::uint32_t group = 0; // Root, Carry, Absorbed
    std::uint32_t module = kNoModule;
    std::uint32_t begin = 0; // Carry: its inputs' steps; Root: its graph inputs' traces;
                             // Restored: its hop
    std::uint32_t count = 0;
    Kind kind = Kind::Root;
    std::uint8_t kinds = 0;
    bool eagerOp = false; // OpTraits::eager
};

// The first walk's log of steps: one per non-finite event, about, so that a run of millions of
// them is best served in large pages (largepages.hpp).
using StepLog = std::pmr::vector<Step>;

struct Group
{
    EventRef root;
    Intent construction = Intent::None; // Constant, Expected; None: judged by what reads it
    bool escaped = false;               // first walk: a value of it was not absorbed
    std::uint16_t pattern = 0;          // Expected: which
    // Loss scaling (intent.hpp): made after the loss was scaled, before the scaler's check
    // number `window` + 1; a value of it read after that check by an op that computes, or taken
    // out of the record.
    bool afterScaling = false;
    std::uint32_t window = 0;
    bool escapedScaler = false;
};

// By loss-scaler check: how many checks in a row around it caught something (0 for a clean one).
inline std::vector<std::uint32_t> skipRunsOf(const std::vector<bool>& checkCaught)
{
    std::vector<std::uint32_t> runs(checkCaught.size(), 0);
    for (std::size_t begin = 0; begin < runs.size();) {
        std::size_t end = begin;
        while (end < runs.size() && checkCaught[end])
            ++end;
        std::fill(runs.begin() + static_cast<std::ptrdiff_t>(begin),
                  runs.begin() + static_cast<std::ptrdiff_t>(end),
                  static_cast<std::uint32_t>(end - begin));
        begin = end + 1;
    }
    return runs;
}

} // namespace nanscope::core::intentwalk
