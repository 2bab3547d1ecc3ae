// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosticsdialog.hpp"

#include "nanscope/views/snapshotnotices.hpp"

#include <QDialogButtonBox>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace nanscope::app {

DiagnosticsDialog::DiagnosticsDialog(const items::SnapshotPtr& snapshot, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("About This Logdir"));
    m_text = new QPlainTextEdit(this);
    m_text->setReadOnly(true);
    if (snapshot)
        m_text->setPlainText(report(*snapshot));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addWidget(buttons);
    resize(720, 420);
}

QString DiagnosticsDialog::text() const
{
    return m_text->toPlainText();
}

QString DiagnosticsDialog::report(const core::Snapshot& snapshot)
{
    QStringList parts;
    for (const views::SnapshotNotice& notice : views::snapshotNotices(snapshot))
        parts << notice.title + QLatin1Char('\n') + notice.text;
    const QString diagnostics = views::diagnosticsText(snapshot);
    if (!diagnostics.isEmpty())
        parts << tr("What the reader found:") + QLatin1Char('\n') + diagnostics;
    return parts.join(QStringLiteral("\n\n"));
}

} // namespace nanscope::app
