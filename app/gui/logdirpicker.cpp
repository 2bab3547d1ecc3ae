// SPDX-License-Identifier: GPL-3.0-or-later
#include "logdirpicker.hpp"

#include "nanscope/items/fromstd.hpp"
#include "nanscope/widgets/plainlabel.hpp"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStringList>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <filesystem>
#include <set>

namespace nanscope::app {
namespace {

constexpr int kPathRole = Qt::UserRole + 1;

// The bytes of every file the logdir's file sets have.
qint64 logdirBytes(const core::LogdirLayout& layout)
{
    qint64 bytes = 0;
    for (const core::FileSet& set : layout.fileSets)
        for (const std::string_view suffix :
             {core::kMetadataSuffix, core::kSourceFilesSuffix, core::kStackFramesSuffix,
              core::kGraphsSuffix, core::kExecutionSuffix, core::kTracesSuffix}) {
            std::error_code ec;
            const auto size = std::filesystem::file_size(set.file(suffix), ec);
            bytes += ec ? 0 : static_cast<qint64>(size);
        }
    return bytes;
}

QString hostsText(const core::LogdirLayout& layout)
{
    std::set<std::string> hosts;
    for (const core::FileSet& set : layout.fileSets)
        hosts.insert(set.hostName);
    QStringList names;
    for (const std::string& host : hosts)
        names << items::fromStd(host);
    return names.join(QStringLiteral(", "));
}

QString startedText(double wallTime)
{
    if (!(wallTime > 0) || wallTime > 1e11) // no metadata, or not a time
        return {};
    const auto when = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(wallTime * 1000.0));
    return QLocale().toString(when, QLocale::ShortFormat);
}

} // namespace

LogdirPicker::LogdirPicker(const QString& root, const std::vector<core::LogdirLayout>& logdirs,
                           QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Choose a Logdir"));
    auto* intro = widgets::plainLabel(
        tr("%1 is not a logdir itself, but these folders in it are. Choose one to open.")
            .arg(QDir::toNativeSeparators(root)),
        this);
    intro->setWordWrap(true);

    m_list = new QTreeWidget(this);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setHeaderLabels({tr("Folder"), tr("Run"), tr("Hosts"), tr("Started"), tr("Size")});
    const QDir base(root);
    for (const core::LogdirLayout& layout : logdirs) {
        const QString path = QString::fromStdString(layout.directory.string());
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(FolderColumn, QDir::toNativeSeparators(base.relativeFilePath(path)));
        item->setText(RunColumn, items::fromStd(layout.runId));
        item->setText(HostsColumn, hostsText(layout));
        item->setText(StartedColumn, startedText(layout.startingWallTime));
        item->setText(SizeColumn, QLocale().formattedDataSize(logdirBytes(layout)));
        item->setTextAlignment(SizeColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setData(FolderColumn, kPathRole, path);
        item->setToolTip(FolderColumn, QDir::toNativeSeparators(path));
    }
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(FolderColumn, QHeaderView::Stretch);
    for (int column = RunColumn; column < ColumnCount; ++column)
        m_list->resizeColumnToContents(column);
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::itemActivated, this, &QDialog::accept);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [buttons](QTreeWidgetItem* current) {
        buttons->button(QDialogButtonBox::Open)->setEnabled(current != nullptr);
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
    resize(720, 360);
}

QString LogdirPicker::selectedPath() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    return item ? item->data(FolderColumn, kPathRole).toString() : QString();
}

} // namespace nanscope::app
