// SPDX-License-Identifier: GPL-3.0-or-later
// File › Compare With…: the window's logdir is run A; this dialog loads run B (a session of its
// own, off the GUI thread), compares them in its Compare view (views::ComparePanel), and shows
// run A's events in the main window when asked.
#pragma once

#include "nanscope/items/logdirsession.hpp"

#include <QDialog>

namespace nanscope::views {
class ComparePanel;
class Navigator;
} // namespace nanscope::views

namespace nanscope::app {

class CompareDialog : public QDialog
{
    Q_OBJECT

public:
    // `runA` is the window's session and `navigator` its focus; both outlive the dialog.
    CompareDialog(items::LogdirSession* runA, views::Navigator* navigator,
                  QWidget* parent = nullptr);
    ~CompareDialog() override;

    // Reads `path` as run B and compares the window's logdir with it.
    void compareWith(const QString& path);

    views::ComparePanel* panel() const { return m_panel; }
    items::LogdirSession* runB() const { return m_runB; }
    // While run B loads or the comparison runs.
    bool isBusy() const;

Q_SIGNALS:
    // The Compare view shows a result, or why there is none.
    void comparisonShown();

private:
    void onRunBLoaded(bool cancelled);
    void showInWindow(core::EventRef event);

    items::LogdirSession* m_runA;
    views::Navigator* m_navigator;
    items::LogdirSession* m_runB;
    views::ComparePanel* m_panel;
    items::SnapshotPtr m_comparedA; // the window's snapshot the comparison is of
};

} // namespace nanscope::app
