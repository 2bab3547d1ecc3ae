// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/runcompare.hpp"

#include "nanscope/core/origin.hpp"
#include "nanscope/core/plaintext.hpp"
#include "runevents.hpp"
#include "runtokens.hpp"

#include <utility>
#include <vector>

namespace nanscope::core {
namespace {

// One run's side of one list's comparison.
struct Run
{
    const Snapshot& snapshot;
    std::vector<std::uint32_t> tokens;
    const Propagation* propagation;  // null when nothing is non-finite: nothing is set aside
    std::vector<std::uint64_t> seen; // per token: the events visited so far (the next one's step)

    std::uint64_t nextStep(std::uint64_t index)
    {
        const std::uint32_t token = tokens[index];
        if (token >= seen.size())
            seen.resize(token + 1, 0);
        return seen[token]++;
    }
};

class ListScan final : public AlignmentVisitor
{
public:
    ListScan(EventSource source, Run& a, Run& b, const CompareOptions& options,
             SequenceComparison& out)
        : m_source(source), m_a(a), m_b(b), m_options(options), m_out(out)
    {}

    bool stopped() const { return m_stopped; }

    bool matched(std::uint64_t i, std::uint64_t j) override
    {
        const std::uint64_t stepA = m_a.nextStep(i);
        const std::uint64_t stepB = m_b.nextStep(j);
        if (!m_out.divergence)
            check(i, j, stepA, stepB);
        return keepGoing();
    }

    bool onlyInA(std::uint64_t i) override { return unmatched(RunSide::A, m_a, i); }
    bool onlyInB(std::uint64_t j) override { return unmatched(RunSide::B, m_b, j); }

private:
    bool unmatched(RunSide side, Run& run, std::uint64_t index)
    {
        const std::uint64_t step = run.nextStep(index);
        if (!m_out.firstUnmatched) {
            m_out.firstUnmatchedSide = side;
            m_out.firstUnmatched =
                describeEvent(run.snapshot, {m_source, index}, step, run.propagation);
        }
        return keepGoing();
    }

    bool keepGoing()
    {
        // A relaxed load per 4096 events: the GUI's cancel is answered within a millisecond.
        if ((++m_visits & 0xfff) == 0 && stopRequested(m_options.stop))
            m_stopped = true;
        return !m_stopped;
    }

    void check(std::uint64_t i, std::uint64_t j, std::uint64_t stepA, std::uint64_t stepB)
    {
        const EventRef a{m_source, i};
        const EventRef b{m_source, j};
        const EventState stateA = eventState(m_a.snapshot, a, m_a.propagation);
        const EventState stateB = eventState(m_b.snapshot, b, m_b.propagation);
        if (stateA == EventState::Unknown || stateB == EventState::Unknown)
            return;
        if (stateA != stateB) {
            diverge(stateB == EventState::NonFinite ? DivergenceKind::NonFiniteInB
                                                    : DivergenceKind::NonFiniteInA,
                    a, b, stepA, stepB, 0);
            return;
        }
        if (!m_options.threshold)
            return;
        if (!countsRecorded(m_a.snapshot, a) || !countsRecorded(m_b.snapshot, b))
            return;
        if (m_out.healthReads >= m_options.maxHealthReads) {
            m_out.thresholdCut = true;
            return;
        }
        ++m_out.healthReads;
        const auto difference = recordDifference(m_a.snapshot, a, m_b.snapshot, b);
        if (difference && *difference > *m_options.threshold)
            diverge(DivergenceKind::Magnitude, a, b, stepA, stepB, *difference);
    }

    void diverge(DivergenceKind kind, EventRef a, EventRef b, std::uint64_t stepA,
                 std::uint64_t stepB, double difference)
    {
        Divergence d;
        d.kind = kind;
        d.a = describeEvent(m_a.snapshot, a, stepA, m_a.propagation);
        d.b = describeEvent(m_b.snapshot, b, stepB, m_b.propagation);
        d.difference = difference;
        m_out.divergence = std::move(d);
    }

