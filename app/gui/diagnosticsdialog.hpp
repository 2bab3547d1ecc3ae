// SPDX-License-Identifier: GPL-3.0-or-later
// "About This Logdir": every notice about a snapshot and every diagnostic its reader found, as
// plain text to read and copy. The banner's Details… button opens it.
#pragma once

#include "nanscope/items/logdirsession.hpp"

#include <QDialog>

class QPlainTextEdit;

namespace nanscope::app {

class DiagnosticsDialog : public QDialog
{
    Q_OBJECT

public:
    // `snapshot` may be null: the dialog is then empty.
    explicit DiagnosticsDialog(const items::SnapshotPtr& snapshot, QWidget* parent = nullptr);

    QString text() const;

    // The dialog's text for `snapshot`: the notices, then what the reader found.
    static QString report(const core::Snapshot& snapshot);

private:
    QPlainTextEdit* m_text = nullptr;
};

} // namespace nanscope::app
