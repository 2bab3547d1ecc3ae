// SPDX-License-Identifier: GPL-3.0-or-later
#include "expectedvaluesdialog.hpp"

#include "nanscope/core/intent.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "recentlogdirs.hpp"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace nanscope::app {

ExpectedValuesDialog::ExpectedValuesDialog(const QString& logdir, const QStringList& patterns,
                                           const QStringList& fromCommandLine, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Expected Values"));
    // Paths and patterns come from the user and the logdir: plain text only.
    QLabel* intro = widgets::plainLabel(
        tr("Non-finite values of these ops are set aside as intended in %1: they are not "
           "counted, and the origin is looked for elsewhere. A pattern is OP[:KINDS]: OP "
           "matches an op's type or name (* and ? as wildcards), KINDS is -inf, +inf, inf, "
           "nan or any.")
            .arg(displayPath(logdir)),
        this);
    intro->setWordWrap(true);

    m_list = new QListWidget(this);
    m_list->addItems(patterns);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &ExpectedValuesDialog::updateButtons);
    QHBoxLayout* addRow = buildAddRow();
    QVBoxLayout* side = buildRemoveButtons();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* listRow = new QHBoxLayout;
    listRow->addWidget(m_list, 1);
    listRow->addLayout(side);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(listRow, 1);
    layout->addLayout(addRow);
    layout->addWidget(m_error);
    if (!fromCommandLine.isEmpty())
        layout->addWidget(commandLineNote(fromCommandLine));
    layout->addWidget(buttons);
    resize(520, 360);
    updateButtons();
}

// The field and Add (Enter in the field adds too); m_error, under them, says why a pattern was
// refused.
QHBoxLayout* ExpectedValuesDialog::buildAddRow()
{
    m_field = new QLineEdit(this);
    m_field->setPlaceholderText(QStringLiteral("aten::masked_fill:-inf"));
    m_add = new QPushButton(tr("Add"), this);
    m_add->setAutoDefault(false);
    connect(m_add, &QPushButton::clicked, this, [this] {
        if (addPattern(m_field->text()))
            m_field->clear();
    });
    connect(m_field, &QLineEdit::returnPressed, m_add, &QPushButton::click);
    connect(m_field, &QLineEdit::textChanged, this, &ExpectedValuesDialog::updateButtons);
    m_error = widgets::plainLabel({}, this);
    m_error->setWordWrap(true);
    m_error->hide();

    auto* addRow = new QHBoxLayout;
    addRow->addWidget(m_field, 1);
    addRow->addWidget(m_add);
    return addRow;
}

// Remove and Remove All, in a column beside the list.
QVBoxLayout* ExpectedValuesDialog::buildRemoveButtons()
{
    m_remove = new QPushButton(tr("Remove"), this);
    m_remove->setAutoDefault(false);
    connect(m_remove, &QPushButton::clicked, this, &ExpectedValuesDialog::removeSelected);
    m_removeAll = new QPushButton(tr("Remove All"), this);
    m_removeAll->setAutoDefault(false);
    connect(m_removeAll, &QPushButton::clicked, this, [this] {
        m_list->clear();
        updateButtons();
    });

    auto* side = new QVBoxLayout;
    side->addWidget(m_remove);
    side->addWidget(m_removeAll);
    side->addStretch();
    return side;
}

// The patterns --expect adds to every logdir, greyed: they are shown here, not edited.
QLabel* ExpectedValuesDialog::commandLineNote(const QStringList& fromCommandLine)
{
    QLabel* also = widgets::plainLabel(tr("Also set aside in this run (--expect): %1")
                                           .arg(fromCommandLine.join(QStringLiteral(", "))),
                                       this);
    also->setWordWrap(true);
    also->setForegroundRole(QPalette::PlaceholderText);
    return also;
}

QStringList ExpectedValuesDialog::patterns() const
{
    QStringList list;
    for (int row = 0; row < m_list->count(); ++row)
        list << m_list->item(row)->text();
    return list;
}

bool ExpectedValuesDialog::addPattern(const QString& pattern)
{
    std::string why;
    const auto parsed = core::ExpectedPattern::parse(pattern.toStdString(), &why);
    QString error = QString::fromStdString(why);
    const QString text = parsed ? QString::fromStdString(parsed->text) : QString();
    if (parsed && patterns().contains(text))
        error = tr("%1 is already listed").arg(text);
    m_error->setText(error);
    m_error->setVisible(!parsed || !error.isEmpty());
    if (!parsed || !error.isEmpty())
        return false;
    m_list->addItem(text);
    updateButtons();
    return true;
}

void ExpectedValuesDialog::removeSelected()
{
    qDeleteAll(m_list->selectedItems());
    updateButtons();
}

void ExpectedValuesDialog::updateButtons()
{
    m_add->setEnabled(!m_field->text().trimmed().isEmpty());
    m_remove->setEnabled(!m_list->selectedItems().isEmpty());
    m_removeAll->setEnabled(m_list->count() > 0);
}

} // namespace nanscope::app
