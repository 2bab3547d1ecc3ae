// SPDX-License-Identifier: GPL-3.0-or-later
#include "healthrules.hpp"
#include "nanscope/core/plaintext.hpp"
#include "nanscope/core/runcompare.hpp"

#include <cstdio>
#include <sstream>

namespace nanscope::core {
namespace {

// Strings from either logdir are printed through these, as in the report: nothing in them can
// move the terminal's cursor or run for a megabyte.
constexpr std::size_t kMaxNameChars = 200;

std::string text(std::string_view s)
{
    return printable(s, {.maxChars = kMaxNameChars});
}

std::string eventLabel(EventRef event)
{
    return (event.source == EventSource::Graph ? "graph execution trace #" : "execution #") +
           std::to_string(event.index);
}

// "Log / op Log (graph loss)", "aten::log (module MLP.loss)".
std::string opWords(const CompareEvent& e)
{
    std::string words = e.opType.empty() ? std::string("an unknown op") : text(e.opType);
    if (!e.modulePath.empty())
        words += " (module " + text(e.modulePath) + ")";
    if (!e.opName.empty())
        words += " / op " + text(e.opName);
    if (e.event.source == EventSource::Graph && !e.graphName.empty())
        words += " (graph " + text(e.graphName) + ")";
    if (e.event.source == EventSource::Graph && e.outputSlot != 0)
        words += ", output " + std::to_string(e.outputSlot);
    return words;
}

std::string stepWords(const Divergence& d)
{
    if (d.a.step == d.b.step)
        return "step " + std::to_string(d.a.step);
    return "step " + std::to_string(d.a.step) + " in A, " + std::to_string(d.b.step) + " in B";
}

std::string threshold(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
    return buffer;
}

std::string headline(const RunComparison& c)
{
    const Divergence& d = c.first;
    if (d.kind == DivergenceKind::None) {
        std::string line = "No divergence: every aligned event is finite in both runs or in "
                           "neither";
        if (c.threshold) {
            line += ", and no health differs by more than " + threshold(*c.threshold);
            if (c.executions.thresholdCut || c.traces.thresholdCut)
                line += " in the pairs the threshold read";
        }
        return line;
    }
    std::string line = "Run B diverges from run A at " + opWords(d.b) + ", " + stepWords(d) + ": ";
    if (d.kind == DivergenceKind::Magnitude)
        return line + "its health differs by " + threshold(d.difference) + " (threshold " +
               threshold(c.threshold.value_or(0)) + "): " + describeState(d.a) + " in A, " +
               describeState(d.b) + " in B";
    return line + describeState(d.a) + " in A, " + describeState(d.b) + " in B";
}

std::string side(const CompareEvent& e)
{
    std::string line = eventLabel(e.event) + ", step " + std::to_string(e.step);
    if (e.event.source == EventSource::Eager && e.outputSlot != 0)
        line += ", output " + std::to_string(e.outputSlot);
    line += ": " + (e.health.known() ? e.health.describe() : describeState(e));
    if (e.setAside)
        line += " (set aside as intended)";
    return line;
}

void renderList(std::ostringstream& out, const char* title, const SequenceComparison& s)
{
    out << "\n"
        << title << ": " << s.countA << " in A, " << s.countB << " in B; " << s.aligned
        << " aligned, " << s.onlyInA << " only in A, " << s.onlyInB << " only in B\n";
    if (s.divergence) {
        const Divergence& d = *s.divergence;
        out << "    first divergence (" << toString(d.kind) << "): " << opWords(d.a) << "\n"
            << "        A: " << side(d.a) << "\n"
            << "        B: " << side(d.b) << "\n";
    } else {
        out << "    no divergence\n";
    }
    if (s.firstUnmatched)
        out << "    first event in one run only: "
            << (*s.firstUnmatchedSide == RunSide::A ? "A's " : "B's ")
            << eventLabel(s.firstUnmatched->event) << " " << opWords(*s.firstUnmatched) << ", step "
            << s.firstUnmatched->step << "\n";
    if (s.fallbacks > 0)
        out << "    " << s.fallbacks << (s.fallbacks == 1 ? " difference was" : " differences were")
            << " too large to align op by op (runs of different programs?)\n";
    if (s.thresholdCut)
        out << "    the threshold was applied to the first " << s.healthReads
            << " aligned pairs only (later ones compared finite against non-finite)\n";
}

// A logdir may hold thousands of corrupt records; the first ones say enough here.
constexpr std::size_t kMaxErrorLines = 5;

void renderErrors(std::ostringstream& out, const char* run, const std::vector<Diagnostic>& errors)
{
    if (errors.empty())
        return;
    out << "\nRun " << run << " was not read whole (" << errors.size()
        << (errors.size() == 1 ? " error" : " errors")
        << "): the comparison covers what was read\n";
    for (std::size_t i = 0; i < errors.size() && i < kMaxErrorLines; ++i)
        out << "    " << (errors[i].file.empty() ? "" : text(errors[i].file) + ": ")
            << text(errors[i].message) << "\n";
}

} // namespace

std::string describeState(const CompareEvent& e)
{
    if (!e.digest.known())
        return "unknown";
    if (!e.digest.nonFinite())
        return "finite";
    std::string kinds;
    const auto add = [&kinds](const std::string& part) {
        kinds += (kinds.empty() ? "" : " and ") + part;
    };
    const TensorHealth& h = e.health;
    if (h.detail == TensorHealth::Detail::Counts || h.detail == TensorHealth::Detail::Full) {
        if (h.negativeInfinity > 0)
            add(formatCount(h.negativeInfinity) + " -inf");
        if (h.positiveInfinity > 0)
            add(formatCount(h.positiveInfinity) + " +inf");
        if (h.nan > 0)
            add(formatCount(h.nan) + " NaN");
    }
    if (kinds.empty()) {
        if (e.digest.has(health::NegInf))
            add("-inf");
        if (e.digest.has(health::PosInf))
            add("+inf");
        if (e.digest.has(health::NaN))
            add("NaN");
    }
    if (kinds.empty())
        kinds = "NaN or ±inf";
    return e.setAside ? kinds + " (set aside as intended)" : kinds;
}

std::string renderCompareText(const RunComparison& c)
{
    std::ostringstream out;
    out << headline(c) << "\n\n"
        << "Run A: " << text(c.logdirA) << "\n"
        << "Run B: " << text(c.logdirB) << "\n";
    if (c.first.kind != DivergenceKind::None)
        out << "    A: " << side(c.first.a) << "\n"
            << "    B: " << side(c.first.b) << "\n";
    renderErrors(out, "A", c.errorsA);
    renderErrors(out, "B", c.errorsB);
    renderList(out, "Executions", c.executions);
    renderList(out, "Graph execution traces", c.traces);
    if (c.stopped)
        out << "\nThe comparison was stopped before its end: the counts are partial.\n";
    return out.str();
}

} // namespace nanscope::core
