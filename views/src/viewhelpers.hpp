// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers the panels share. Text from the core becomes a QString with items::fromStd, and
// labels for it come from widgets::plainLabel.
#pragma once

#include "nanscope/core/alertfilter.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QToolButton>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::views {

// Where events ran, as the panels' filters tell them apart.
enum class Place { Host, Device };

// A host or device filter's box, hidden until fillPlaceChoices finds several: as wide as "All
// devices" whatever names it holds, its list as wide as they are. Boxes as wide as TensorFlow's
// device names ("/job:worker/replica:0/task:0/device:GPU:0") squeezed the filters beside them to
// "Fi…" and widened the window past a 1280-pixel screen.
inline QComboBox* placeChoiceBox(const QString& toolTip, QWidget* parent)
{
    auto* box = new QComboBox(parent);
    box->setToolTip(toolTip);
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(
        static_cast<int>(QCoreApplication::translate("PlaceFilter", "All devices").size()));
    box->hide();
    return box;
}

// A host or device filter's choices: "All hosts" / "All devices" (data: an empty string), then
// each host of the logdir (data: its file set's index) or each device (data: its name). Shown
// only when there are several to tell apart. Returns their number.
inline std::size_t fillPlaceChoices(QComboBox* box, Place place, const items::SnapshotPtr& snapshot)
{
    box->clear();
    std::size_t count = 0;
    if (place == Place::Host) {
        box->addItem(QCoreApplication::translate("PlaceFilter", "All hosts"), QString());
        const std::size_t hosts = snapshot ? snapshot->layout().fileSets.size() : 0;
        for (std::size_t h = 0; h < hosts; ++h)
            box->addItem(items::fromStd(snapshot->layout().fileSets[h].hostName),
                         static_cast<int>(h));
        count = hosts;
    } else {
        box->addItem(QCoreApplication::translate("PlaceFilter", "All devices"), QString());
        const std::vector<std::string> devices =
            snapshot ? core::deviceNames(*snapshot) : std::vector<std::string>();
        for (const std::string& device : devices)
            box->addItem(items::fromStd(device), items::fromStd(device));
        count = devices.size();
    }
    box->view()->setMinimumWidth(box->view()->sizeHintForColumn(0) + 24);
    box->setVisible(count > 1);
    return count;
}

// Sizes a table's host or device column to the longest of the choices fillPlaceChoices put in
// `box` (within reason), so that the names beside it keep their room: at 1280 px the default
// width left the alerts' op names three letters.
inline void fitColumnToChoices(widgets::CopyableTableView* view, int column, const QComboBox* box)
{
    const QFontMetrics metrics = view->fontMetrics();
    int widest = 0;
    for (int i = 1; i < box->count(); ++i) // 0 is "All hosts" / "All devices"
        widest = std::max(widest, metrics.horizontalAdvance(box->itemText(i)));
    const int margin = widgets::PlainTextDelegate::textMargins(view) + 2; // + kerning
    view->setColumnWidth(
        column, std::min(widest + margin, 16 * metrics.horizontalAdvance(QLatin1Char('0'))));
}

// The choice of a box fillPlaceChoices filled: a host's index, or none for all.
inline std::optional<std::uint32_t> chosenHost(const QComboBox* box)
{
    const QVariant data = box->currentData();
    return data.typeId() == QMetaType::Int
               ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(data.toInt()))
               : std::nullopt;
}

// A device's name, or none for all.
inline std::optional<std::string> chosenDevice(const QComboBox* box)
{
    const QString name = box->currentData().toString();
    return name.isEmpty() ? std::nullopt : std::optional<std::string>(name.toStdString());
}

// Shows a host or device choice in its box (all when unset or unknown) without signals.
inline void showPlaceChoice(QComboBox* box, const QVariant& data)
{
    const QSignalBlocker quiet(box);
    const int row = data.isValid() ? box->findData(data) : 0;
    box->setCurrentIndex(std::max(row, 0));
}

// A flat tool button for a panel's header row.
inline QToolButton* toolButton(const QString& text, const QString& toolTip, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAutoRaise(true);
    return button;
}

// The greyed line a panel shows instead of its table when the logdir holds nothing for it.
inline QLabel* emptyStateLabel(const QString& text, QWidget* parent)
{
    QLabel* label = widgets::plainLabel(text, parent);
    label->setAlignment(Qt::AlignCenter);
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setWordWrap(true);
    label->hide();
    return label;
}

// A table panel's tool row status ("6 of 21 rows"): greyed plain text.
inline QLabel* toolStatusLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

// A table panel's "Go to #" field: digits (with separators) only, about 14 digits wide.
inline QLineEdit* goToField(const QString& toolTip, QWidget* parent)
{
    auto* field = new QLineEdit(parent);
    field->setPlaceholderText(QCoreApplication::translate("GoToField", "Go to #"));
    field->setToolTip(toolTip);
    field->setClearButtonEnabled(true);
    field->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9,. ]*")), field));
    field->setMaximumWidth(field->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 14);
    return field;
}

// The source row of a table's current index (-1 when none): the index of its trace or execution.
inline qint64 currentSourceRow(const QAbstractItemView* view, const RowListProxyModel* proxy)
{
    const QModelIndex current = view->currentIndex();
    return current.isValid() ? proxy->mapToSource(current).row() : -1;
}

// The rows `proxy` highlights (inputs, producers, consumers), as source rows in ascending order.
inline QList<quint64> sortedHighlightedRows(const RowListProxyModel& proxy)
{
    QList<quint64> rows;
    for (const int row : proxy.highlightedRows())
        rows << static_cast<quint64>(row);
    std::sort(rows.begin(), rows.end());
    return rows;
}

} // namespace nanscope::views
