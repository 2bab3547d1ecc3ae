// SPDX-License-Identifier: GPL-3.0-or-later
// The focused execution's details under the timeline strip: its facts on the left, one row per
// output slot with a health bar on the right.
#pragma once

#include "executiondescription.hpp"

#include <QWidget>

class QFormLayout;
class QLabel;
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

private:
    QStackedWidget* m_stack;
    QLabel* m_message;
    QLabel* m_title;
    QFormLayout* m_form;
    QTreeWidget* m_outputs;
    QString m_text;
};

} // namespace nanscope::views
