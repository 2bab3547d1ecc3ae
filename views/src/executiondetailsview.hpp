// SPDX-License-Identifier: GPL-3.0-or-later
// The focused execution's details under the timeline strip: its facts, and one row per output
// slot with a health bar, side by side where the pane is wide, one above the other where it is
// not (so that nothing needs scrolling sideways).
#pragma once

#include "executiondescription.hpp"

#include <QWidget>

class QBoxLayout;
class QFormLayout;
class QLabel;
class QScrollArea;
class QStackedWidget;
class QTreeWidget;

namespace nanscope::views {

class ExecutionDetailsView : public QWidget
{
    Q_OBJECT

public:
    explicit ExecutionDetailsView(QWidget* parent = nullptr);

    void showDescription(const ExecutionDescription& description);
    void showMessage(const QString& message);
    // What is shown, as plain text ("" while a message is shown).
    QString text() const { return m_text; }
    bool sideBySide() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* buildPage();
    QScrollArea* buildFacts(QWidget* page);
    void buildOutputs(QWidget* page);

    QStackedWidget* m_stack;
    QLabel* m_message;
    QLabel* m_title;
    QFormLayout* m_form;
    QBoxLayout* m_columns;
    QTreeWidget* m_outputs;
    QString m_text;
};

} // namespace nanscope::views
