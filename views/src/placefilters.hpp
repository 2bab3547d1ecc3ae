// SPDX-License-Identifier: GPL-3.0-or-later
// The host and device filters of a table panel: two boxes filled with a logdir's hosts (its file
// sets) and devices, shown only when there are several to tell apart, and the table's host and
// device columns shown with them.
#pragma once

#include "nanscope/items/logdirsession.hpp"

#include <QObject>
#include <cstdint>
#include <optional>
#include <string>

class QComboBox;
class QWidget;

namespace nanscope::widgets {
class CopyableTableView;
}

namespace nanscope::views {

// A host or device box, hidden until filled with several: as wide as "All devices" whatever
// names it holds, its list as wide as they are. Boxes as wide as TensorFlow's device names
// ("/job:worker/replica:0/task:0/device:GPU:0") squeezed the filters beside them to "Fi…" and
// widened the window past a 1280-pixel screen.
QComboBox* placeChoiceBox(const QString& toolTip, QWidget* parent);

class PlaceFilters : public QObject
{
    Q_OBJECT

public:
    PlaceFilters(const QString& hostToolTip, const QString& deviceToolTip, QWidget* parent);

    QComboBox* hostBox() const { return m_host; }
    QComboBox* deviceBox() const { return m_device; }

    struct Counts
    {
        std::size_t hosts = 0;
        std::size_t devices = 0;
    };
    // "All hosts" (data: an empty string), then each host (data: its file set's index); "All
    // devices", then each device (data: its name). Quietly: the boxes show "All" until
    // showChoice says otherwise.
    Counts fill(const items::SnapshotPtr& snapshot);
    // The table's host column (as wide as the longest host's name, within reason: at 1280 px
    // the default width left the names beside it three letters) only for several hosts, and
    // its device column (if `deviceColumn` >= 0) only for several devices.
    void showColumns(widgets::CopyableTableView* view, Counts counts, int hostColumn,
                     int deviceColumn = -1) const;
    // Shows a filter's choices (all where unset or unknown) without signals.
    void showChoice(std::optional<std::uint32_t> host, const std::optional<std::string>& device);

Q_SIGNALS:
    // The user chose; nullopt: all.
    void hostChosen(std::optional<std::uint32_t> host);
    void deviceChosen(std::optional<std::string> device);

private:
    QComboBox* m_host;
    QComboBox* m_device;
};

} // namespace nanscope::views
