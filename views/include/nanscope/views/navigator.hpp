// SPDX-License-Identifier: GPL-3.0-or-later
// What the user is looking at, shared by every panel: the focused trace or execution, its op,
// its stack and source line, with back/forward history. Panels never talk to each other; they
// ask the Navigator to move and follow its focusChanged signal.
#pragma once

#include "nanscope/core/stackfolding.hpp"
#include "nanscope/items/logdirsession.hpp"

#include <QObject>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::views {

struct Focus
{
    std::optional<core::EventRef> event;    // the focused trace or execution
    core::OpId op = core::kNoOp;            // the focused graph op
    std::vector<std::string> stackFrameIds; // creation stack (op) or call stack (execution)
    std::optional<std::size_t> frame;       // the focused frame: an index into stackFrameIds
    std::optional<std::size_t> fileIndex;   // the source file shown (into the logdir's files)
    int line = 0;                           // 1-based; 0 for none

    friend bool operator==(const Focus&, const Focus&) = default;
};

// The focus a stack gives (frame, file and line; no event): its bottom-most frame in `stickyFile`
// when it has one, else the folded stack's focus frame. On any thread.
Focus focusForStack(const core::Snapshot& snapshot, const core::StackFolding& folding,
                    std::vector<std::string> frameIds, const std::string& stickyFile = {});
// The focus Navigator::focusEvent(event) moves to, worked out on any thread (an execution's
// stack is read from its record). No event when `event` is out of range.
Focus focusForEvent(const core::Snapshot& snapshot, const core::StackFolding& folding,
                    core::EventRef event, const std::string& stickyFile = {});

class Navigator : public QObject
{
    Q_OBJECT

public:
    explicit Navigator(QObject* parent = nullptr);

    // A new snapshot of the same logdir keeps the focus; a null snapshot clears everything.
    void setSnapshot(items::SnapshotPtr snapshot);
    const items::SnapshotPtr& snapshot() const { return m_snapshot; }
    const Focus& focus() const { return m_focus; }

    // Framework frames (path fragments) are skipped when choosing the frame to focus.
    void setFrameworkPatterns(std::vector<std::string> patterns);
    const core::StackFolding& folding() const { return m_folding; }
    // Debugger V2's sticky frame: while set, a newly focused stack focuses its bottom-most frame
    // in this file (when it has one) instead of the user's frame. Empty: off.
    void setStickyFile(std::string filePath) { m_stickyFile = std::move(filePath); }
    const std::string& stickyFile() const { return m_stickyFile; }

    // Moves that become history entries (unless nothing changes).
    void focusTrace(std::uint64_t index);
    void focusExecution(std::uint64_t index);
    void focusEvent(core::EventRef event);
    void focusOp(core::OpId op); // keeps the focused trace if it is of this op
    void focusAlert(std::uint64_t alertIndex);
    bool focusOrigin(); // false when the logdir has no non-finite value
    // A frame of the current stack; moves the source to its file and line.
    void focusFrame(std::size_t frame);
    // A line of a source file, with no change to the stack.
    void focusSource(std::size_t fileIndex, int line);

    bool canGoBack() const { return m_position > 0; }
    bool canGoForward() const { return m_position + 1 < m_history.size(); }
    void back();
    void forward();

Q_SIGNALS:
    void snapshotChanged(const nanscope::items::SnapshotPtr& snapshot);
    void focusChanged(const nanscope::views::Focus& focus);
    void historyChanged();

private:
    void moveTo(const Focus& focus);
    void apply(const Focus& focus);

    items::SnapshotPtr m_snapshot;
    core::StackFolding m_folding;
    std::string m_stickyFile;
    Focus m_focus;
    std::vector<Focus> m_history;
    std::size_t m_position = 0;
};

} // namespace nanscope::views

Q_DECLARE_METATYPE(nanscope::views::Focus)
