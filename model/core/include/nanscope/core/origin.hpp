// SPDX-License-Identifier: GPL-3.0-or-later
// Where the first NaN or infinity came from (root cause, "patient zero").
//
// Execution order merges traces and executions by wall time (ties: traces first, then by trace
// file, then by record order); each file keeps its own record order. A graph trace's inputs are
// its op's input names resolved in the same graph to the most recent trace of that op and slot
// before it (through uninstrumented Identity-like ops); an eager execution's inputs are the
// executions that output its input tensor ids. An input without such a trace, or whose record
// carries no values, has unknown health, which counts as finite.
//
// Values the program made on purpose are set aside first (intent.hpp: an attention mask's −∞,
// uninitialised memory); everywhere below, "non-finite" means non-finite and not set aside, and
// an intended input counts as finite.
//
// The *producer* (the origin) is the first tensor in execution order that is non-finite while
// none of its inputs is; every later non-finite tensor with a non-finite input is a
// *propagator*, whose hop count is the length of the shortest input path back to a producer. A
// later non-finite tensor whose inputs are all finite is an independent producer (hop 0); one
// without any input of known health (no inputs, or none recorded: a variable read, a function
// argument) is counted as an *entry*: its NaN came in from outside what was recorded.
//
// A function call (an execution with a graph id) also counts, as an input, the latest non-finite
// trace of its graph (or of a graph inside it) recorded since the previous execution: the
// function computed its outputs last, although no record links them to the call.
//
// Whether a value was absorbed is known only once every later op has been seen, so the analysis
// walks the whole index twice, the first time either Snapshot::origin() or propagation() is
// asked for: once to judge each group of non-finite values (keeping every tensor id's producer
// and the live non-finite tensors), once to write the hop counts (2 bytes per trace and per
// execution) and describe the origin.
#pragma once

#include "nanscope/core/digests.hpp"
#include "nanscope/core/health.hpp"
#include "nanscope/core/hints.hpp"
#include "nanscope/core/intent.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::core {

struct OriginInput
{
    std::string name;              // "probs:0" for a graph op; "tensor 17" for an eager input
    std::optional<EventRef> event; // what last computed it before the producer, if anything
    TensorHealth health;           // Detail::None when unknown
    std::string healthText;        // health.describe(), or why it is unknown
};

struct Origin
{
    EventRef event;
    double wallTime = 0;
    std::string opType;
    std::string opName;  // empty for an execution
    std::string graphId; // the trace's graph, or the function an execution called ("" if none)
    std::string graphName;
    OpId op = kNoOp; // for a trace
    std::uint32_t outputSlot = 0;
    TensorHealth health; // of the producer's non-finite output
    std::vector<OriginInput> inputs;
    Hint hint;
    std::vector<std::string> stackFrameIds; // creation stack (graph) or call stack (eager)
    // An eager op's framework context (PyTorch): its module, and for a backward op the forward
    // op it differentiates with that op's stack.
    std::string modulePath;
    std::string forwardOpType;
    std::vector<std::string> forwardStackFrameIds;
};

// Hop counts of every non-finite tensor, and what was set aside as intended.
struct Propagation
{
    static constexpr std::uint16_t kFinite = 0xffff;        // not non-finite (or health unknown)
    static constexpr std::uint16_t kIntended = 0xfffe;      // non-finite on purpose (intent.hpp)
    static constexpr std::uint16_t kUninitialised = 0xfffd; // an uninitialised tensor's bits
    static constexpr std::uint16_t kMaxHops = 0xfffc;       // longer paths are clamped to this

    std::vector<std::uint16_t> traceHops;     // by trace index
    std::vector<std::uint16_t> executionHops; // by execution index
    std::uint64_t producers = 0;              // hop 0, with at least one input known to be finite
    std::uint64_t entries = 0;        // hop 0, no input with known health: it came in from outside
    std::uint64_t propagators = 0;    // hop >= 1
    std::uint64_t intendedEvents = 0; // non-finite events set aside as intended
    std::uint64_t uninitialisedEvents = 0;

    // The alerts (Snapshot::alert) by what their event is: counted as NaN/∞, or set aside.
    std::uint64_t countedAlerts = 0;
    std::uint64_t intendedAlerts = 0;
    std::uint64_t uninitialisedAlerts = 0;

    // What was set aside as intended, one group per producing op, in the order of their first
    // event; and the user's patterns that were applied (ReaderOptions and the dump root's file).
    std::vector<SetAside> setAside;
    std::vector<ExpectedPattern> expectedPatterns;

    // 0 for a producer, n for a propagator n hops away; nullopt for anything else.
    std::optional<std::uint16_t> hops(EventRef event) const;
    // Whether the event's non-finite values were set aside (Intended also for Expected).
    bool intended(EventRef event) const;
    bool uninitialised(EventRef event) const;
};

} // namespace nanscope::core
