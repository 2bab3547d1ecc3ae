// SPDX-License-Identifier: GPL-3.0-or-later
// "It worked yesterday", "it works in fp32": where two runs of one program part. The executions
// of runs A and B are aligned by their op sequences, and so, separately, are their graph
// execution traces (sequencealign.hpp); the first aligned pair whose health disagrees is the
// divergence.
//
// Keys. An execution is keyed by its op type and PyTorch module path, a trace by its graph's
// name, op name and output slot. TensorFlow's function names end in a uid that shifts when the
// program changes ("__inference_loss_123"): in names that start with "__" trailing digits do
// not count.
//
// Steps. A trace's step is the number of earlier traces of the same op and slot: the call of
// its graph (a training step's graph is called once per step). An execution's step is the
// number of earlier executions with its key: PyTorch's aten::log in module MLP.loss runs once
// per forward pass, where TensorFlow's eager ops may run several times per step (the step is
// then the op's call count, not the training step: a log says nothing more).
//
// Divergence. An aligned pair diverges when the event is finite in one run and non-finite in the
// other (values set aside as intended, intent.hpp, count as finite: a mask's -inf in both runs
// is no divergence, one absorbed in A and not in B is). With CompareOptions::threshold set, a
// pair whose health differs by more than it (healthDifference) diverges too. Events of unknown
// health on either side (NO_TENSOR, SHAPE) are aligned but never diverge. Events present in one
// run only never diverge: the first of them is reported apart, as context.
//
// Cost: the alignment and the finite/non-finite test read the index's digests only, linear in
// the events (10^6 in well under a second). The threshold reads both records of each aligned
// pair up to the first divergence, at most CompareOptions::maxHealthReads pairs.
#pragma once

#include "nanscope/core/details.hpp"
#include "nanscope/core/digests.hpp"
#include "nanscope/core/health.hpp"
#include "nanscope/core/sequencealign.hpp"
#include "nanscope/core/snapshot.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::core {

struct CompareOptions
{
    // nullopt: only finite against non-finite. A relative difference in [0, 1]: also a pair
    // whose healthDifference() is larger (0: any difference at all).
    std::optional<double> threshold;
    // Aligned pairs whose records the threshold may read (two records each, about 10 µs per
    // FULL_HEALTH record): past them the threshold is no longer applied, and the result says so.
    std::uint64_t maxHealthReads = 200000;
    AlignOptions align;
    // Set from another thread to stop early: the result then has `stopped` set.
    const std::atomic_bool* stop = nullptr;
};

enum class DivergenceKind : std::uint8_t {
    None,
    NonFiniteInB, // finite in A, NaN or ±inf in B
    NonFiniteInA, // the other way round
    Magnitude,    // both finite (or both not), health differs beyond the threshold
};

std::string_view toString(DivergenceKind kind); // "none", "nonfinite-in-b", "nonfinite-in-a", …

enum class RunSide : std::uint8_t { A, B };

// One event of one run, with the names a reader needs.
struct CompareEvent
{
    EventRef event;
    double wallTime = 0;
    std::string opType;
    std::string opName;     // a trace's op; empty for an execution
    std::string graphName;  // a trace's graph, or the function an execution called ("" if none)
    std::string modulePath; // an execution's PyTorch module, or ""
    std::uint32_t outputSlot = 0; // a trace's slot; an execution's output shown in `health`
    std::uint64_t step = 0;       // see "Steps" above
    HealthDigest digest;          // of the whole event (an execution: all its outputs)
    bool setAside = false;        // its non-finite values were intended (intent.hpp)
    TensorHealth health;          // read from its record; Detail::None when it cannot tell
};

struct Divergence
{
    DivergenceKind kind = DivergenceKind::None;
    CompareEvent a;
    CompareEvent b;
    double difference = 0; // Magnitude: the healthDifference that passed the threshold
};

// The alignment of one list: executions, or graph execution traces.
struct SequenceComparison
{
    std::uint64_t countA = 0;
    std::uint64_t countB = 0;
    std::uint64_t aligned = 0;
    std::uint64_t onlyInA = 0;
    std::uint64_t onlyInB = 0;
    std::uint64_t fallbacks = 0;          // differences too large for the local diff (AlignStats)
    std::uint64_t healthReads = 0;        // aligned pairs whose records the threshold read
    bool thresholdCut = false;            // maxHealthReads ran out before the divergence or the end
    std::optional<Divergence> divergence; // the first in alignment order
    // The first event present in one run only (context, never the divergence).
    std::optional<RunSide> firstUnmatchedSide;
    std::optional<CompareEvent> firstUnmatched;
};

struct RunComparison
{
    std::string logdirA;
    std::string logdirB;
    std::optional<double> threshold;
    SequenceComparison executions;
    SequenceComparison traces;
    // The earlier of the two lists' divergences by A's wall time (traces first on a tie, as in
    // the origin's execution order); kind None when neither diverged.
    Divergence first;
    bool stopped = false; // CompareOptions::stop was set: the counts are partial
    // Each run's error diagnostics: records lost or not read, so that the comparison covers only
    // what was read (nanscope-report exits 3 for them, as for one logdir).
    std::vector<Diagnostic> errorsA;
    std::vector<Diagnostic> errorsB;
};

// Compares two readable snapshots; an error (naming the run) when either cannot be read.
ReadResult<RunComparison> compareRuns(const Snapshot& a, const Snapshot& b,
                                      const CompareOptions& options = {});

// How different two tensors' health is, from 0 (the same) to 1: the largest difference, over the
// classes both records count (-inf, +inf, NaN; with FULL_HEALTH also negative, zero, positive),
// of the fraction of the elements in that class, so that a batch of another size compares
// alike. nullopt when either counts nothing (CURT_HEALTH, NO_TENSOR, an unreadable record).
std::optional<double> healthDifference(const TensorHealth& a, const TensorHealth& b);

// The relative difference of the largest finite magnitude, |ma - mb| / max(ma, mb), of two full
// tensors whose every value the read kept (kTensorValuesKept); nullopt otherwise.
std::optional<double> magnitudeDifference(const TensorValue& a, const TensorValue& b);

// A readable plain-text rendering (ends with a newline). The first line names the divergence:
// "Run B diverges from run A at Log / op Log (graph loss), step 3: finite in A, 3 -inf
// in B", or says that none was found.
std::string renderCompareText(const RunComparison& comparison);

// "finite", "3 -inf and 1 NaN", "NaN or ±inf", "set aside (-inf)", "unknown": an event's state
// in the sentence above.
std::string describeState(const CompareEvent& event);

} // namespace nanscope::core
