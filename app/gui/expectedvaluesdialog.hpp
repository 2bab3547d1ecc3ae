// SPDX-License-Identifier: GPL-3.0-or-later
// "Expected Values…": the patterns of non-finite values the user treats as expected in the open
// logdir, to look at, add to and remove. The window keeps them and reads the logdir again.
#pragma once

#include <QDialog>
#include <QStringList>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QVBoxLayout;

namespace nanscope::app {

class ExpectedValuesDialog : public QDialog
{
    Q_OBJECT

public:
    // `patterns`: this logdir's list; `fromCommandLine`: those --expect adds to every logdir,
    // shown but not editable here.
    ExpectedValuesDialog(const QString& logdir, const QStringList& patterns,
                         const QStringList& fromCommandLine, QWidget* parent = nullptr);

    QStringList patterns() const;
    // Adds the field's pattern; false (with the reason shown) when it is not one.
    bool addPattern(const QString& pattern);
    void removeSelected();

private:
    QHBoxLayout* buildAddRow();
    QVBoxLayout* buildRemoveButtons();
    QLabel* commandLineNote(const QStringList& fromCommandLine);
    void updateButtons();

    QListWidget* m_list = nullptr;
    QLineEdit* m_field = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_removeAll = nullptr;
};

} // namespace nanscope::app
