// SPDX-License-Identifier: GPL-3.0-or-later
#include "healthrules.hpp"
#include "nanscope/core/plaintext.hpp"
#include "nanscope/core/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

namespace nanscope::core {
namespace {

// Every string that came from the logdir is printed through one of these: nothing in it can move
// the terminal's cursor, change its colours or title, or run for a megabyte.
constexpr std::size_t kMaxNameChars = 200;
constexpr std::size_t kMaxLineChars = 400;

std::string text(std::string_view s)
{
    return printable(s, {.maxChars = kMaxNameChars});
}

std::string utc(double seconds)
{
    // Before 1970 or after the year 9999 (or NaN) is not a time this prints: converting such a
    // record's wall time to time_t could even be undefined.
    if (!(seconds > 0 && seconds < 253402300800.0))
        return "unknown";
    const auto t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buffer;
}

std::string eventLabel(EventRef event)
{
    return (event.source == EventSource::Graph ? "graph execution trace #" : "execution #") +
           std::to_string(event.index);
}

std::string alertCounts(const Alert& a)
{
    if (a.counts == Alert::Counts::None)
        return "has NaN or ±inf (CURT_HEALTH records no counts)";
    if (a.invalidSummary)
        return "has NaN or ±inf; invalid summary: " + invalidSummaryReason(a);
    std::string text = formatCount(a.size) + " elements:";
    bool any = false;
    auto part = [&](double n, const char* name) {
        if (n <= 0)
            return;
        text += (any ? ", " : " ") + formatCount(n) + " " + name;
        any = true;
    };
    part(a.negativeInfinity, "-inf");
    part(a.positiveInfinity, "+inf");
    part(a.nan, "NaN");
    return text;
}

std::string graphLabel(const std::string& name, const std::string& id)
{
    return name.empty() ? text(id) : quotedName(name, kMaxNameChars) + " (" + text(id) + ")";
}

std::string opLabel(const std::string& type, const std::string& name)
{
    if (name.empty())
        return text(type);
    return text(type) + " " + quotedName(name, kMaxNameChars);
}

// "-inf and NaN"; the mode may tell that values were non-finite but not which (CURT_HEALTH).
std::string kindsWords(std::uint8_t kinds)
{
    std::string words;
    auto add = [&words](const char* word) {
        words += (words.empty() ? "" : " and ") + std::string(word);
    };
    if (kinds & nonfinite::NegInf)
        add("-inf");
    if (kinds & nonfinite::PosInf)
        add("+inf");
    if (kinds & nonfinite::NaN)
        add("NaN");
    return words.empty() ? "non-finite values" : words;
}

std::string plural(std::uint64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "24 executions of aten::masked_fill (MultiHeadAttention.attn) at model.py:36 made -inf from a
// constant, absorbed by aten::_softmax": what, where, and why it does not count.
std::string setAsideLine(const ReportSetAside& s)
{
    const SetAside& g = s.group;
    std::string line = g.first.source == EventSource::Graph
                           ? plural(g.producers, "graph execution trace", "graph execution traces")
                           : plural(g.producers, "execution", "executions");
    line += " of " + opLabel(g.opType, g.opName);
    if (!g.modulePath.empty())
        line += " (" + text(g.modulePath) + ")";
    if (!s.location.empty())
        line += " at " + text(s.location);
    if (g.intent == Intent::Uninitialised) {
        line += ": allocated and never written, so its bits are no value";
    } else {
        line += " made " + kindsWords(g.kinds);
        if (g.intent == Intent::Constant)
            line += " from a constant";
        else if (g.intent == Intent::Expected)
            line += ", expected by the user (" + text(g.pattern) + ")";
        else if (g.intent == Intent::LossScaled)
            line += " after the loss was scaled (loss scaling's overflow: the scaler skips such "
                    "steps, and found the gradients finite again later)";
    }
    for (std::size_t i = 0; i < g.absorbedBy.size(); ++i)
        line += (i ? ", " : ", absorbed by ") + text(g.absorbedBy[i]);
    return line;
}

// A logdir may set aside thousands of ops; the text shows the first ones, the JSON all.
constexpr std::size_t kMaxSetAsideLines = 20;

// The end of a secondary host's line in "Hosts:", which has non-finite executions.
std::string otherHostNote(const Report& r, const std::string& host)
{
    if (!r.hostOriginsRead)
        return "; alerts and origin are read from the first host only)";
    const bool hasOrigin = std::any_of(r.hostOrigins.begin(), r.hostOrigins.end(),
                                       [&](const ReportHostOrigin& o) { return o.host == host; });
    return hasOrigin ? "; its origin is below)" : "; all set aside as intended)";
}

// Each other host's origin, earliest first, with the command that reports it whole.
void renderHostOrigins(std::ostringstream& out, const Report& r)
{
    if (r.hostOrigins.empty())
        return;
    out << "\nOther hosts' origins, earliest first (each host read as the main one)\n";
    for (const ReportHostOrigin& h : r.hostOrigins) {
        const Origin& o = h.origin.origin;
        out << "    " << text(h.host) << ": " << eventLabel(o.event) << ": "
            << opLabel(o.opType, o.opName);
        if (!o.modulePath.empty())
            out << " in " << text(o.modulePath);
        const FoldedStack& stack = h.origin.stack;
        if (stack.focusFrame) {
            const ResolvedFrame& frame = stack.frames[*stack.focusFrame].frame;
            if (!frame.filePath.empty())
                out << " at " << printable(frame.filePath) << ":" << frame.line;
        }
        out << ", " << o.health.describe();
        if (r.origin) {
            const double lead = r.origin->origin.wallTime - o.wallTime;
            const double size = std::abs(lead);
            char when[64];
            std::snprintf(when, sizeof when, size < 1 ? "; %.1f ms %s" : "; %.2f s %s",
                          size < 1 ? size * 1e3 : size, lead >= 0 ? "before" : "after");
            out << when << " the main host's origin";
        }
        out << "\n        nanscope-report --host " << text(h.host) << " " << printable(r.logdir)
            << "\n";
    }
    if (!r.origin || r.hostOrigins.front().origin.origin.wallTime < r.origin->origin.wallTime)
        out << "    The earliest origin of the run is " << text(r.hostOrigins.front().host)
            << "'s.\n";
}

void renderSetAside(std::ostringstream& out, const Report& r)
{
    if (r.setAside.empty() && r.expectedPatterns.empty())
        return;
    out << "\nSet aside as intended (not counted)\n";
    if (r.setAside.empty())
        out << "    nothing\n";
    for (std::size_t i = 0; i < r.setAside.size() && i < kMaxSetAsideLines; ++i) {
        const ReportSetAside& s = r.setAside[i];
        out << "    " << setAsideLine(s) << "\n";
        out << "        first: " << eventLabel(s.group.first);
        if (s.group.carriers > 0)
            out << "; " << plural(s.group.carriers, "event", "events")
                << " carried them on unchanged";
        out << "\n";
    }
    if (r.setAside.size() > kMaxSetAsideLines)
        out << "    ... and " << r.setAside.size() - kMaxSetAsideLines
            << " more (--json lists them all)\n";
    if (!r.expectedPatterns.empty()) {
        out << "    Expected by the user: ";
        for (std::size_t i = 0; i < r.expectedPatterns.size(); ++i)
            out << (i ? ", " : "") << text(r.expectedPatterns[i].text);
        out << "\n";
    }
}

// "Hosts:", one line per host: where its files are, when it started, what it executed.
void renderHosts(std::ostringstream& out, const Report& r)
{
    out << "Hosts:        ";
    for (std::size_t i = 0; i < r.hosts.size(); ++i)
        out << (i ? "\n              " : "") << text(r.hosts[i].name) << "  ("
            << text(r.hosts[i].prefix) << ", started " << utc(r.hosts[i].wallTime) << ", "
            << r.hosts[i].executions << (r.hosts[i].executions == 1 ? " execution" : " executions")
            << (r.hosts[i].nonFiniteExecutions == 0
                    ? std::string(")")
                    : ", " + std::to_string(r.hosts[i].nonFiniteExecutions) + " with NaN or ±inf" +
                          (i == 0 ? ")" : otherHostNote(r, r.hosts[i].name)));
    out << "\n";
}

// "Alerts:": how many, how TensorBoard's count differs, and how many were set aside.
void renderAlertCount(std::ostringstream& out, const Report& r)
{
    out << "Alerts:       " << r.alertTotal << " InfNanAlert";
    if (r.alertsTensorBoardSkips > 0)
        out << " (" << r.alertsTensorBoardSkips
            << " of bfloat16, float8 or complex values, which TensorBoard does not check)";
    if (r.tensorBoardAlertTotal != r.alertTotal - r.alertsTensorBoardSkips)
        out << " (TensorBoard stops counting at " << r.tensorBoardAlertTotal << ")";
    if (r.intendedAlerts + r.uninitialisedAlerts > 0) {
        out << ": " << r.countedAlerts << " counted, " << r.intendedAlerts
            << " set aside as intended";
        if (r.uninitialisedAlerts > 0)
            out << ", " << r.uninitialisedAlerts << " of uninitialised memory";
    }
    out << "\n";
}

// What TensorBoard would show where it stops at a corrupt record and NaNscope reads on.
void renderTensorBoardStops(std::ostringstream& out, const Report& r)
{
    if (r.tensorBoardStops.empty())
        return;
    out << "TensorBoard:  " << r.tensorBoardExecutions << " executions, " << r.tensorBoardTraces
        << " graph execution traces, " << r.tensorBoardAlertTotal
        << " InfNanAlert: it stops reading at the first corrupt record of";
    for (const auto& stop : r.tensorBoardStops)
        out << "\n              " << printable(stop.file) << " (offset " << stop.offset << ")";
    out << "\n";
}

// The header: the run, its hosts, its writer, and what the logdir holds.
void renderSummary(std::ostringstream& out, const Report& r)
{
    if (!r.readable) {
        out << "No tfdbg2 data could be read.\n";
        return;
    }
    out << "Run:          " << (r.runId.empty() ? "(no run id)" : text(r.runId)) << "\n";
    renderHosts(out, r);
    out << "Written by:   " << (r.tensorflowVersion.empty() ? "unknown" : text(r.tensorflowVersion))
        << (r.fileVersion.empty() ? "" : "  (file version " + text(r.fileVersion) + ")") << "\n";
    out << "Modes:        ";
    for (std::size_t i = 0; i < r.tensorDebugModes.size(); ++i)
        out << (i ? ", " : "") << r.tensorDebugModes[i];
    out << (r.tensorDebugModes.empty() ? "(no traces or executions)" : "") << "\n";
    const auto& c = r.counts;
    out << "Counts:       " << c.executions << " executions, " << c.graphExecutionTraces
        << " graph execution traces, " << c.graphs << " graphs, " << c.graphOps << " graph ops, "
        << c.stackFrames << " stack frames, " << c.sourceFiles << " source files\n";
    renderAlertCount(out, r);
    renderTensorBoardStops(out, r);
}

void renderFirstAlert(std::ostringstream& out, const Report& r)
{
    if (!r.firstAlert)
        return;
    const auto& a = *r.firstAlert;
    out << "\nTensorBoard's first alert\n";
    out << "    " << eventLabel(a.alert.event) << ": " << opLabel(a.opType, a.opName) << ", output "
        << a.alert.outputSlot;
    if (!a.graphId.empty())
        out << ", graph " << graphLabel(a.graphName, a.graphId);
    out << "\n    " << alertCounts(a.alert) << "\n";
}

// The origin's op, module, forward op, output and inputs.
void renderOriginOp(std::ostringstream& out, const ReportOrigin& ro)
{
    const auto& o = ro.origin;
    out << "    " << eventLabel(o.event) << ": " << opLabel(o.opType, o.opName) << ", output "
        << o.outputSlot;
    if (!o.graphId.empty())
        out << ", graph " << graphLabel(o.graphName, o.graphId);
    out << "\n";
    if (!o.modulePath.empty())
        out << "    module: " << text(o.modulePath) << "\n";
    if (!o.forwardOpType.empty()) {
        out << "    backward of: " << text(o.forwardOpType);
        if (const auto& fs = ro.forwardStack; fs.focusFrame) {
            const ResolvedFrame& f = fs.frames[*fs.focusFrame].frame;
            out << " at " << text(f.filePath) << ":" << f.line << " in " << text(f.function);
        }
        out << "\n";
    }
    out << "    output: " << o.health.describe() << "\n";
    if (o.inputs.empty())
        return;
    out << "    inputs:\n";
    for (const auto& in : o.inputs) {
        out << "      " << text(in.name);
        if (in.event)
            out << "  (" << eventLabel(*in.event) << ")";
        out << ": " << in.healthText << "\n";
    }
}

// The hint, and how many ops of the whole logdir made or passed on non-finite values.
void renderOriginHint(std::ostringstream& out, const ReportOrigin& ro)
{
    // The hint may quote the op type.
    out << "    why:  " << printable(ro.origin.hint.cause) << "\n";
    out << "    fix:  " << printable(ro.origin.hint.fix) << "\n";
    out << "    in the whole logdir: " << ro.producers
        << (ro.producers == 1 ? " producer, " : " producers, ") << ro.propagators
        << (ro.propagators == 1 ? " propagator" : " propagators");
    if (ro.entries > 0)
        out << ", " << ro.entries << " non-finite value" << (ro.entries == 1 ? "" : "s")
            << " entering without recorded inputs (variables, arguments)";
    out << "\n";
}

// The stack that created the op, outermost first, each run of framework frames folded into one
// line (but never the focus frame, marked >).
void renderOriginStack(std::ostringstream& out, const FoldedStack& stack)
{
    if (stack.frames.empty())
        return;
    out << "    created at (outermost first; framework frames folded):\n";
    std::size_t folded = 0;
    auto flush = [&] {
        if (folded > 0)
            out << "        ... " << folded << " framework frame" << (folded == 1 ? "" : "s")
                << "\n";
        folded = 0;
    };
    for (std::size_t i = 0; i < stack.frames.size(); ++i) {
        const auto& f = stack.frames[i];
        if (f.framework && stack.focusFrame != i) {
            ++folded;
            continue;
        }
        flush();
        const bool focus = stack.focusFrame == i;
        out << (focus ? "      > " : "        ")
            << (f.frame.filePath.empty() ? "(unknown frame " + text(f.frame.id) + ")"
                                         : text(f.frame.filePath))
            << ":" << f.frame.line << " in " << text(f.frame.function) << "\n";
    }
    flush();
    if (!stack.userFrame)
        out << "    every frame is framework code (see --framework-pattern): the frame "
               "marked > is the nearest to the op, not the user's\n";
}

// The user's lines around the focus line, from the logdir's copy of the file.
void renderOriginSource(std::ostringstream& out, const std::optional<SourceExcerpt>& source)
{
    if (!source)
        return;
    const auto& s = *source;
    out << "    source (from the logdir's copy of " << text(s.filePath) << "):\n";
    for (std::size_t i = 0; i < s.lines.size(); ++i) {
        const int number = s.firstLine + static_cast<int>(i);
        char prefix[32];
        std::snprintf(prefix, sizeof prefix, "    %s %5d | ", number == s.focusLine ? ">" : " ",
                      number);
        out << prefix << printable(s.lines[i], {.maxChars = kMaxLineChars, .keepTabs = true})
            << "\n";
    }
}

// Why a readable logdir has no origin: nothing non-finite, all of it set aside, or not found.
void renderNoOrigin(std::ostringstream& out, const Report& r)
{
    if (r.alertTotal == 0)
        out << "\nOrigin: none (no non-finite value was recorded)\n";
    else if (r.countedAlerts == 0)
        out << "\nOrigin: none. No unintended NaN or infinity was found: every non-finite "
               "value recorded was set aside (below)\n";
    else
        out << "\nOrigin: none found for the " << r.countedAlerts << " alerts that count\n";
    if (!r.hostOrigins.empty() && !r.hosts.empty())
        out << "    (on the main host, " << text(r.hosts.front().name)
            << "; other hosts made non-finite values: below)\n";
}

void renderOrigin(std::ostringstream& out, const Report& r)
{
    if (!r.origin) {
        if (r.readable)
            renderNoOrigin(out, r);
        return;
    }
    out << "\nOrigin: the first non-finite value in execution order\n";
    renderOriginOp(out, *r.origin);
    renderOriginHint(out, *r.origin);
    renderOriginStack(out, r.origin->stack);
    renderOriginSource(out, r.origin->source);
}

void renderDiagnostics(std::ostringstream& out, const Report& r)
{
    if (r.diagnostics.empty())
        return;
    out << "\nDiagnostics\n";
    for (const auto& d : r.diagnostics) {
        out << "    " << toString(d.severity) << ": ";
        if (!d.file.empty())
            out << printable(d.file);
        if (d.offset)
            out << " at offset " << *d.offset;
        out << (d.file.empty() && !d.offset ? "" : ": ") << printable(d.message) << "\n";
    }
}

} // namespace

std::string renderText(const Report& r)
{
    std::ostringstream out;
    out << "NaNscope report for " << printable(r.logdir) << "\n\n";
    renderSummary(out, r);
    renderFirstAlert(out, r);
    renderOrigin(out, r);
    renderHostOrigins(out, r);
    renderSetAside(out, r);
    renderDiagnostics(out, r);
    return out.str();
}

} // namespace nanscope::core
