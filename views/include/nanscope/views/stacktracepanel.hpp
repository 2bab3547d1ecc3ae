// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger V2's Stack Trace: the creation stack of the focused op (or the call stack of the
// focused execution), with framework frames folded away, the focused frame selected, and
// Debugger V2's sticky frame: clicking the bottom-most frame of a file keeps later stacks on
// their bottom-most frame of that file.
#pragma once

#include "nanscope/views/panel.hpp"

#include <QStringList>

class QHBoxLayout;
class QLabel;
class QSortFilterProxyModel;
class QToolButton;

namespace nanscope::items {
class StackTraceModel;
}
namespace nanscope::widgets {
class CopyableTableView;
class ElidedLabel;
} // namespace nanscope::widgets

namespace nanscope::views {

class StackTracePanel : public Panel
{
    Q_OBJECT

public:
    explicit StackTracePanel(Navigator* navigator, QWidget* parent = nullptr);
    ~StackTracePanel() override;

    widgets::CopyableTableView* view() const;
    items::StackTraceModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }

    // Path fragments that mark framework frames (for the list and for choosing the frame to
    // focus); empty restores the defaults.
    void setFrameworkPatterns(const QStringList& patterns);
    QStringList frameworkPatterns() const { return m_patterns; }
    static QStringList defaultFrameworkPatterns();
    void setFrameworkFramesShown(bool shown);
    bool frameworkFramesShown() const;
    // The model row of the focused frame, or -1.
    int focusedFrameRow() const;
    QString headerText() const;

public Q_SLOTS:
    // What a click on a frame does: focuses it (its file and line go to the source view) and
    // sets or clears the sticky file.
    void activateFrame(int modelRow);
    // Asks for new patterns in a dialog.
    void editFrameworkPatterns();

Q_SIGNALS:
    // The user changed the patterns (for the application's settings).
    void frameworkPatternsEdited(const QStringList& patterns);

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;

private:
    QHBoxLayout* buildTools();
    void buildTable();
    void updateHeader(const Focus& focus);
    void updateFoldButton();
    void updateSticky();
    void selectFocusedFrame();

    items::StackTraceModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    widgets::CopyableTableView* m_view = nullptr;
    widgets::ElidedLabel* m_header = nullptr;
    QToolButton* m_fold = nullptr;
    QToolButton* m_patternsButton = nullptr;
    QLabel* m_sticky = nullptr;
    QToolButton* m_unstick = nullptr;
    QLabel* m_placeholder = nullptr;
    QStringList m_patterns;
    std::vector<std::string> m_frameIds;
    bool m_applyingFocus = false;
};

} // namespace nanscope::views
