// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/navigator.hpp"

namespace nanscope::views {
namespace {

constexpr std::size_t kMaxHistory = 256;

} // namespace

Navigator::Navigator(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<Focus>();
}

void Navigator::setSnapshot(items::SnapshotPtr snapshot)
{
    const bool keep = items::sameLogdir(m_snapshot, snapshot);
    m_snapshot = std::move(snapshot);
    if (!keep) {
        m_history.clear();
        m_position = 0;
        m_focus = {};
    }
    Q_EMIT snapshotChanged(m_snapshot);
    if (!keep) {
        Q_EMIT focusChanged(m_focus);
        Q_EMIT historyChanged();
    }
}

void Navigator::setFrameworkPatterns(std::vector<std::string> patterns)
{
    m_folding = patterns.empty() ? core::StackFolding() : core::StackFolding(std::move(patterns));
}

Focus focusForStack(const core::Snapshot& snapshot, const core::StackFolding& folding,
                    std::vector<std::string> frameIds, const std::string& stickyFile)
{
    Focus focus;
    focus.stackFrameIds = std::move(frameIds);
    const core::FoldedStack stack = folding.fold(snapshot.resolveStack(focus.stackFrameIds));
    // The sticky file's bottom-most frame; else the stack's focus frame (the user's own, or a
    // stand-in when every frame is framework code).
    std::optional<std::size_t> chosen;
    for (std::size_t i = stack.frames.size(); !stickyFile.empty() && !chosen && i-- > 0;)
        if (stack.frames[i].frame.filePath == stickyFile)
            chosen = i;
    if (!chosen)
        chosen = stack.focusFrame;
    if (chosen) {
        focus.frame = *chosen;
        focus.fileIndex = stack.frames[*chosen].frame.fileIndex;
        focus.line = stack.frames[*chosen].frame.line;
    }
    return focus;
}

Focus focusForEvent(const core::Snapshot& snapshot, const core::StackFolding& folding,
                    core::EventRef event, const std::string& stickyFile)
{
    Focus focus;
    if (event.source == core::EventSource::Graph) {
        if (event.index >= snapshot.traceCount())
            return focus;
        const core::TraceDigest trace = snapshot.trace(event.index);
        if (trace.op != core::kNoOp)
            focus = focusForStack(snapshot, folding, snapshot.graphs().op(trace.op).stackFrameIds,
                                  stickyFile);
        focus.op = trace.op;
    } else {
        if (event.index >= snapshot.executionCount())
            return focus;
        if (const auto details = snapshot.readExecution(event.index))
            focus = focusForStack(snapshot, folding, details->stackFrameIds, stickyFile);
    }
    focus.event = event;
    return focus;
}

void Navigator::focusTrace(std::uint64_t index)
{
    focusEvent({core::EventSource::Graph, index});
}

void Navigator::focusExecution(std::uint64_t index)
{
    focusEvent({core::EventSource::Eager, index});
}

void Navigator::focusEvent(core::EventRef event)
{
    if (!m_snapshot)
        return;
    // No event in it: out of range, nothing to move to.
    if (Focus focus = focusForEvent(*m_snapshot, m_folding, event, m_stickyFile); focus.event)
        moveTo(focus);
}

void Navigator::focusOp(core::OpId op)
{
    if (!m_snapshot || op >= m_snapshot->graphs().ops().size())
        return;
    Focus focus = focusForStack(*m_snapshot, m_folding, m_snapshot->graphs().op(op).stackFrameIds,
                                m_stickyFile);
    focus.op = op;
    if (m_focus.event && m_focus.event->source == core::EventSource::Graph &&
        m_snapshot->trace(m_focus.event->index).op == op)
        focus.event = m_focus.event;
    moveTo(focus);
}

void Navigator::focusAlert(std::uint64_t alertIndex)
{
    if (m_snapshot && alertIndex < m_snapshot->alertCount())
        focusEvent(m_snapshot->alert(alertIndex).event);
}

bool Navigator::focusOrigin()
{
    if (!m_snapshot || !m_snapshot->origin())
        return false;
    focusEvent(m_snapshot->origin()->event);
    return true;
}

void Navigator::focusFrame(std::size_t frame)
{
    if (!m_snapshot || frame >= m_focus.stackFrameIds.size())
        return;
    const core::ResolvedFrame resolved = m_snapshot->code().resolve(m_focus.stackFrameIds[frame]);
    Focus focus = m_focus;
    focus.frame = frame;
    focus.fileIndex = resolved.fileIndex;
    focus.line = resolved.line;
    moveTo(focus);
}

void Navigator::focusSource(std::size_t fileIndex, int line)
{
    if (!m_snapshot || fileIndex >= m_snapshot->code().files().size())
        return;
    Focus focus = m_focus;
    focus.fileIndex = fileIndex;
    focus.line = line;
    moveTo(focus);
}

void Navigator::moveTo(const Focus& focus)
{
    if (focus == m_focus && !m_history.empty())
        return;
    if (!m_history.empty())
        m_history.resize(m_position + 1); // a new move forgets the forward history
    m_history.push_back(focus);
    if (m_history.size() > kMaxHistory)
        m_history.erase(m_history.begin());
    m_position = m_history.size() - 1;
    apply(focus);
    Q_EMIT historyChanged();
}

void Navigator::apply(const Focus& focus)
{
    m_focus = focus;
    Q_EMIT focusChanged(m_focus);
}

void Navigator::back()
{
    if (!canGoBack())
        return;
    --m_position;
    apply(m_history[m_position]);
    Q_EMIT historyChanged();
}

void Navigator::forward()
{
    if (!canGoForward())
        return;
    ++m_position;
    apply(m_history[m_position]);
    Q_EMIT historyChanged();
}

} // namespace nanscope::views
