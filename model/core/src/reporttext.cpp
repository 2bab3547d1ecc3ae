// SPDX-License-Identifier: GPL-3.0-or-later
#include "healthrules.hpp"
#include "nanscope/core/plaintext.hpp"
#include "nanscope/core/report.hpp"

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

} // namespace

std::string renderText(const Report& r)
{
    std::ostringstream out;
    out << "NaNscope report for " << printable(r.logdir) << "\n\n";
    if (!r.readable) {
        out << "No tfdbg2 data could be read.\n";
    } else {
        out << "Run:          " << (r.runId.empty() ? "(no run id)" : text(r.runId)) << "\n";
        out << "Hosts:        ";
        for (std::size_t i = 0; i < r.hosts.size(); ++i)
            out << (i ? "\n              " : "") << text(r.hosts[i].name) << "  ("
                << text(r.hosts[i].prefix) << ", started " << utc(r.hosts[i].wallTime) << ", "
                << r.hosts[i].executions
                << (r.hosts[i].executions == 1 ? " execution)" : " executions)");
        out << "\n";
        out << "Written by:   "
            << (r.tensorflowVersion.empty() ? "unknown" : text(r.tensorflowVersion))
            << (r.fileVersion.empty() ? "" : "  (file version " + text(r.fileVersion) + ")")
            << "\n";
        out << "Modes:        ";
        for (std::size_t i = 0; i < r.tensorDebugModes.size(); ++i)
            out << (i ? ", " : "") << r.tensorDebugModes[i];
        out << (r.tensorDebugModes.empty() ? "(no traces or executions)" : "") << "\n";
        const auto& c = r.counts;
        out << "Counts:       " << c.executions << " executions, " << c.graphExecutionTraces
            << " graph execution traces, " << c.graphs << " graphs, " << c.graphOps
            << " graph ops, " << c.stackFrames << " stack frames, " << c.sourceFiles
            << " source files\n";
        out << "Alerts:       " << r.alertTotal << " InfNanAlert";
        if (r.tensorBoardAlertTotal != r.alertTotal)
            out << " (TensorBoard stops counting at " << r.tensorBoardAlertTotal << ")";
        out << "\n";
        if (!r.tensorBoardStops.empty()) {
            out << "TensorBoard:  " << r.tensorBoardExecutions << " executions, "
                << r.tensorBoardTraces << " graph execution traces, " << r.tensorBoardAlertTotal
                << " InfNanAlert: it stops reading at the first corrupt record of";
            for (const auto& stop : r.tensorBoardStops)
                out << "\n              " << printable(stop.file) << " (offset " << stop.offset
                    << ")";
            out << "\n";
        }
    }

    if (r.firstAlert) {
        const auto& a = *r.firstAlert;
        out << "\nTensorBoard's first alert\n";
        out << "    " << eventLabel(a.alert.event) << ": " << opLabel(a.opType, a.opName)
            << ", output " << a.alert.outputSlot;
        if (!a.graphId.empty())
            out << ", graph " << graphLabel(a.graphName, a.graphId);
        out << "\n    " << alertCounts(a.alert) << "\n";
    }

    if (r.origin) {
        const auto& ro = *r.origin;
        const auto& o = ro.origin;
        out << "\nOrigin: the first non-finite value in execution order\n";
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
        if (!o.inputs.empty()) {
            out << "    inputs:\n";
            for (const auto& in : o.inputs) {
                out << "      " << text(in.name);
                if (in.event)
                    out << "  (" << eventLabel(*in.event) << ")";
                out << ": " << in.healthText << "\n";
            }
        }
        // The hint may quote the op type.
        out << "    why:  " << printable(o.hint.cause) << "\n";
        out << "    fix:  " << printable(o.hint.fix) << "\n";
        out << "    in the whole logdir: " << ro.producers
            << (ro.producers == 1 ? " producer, " : " producers, ") << ro.propagators
            << (ro.propagators == 1 ? " propagator" : " propagators");
        if (ro.entries > 0)
            out << ", " << ro.entries << " non-finite value" << (ro.entries == 1 ? "" : "s")
                << " entering without recorded inputs (variables, arguments)";
        out << "\n";
        if (!ro.stack.frames.empty()) {
            out << "    created at (outermost first; framework frames folded):\n";
            std::size_t folded = 0;
            auto flush = [&] {
                if (folded > 0)
                    out << "        ... " << folded << " framework frame"
                        << (folded == 1 ? "" : "s") << "\n";
                folded = 0;
            };
            for (std::size_t i = 0; i < ro.stack.frames.size(); ++i) {
                const auto& f = ro.stack.frames[i];
                if (f.framework && ro.stack.focusFrame != i) {
                    ++folded;
                    continue;
                }
                flush();
                const bool focus = ro.stack.focusFrame == i;
                out << (focus ? "      > " : "        ")
                    << (f.frame.filePath.empty() ? "(unknown frame " + text(f.frame.id) + ")"
                                                 : text(f.frame.filePath))
                    << ":" << f.frame.line << " in " << text(f.frame.function) << "\n";
            }
            flush();
            if (!ro.stack.userFrame)
                out << "    every frame is framework code (see --framework-pattern): the frame "
                       "marked > is the nearest to the op, not the user's\n";
        }
        if (ro.source) {
            const auto& s = *ro.source;
            out << "    source (from the logdir's copy of " << text(s.filePath) << "):\n";
            for (std::size_t i = 0; i < s.lines.size(); ++i) {
                const int number = s.firstLine + static_cast<int>(i);
                char prefix[32];
                std::snprintf(prefix, sizeof prefix, "    %s %5d | ",
                              number == s.focusLine ? ">" : " ", number);
                out << prefix
                    << printable(s.lines[i], {.maxChars = kMaxLineChars, .keepTabs = true}) << "\n";
            }
        }
    } else if (r.readable) {
        out << "\nOrigin: none (no non-finite value was recorded)\n";
    }

    if (!r.diagnostics.empty()) {
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
    return out.str();
}

} // namespace nanscope::core
