// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/snapshotnotices.hpp"

#include "nanscope/items/fromstd.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <algorithm>

namespace nanscope::views {

using items::fromStd;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("nanscope::views::SnapshotNotices", text);
}

QString describe(const core::Diagnostic& d)
{
    QString text = fromStd(d.message);
    if (!d.file.empty())
        text = QFileInfo(fromStd(d.file)).fileName() +
               (d.offset ? QStringLiteral(" @%1").arg(*d.offset) : QString()) +
               QStringLiteral(": ") + text;
    return text;
}

bool onlyModes(core::DebugModeSet modes, core::DebugModeSet allowed)
{
    return modes != 0 && (modes & ~allowed) == 0;
}

} // namespace

std::vector<SnapshotNotice> snapshotNotices(const core::Snapshot& snapshot)
{
    using S = SnapshotNotice::Severity;
    std::vector<SnapshotNotice> notices;
    const auto& diagnostics = snapshot.diagnostics();
    // Problems, not lines: a capped list's last line counts the problems it does not show.
    const auto count = [&](core::Severity severity) {
        std::uint64_t problems = 0;
        for (const core::Diagnostic& d : diagnostics)
            if (d.severity == severity)
                problems += d.problems;
        return problems;
    };
    const auto first = [&](core::Severity severity) {
        return std::find_if(diagnostics.begin(), diagnostics.end(),
                            [&](const core::Diagnostic& d) { return d.severity == severity; });
    };

    if (!snapshot.readable()) {
        const auto error = first(core::Severity::Error);
        notices.push_back({S::Error, tr("This is not a tfdbg2 logdir"),
                           error != diagnostics.end()
                               ? describe(*error)
                               : tr("No tfdbg_events.* files could be read here.")});
        return notices;
    }

    if (const auto errors = count(core::Severity::Error); errors > 0)
        notices.push_back({S::Error,
                           errors == 1 ? tr("A record could not be read")
                                       : tr("%1 records could not be read").arg(errors),
                           describe(*first(core::Severity::Error)) +
                               tr(" — everything else was read and is shown.")});

    const bool noEvents = snapshot.traceCount() == 0 && snapshot.executionCount() == 0;
    const core::DebugModeSet modes = snapshot.traceModes() | snapshot.executionModes();
    if (noEvents) {
        notices.push_back(
            {S::Warning, tr("The logdir holds no events yet"),
             tr("Its files hold no execution and no graph trace. A program that records with a "
                "circular buffer (TensorFlow's default keeps the last 1000 events in memory) "
                "writes them only when it flushes or exits: let it finish, or record with "
                "circular_buffer_size=-1. Turn on View › Follow Logdir to see events as they "
                "are written.")});
    } else if (snapshot.traceCount() == 0) {
        notices.push_back(
            {S::Info, tr("Eager-only run: no graph execution traces"),
             tr("Every op ran eagerly (PyTorch, or TensorFlow without tf.function or with "
                "tf.config.run_functions_eagerly(True)), so Graph Execution stays empty: "
                "Executions lists every op, the execution timeline shows them in time, and "
                "Graph Structure shows the focused execution with those that produced its "
                "inputs and read its outputs.")});
    }
    if (onlyModes(modes, core::modeBit(core::DebugMode::NoTensor) |
                             core::modeBit(core::DebugMode::Shape))) {
        notices.push_back(
            {S::Warning, tr("Recorded without values (NO_TENSOR or SHAPE mode)"),
             tr("These modes record which ops ran, but no values, so no NaN or ∞ can be found. "
                "Record with tensor_debug_mode=\"FULL_HEALTH\" to find where they come from.")});
    } else if (onlyModes(modes, core::modeBit(core::DebugMode::CurtHealth) |
                                    core::modeBit(core::DebugMode::NoTensor))) {
        notices.push_back(
            {S::Info, tr("CURT_HEALTH tells only whether a tensor had NaN or ∞"),
             tr("Counts of each kind of value need FULL_HEALTH (or CONCISE_HEALTH).")});
    }
    if (const auto warnings = count(core::Severity::Warning); warnings > 0)
        notices.push_back({S::Warning,
                           warnings == 1 ? tr("The reader worked around a problem")
                                         : tr("The reader worked around %1 problems").arg(warnings),
                           describe(*first(core::Severity::Warning))});
    std::stable_sort(notices.begin(), notices.end(),
                     [](const SnapshotNotice& a, const SnapshotNotice& b) {
                         return static_cast<int>(a.severity) > static_cast<int>(b.severity);
                     });
    return notices;
}

QString diagnosticsText(const core::Snapshot& snapshot)
{
    QStringList lines;
    for (const core::Diagnostic& d : snapshot.diagnostics()) {
        QString line = fromStd(core::toString(d.severity)) + QStringLiteral(": ");
        if (!d.file.empty())
            line += QDir::toNativeSeparators(fromStd(d.file)) +
                    (d.offset ? QStringLiteral(" @%1").arg(*d.offset) : QString()) +
                    QStringLiteral(": ");
        lines << line + fromStd(d.message);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace nanscope::views