    EventSource m_source;
    Run& m_a;
    Run& m_b;
    const CompareOptions& m_options;
    SequenceComparison& m_out;
    std::uint64_t m_visits = 0;
    bool m_stopped = false;
};

const Propagation* propagationOf(const Snapshot& snapshot)
{
    // The analysis walks the whole index: without an alert nothing is non-finite, so nothing can
    // have been set aside and the walk is skipped (as the report does).
    return snapshot.alertCount() > 0 ? &snapshot.propagation() : nullptr;
}

// Aligns one list of both runs and scans the pairs; false when stopped.
bool compareList(EventSource source, const Snapshot& a, const Snapshot& b,
                 const CompareOptions& options, SequenceComparison& out)
{
    KeyTable keys;
    const bool eager = source == EventSource::Eager;
    Run runA{a,
             eager ? executionTokens(a, keys, options.stop) : traceTokens(a, keys, options.stop),
             propagationOf(a),
             {}};
    Run runB{b,
             eager ? executionTokens(b, keys, options.stop) : traceTokens(b, keys, options.stop),
             propagationOf(b),
             {}};
    if (stopRequested(options.stop))
        return false;
    out.countA = runA.tokens.size();
    out.countB = runB.tokens.size();
    runA.seen.assign(keys.size(), 0);
    runB.seen.assign(keys.size(), 0);
    ListScan scan(source, runA, runB, options, out);
    const AlignStats stats = alignSequences(runA.tokens, runB.tokens, scan, options.align);
    out.aligned = stats.matched;
    out.onlyInA = stats.onlyA;
    out.onlyInB = stats.onlyB;
    out.fallbacks = stats.fallbacks;
    return !scan.stopped();
}

std::vector<Diagnostic> errorsOf(const Snapshot& snapshot)
{
    std::vector<Diagnostic> errors;
    for (const Diagnostic& d : snapshot.diagnostics())
        if (d.severity == Severity::Error)
            errors.push_back(d);
    return errors;
}

std::string unreadable(const char* run, const Snapshot& snapshot)
{
    std::string message = std::string("run ") + run + " could not be read";
    if (!snapshot.diagnostics().empty()) {
        const Diagnostic& first = snapshot.diagnostics().front();
        message += ": ";
        if (!first.file.empty())
            message += printable(first.file) + ": ";
        message += first.message;
    }
    return message;
}

} // namespace

std::string_view toString(DivergenceKind kind)
{
    switch (kind) {
    case DivergenceKind::None:
        return "none";
    case DivergenceKind::NonFiniteInB:
        return "nonfinite-in-b";
    case DivergenceKind::NonFiniteInA:
        return "nonfinite-in-a";
    case DivergenceKind::Magnitude:
        return "magnitude";
    }
    return "none";
}

ReadResult<RunComparison> compareRuns(const Snapshot& a, const Snapshot& b,
                                      const CompareOptions& options)
{
    ReadResult<RunComparison> result;
    if (!a.readable()) {
        result.error = unreadable("A", a);
        return result;
    }
    if (!b.readable()) {
        result.error = unreadable("B", b);
        return result;
    }
    RunComparison c;
    c.logdirA = a.layout().directory.string();
    c.logdirB = b.layout().directory.string();
    c.threshold = options.threshold;
    c.errorsA = errorsOf(a);
    c.errorsB = errorsOf(b);
    c.stopped = !compareList(EventSource::Eager, a, b, options, c.executions) ||
                !compareList(EventSource::Graph, a, b, options, c.traces);
    const auto& executions = c.executions.divergence;
    const auto& traces = c.traces.divergence;
    if (executions && traces)
        c.first = traces->a.wallTime <= executions->a.wallTime ? *traces : *executions;
    else if (executions)
        c.first = *executions;
    else if (traces)
        c.first = *traces;
    result.value = std::move(c);
    return result;
}

} // namespace nanscope::core
