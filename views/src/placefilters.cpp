// SPDX-License-Identifier: GPL-3.0-or-later
#include "placefilters.hpp"

#include "nanscope/core/alertfilter.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCoreApplication>
#include <QSignalBlocker>
#include <algorithm>
#include <vector>

namespace nanscope::views {

namespace {

QString allHosts()
{
    return QCoreApplication::translate("PlaceFilter", "All hosts");
}

QString allDevices()
{
    return QCoreApplication::translate("PlaceFilter", "All devices");
}

std::size_t fillHosts(QComboBox* box, const items::SnapshotPtr& snapshot)
{
    box->addItem(allHosts(), QString());
    const std::size_t hosts = snapshot ? snapshot->layout().fileSets.size() : 0;
    for (std::size_t h = 0; h < hosts; ++h)
        box->addItem(items::fromStd(snapshot->layout().fileSets[h].hostName), static_cast<int>(h));
    return hosts;
}

std::size_t fillDevices(QComboBox* box, const items::SnapshotPtr& snapshot)
{
    box->addItem(allDevices(), QString());
    const std::vector<std::string> devices =
        snapshot ? core::deviceNames(*snapshot) : std::vector<std::string>();
    for (const std::string& device : devices)
        box->addItem(items::fromStd(device), items::fromStd(device));
    return devices.size();
}

void showChoiceQuietly(QComboBox* box, const QVariant& data)
{
    const QSignalBlocker quiet(box);
    const int row = data.isValid() ? box->findData(data) : 0;
    box->setCurrentIndex(std::max(row, 0));
}

} // namespace

QComboBox* placeChoiceBox(const QString& toolTip, QWidget* parent)
{
    auto* box = new QComboBox(parent);
    box->setToolTip(toolTip);
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(static_cast<int>(allDevices().size()));
    box->hide();
    return box;
}

PlaceFilters::PlaceFilters(const QString& hostToolTip, const QString& deviceToolTip,
                           QWidget* parent)
    : QObject(parent), m_host(placeChoiceBox(hostToolTip, parent)),
      m_device(placeChoiceBox(deviceToolTip, parent))
{
    connect(m_host, &QComboBox::currentIndexChanged, this, [this] {
        const QVariant data = m_host->currentData();
        Q_EMIT hostChosen(
            data.typeId() == QMetaType::Int
                ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(data.toInt()))
                : std::nullopt);
    });
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] {
        const QString name = m_device->currentData().toString();
        Q_EMIT deviceChosen(name.isEmpty() ? std::nullopt
                                           : std::optional<std::string>(name.toStdString()));
    });
}

PlaceFilters::Counts PlaceFilters::fill(const items::SnapshotPtr& snapshot)
{
    const QSignalBlocker quietHosts(m_host);
    const QSignalBlocker quietDevices(m_device);
    m_host->clear();
    m_device->clear();
    const Counts counts{fillHosts(m_host, snapshot), fillDevices(m_device, snapshot)};
    for (QComboBox* box : {m_host, m_device})
        box->view()->setMinimumWidth(box->view()->sizeHintForColumn(0) + 24);
    m_host->setVisible(counts.hosts > 1);
    m_device->setVisible(counts.devices > 1);
    return counts;
}

void PlaceFilters::showColumns(widgets::CopyableTableView* view, Counts counts, int hostColumn,
                               int deviceColumn) const
{
    view->setColumnHidden(hostColumn, counts.hosts <= 1);
    if (counts.hosts > 1) {
        const QFontMetrics metrics = view->fontMetrics();
        int widest = 0;
        for (int i = 1; i < m_host->count(); ++i) // 0 is "All hosts"
            widest = std::max(widest, metrics.horizontalAdvance(m_host->itemText(i)));
        const int margin = widgets::PlainTextDelegate::textMargins(view) + 2; // + kerning
        view->setColumnWidth(hostColumn, std::min(widest + margin, 16 * metrics.horizontalAdvance(
                                                                            QLatin1Char('0'))));
    }
    if (deviceColumn >= 0)
        view->setColumnHidden(deviceColumn, counts.devices <= 1);
}

void PlaceFilters::showChoice(std::optional<std::uint32_t> host,
                              const std::optional<std::string>& device)
{
    showChoiceQuietly(m_host, host ? QVariant(static_cast<int>(*host)) : QVariant());
    showChoiceQuietly(m_device, device ? QVariant(items::fromStd(*device)) : QVariant());
}

} // namespace nanscope::views
