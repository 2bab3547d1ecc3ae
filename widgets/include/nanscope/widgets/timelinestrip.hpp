// SPDX-License-Identifier: GPL-3.0-or-later
// A zoomable, scrollable strip of N items in a few colour categories, for N from one to many
// millions: it paints only the visible range, and where several items share a pixel column it
// draws the highest category among them. Knows nothing of what the items are.
#pragma once

#include "nanscope/widgets/timelinescale.hpp"

#include <QAbstractScrollArea>
#include <QColor>
#include <QString>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace nanscope::widgets {

// What the strip shows. Called on the GUI thread only.
class TimelineSource
{
public:
    virtual ~TimelineSource() = default;
    virtual std::uint64_t itemCount() const = 0;
    // An index into the strip's categories (at most kMaxCategories); higher ones win clicks on
    // shared pixel columns.
    virtual std::uint8_t category(std::uint64_t item) const = 0;
    virtual QString label(std::uint64_t item) const = 0;   // drawn inside wide items
    virtual QString toolTip(std::uint64_t item) const = 0; // plain text
    // Items may belong to groups (0: none), e.g. the module an op ran in; runs of one group are
    // drawn as a named band above the items. Read once per item, like categories.
    virtual std::uint32_t group(std::uint64_t) const { return 0; }
    virtual QString groupName(std::uint32_t) const { return {}; } // plain text
    // When the item happened (seconds; any origin), for the time axis. Read once per item.
    virtual double time(std::uint64_t) const { return 0; }
};

struct TimelineCategory
{
    QString name;
    QColor colour;
    // Where items share a pixel column, the column mixes its ordinary categories' colours by how
    // many items each has (a few function calls among thousands of ops do not paint the strip
    // blue), and an alarm category present among them rises from the bottom as tall as the
    // share of alarm items (the highest category's colour; a few pixels at least).
    bool alarm = false;
};

class TimelineStrip : public QAbstractScrollArea
{
    Q_OBJECT

public:
    static constexpr std::size_t kMaxCategories = 8;

    explicit TimelineStrip(QWidget* parent = nullptr);
    ~TimelineStrip() override;

    void setCategories(std::vector<TimelineCategory> categories);
    const std::vector<TimelineCategory>& categories() const { return m_categories; }
    void setMarkerColour(const QColor& colour);
    void setPlaceholderText(const QString& text);

    // Reads every item's category once; the source must outlive the strip or be replaced.
    void setSource(const TimelineSource* source);
    const TimelineSource* source() const { return m_source; }
    // The source now has more items: reads only the new ones.
    void itemsAppended();
    // The source now gives these items (sorted) other categories: reads them again.
    void categoriesChanged(const std::vector<std::uint64_t>& items);
    std::uint64_t itemCount() const { return m_itemCategory.size(); }
    // The category an item is drawn in, as last read from the source.
    std::uint8_t itemCategory(std::uint64_t item) const
    {
        return item < m_itemCategory.size() ? m_itemCategory[item] : std::uint8_t{0};
    }

    // Runs of items of one group, in item order (a group of 0 is a run outside any group).
    struct GroupRun
    {
        std::uint64_t first = 0;
        std::uint32_t group = 0;
    };
    const std::vector<GroupRun>& groupRuns() const { return m_groupRuns; }
    // The group of an item (0: none).
    std::uint32_t groupOf(std::uint64_t item) const;

    // Items flagged above the strip (sorted, unique), e.g. the ones that raised an alert.
    void setMarkers(std::vector<std::uint64_t> items);
    const std::vector<std::uint64_t>& markers() const { return m_markers; }

    // The outlined item; scrolls to show it.
    void setCurrent(std::optional<std::uint64_t> item);
    std::optional<std::uint64_t> current() const { return m_current; }

    // Items where their times put them, with a ruler in time units, instead of side by side.
    // The current item stays in sight across the switch.
    void setTimeAxis(bool on);
    bool timeAxis() const { return m_scale.positions != nullptr; }
    // A ruler label for `seconds` after the first item, with ticks `step` seconds apart: "0",
    // "250 ms", "1.5 s", "2 min", "1 h 30 min".
    static QString timeLabel(double seconds, double step);

    // A time axis shared with other strips (the hosts of one run), so that what happened at the
    // same time lines up: `start` is at x 0 of the content (and 0 on the ruler), each item width
    // stands for `secondsPerItem`, and the content is `length` item widths long. Unset, the
    // axis runs from this strip's first item to its latest.
    struct TimeFrame
    {
        double start = 0;
        double secondsPerItem = 0;
        double length = 0;
        friend bool operator==(const TimeFrame&, const TimeFrame&) = default;
    };
    void setTimeFrame(std::optional<TimeFrame> frame);
    // The first item's time and the latest (seconds, finite ones), for a frame shared with
    // other strips; unset without items.
    struct TimeSpan
    {
        double first = 0;
        double latest = 0;
    };
    std::optional<TimeSpan> timeSpan() const;
    // Zoom and scroll as another strip of the same axis has them; emits nothing.
    void setView(double pixelsPerItem, double scroll);

    // Fewer pixels for the items: a lane among several.
    void setCompact(bool compact);

    const TimelineScale& scale() const { return m_scale; }
    // The item under a viewport point, and the viewport centre of an item (for tests).
    std::optional<std::uint64_t> itemAt(QPoint viewportPoint) const;
    QPoint pointOf(std::uint64_t item) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void fit();
    // Activates the nearest marker before or after the current item (Ctrl+Left, Ctrl+Right).
    void previousMarker();
    void nextMarker();

Q_SIGNALS:
    // A click or a key asks for this item; the owner decides whether it becomes current.
    void itemActivated(quint64 item);
    void scaleChanged();
    // The zoom or the scroll moved (the user, or the current item brought into view): strips of
    // a shared axis follow with setView().
    void viewChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    struct Rows;
    Rows rows() const;
    void readCategories(std::uint64_t from);
    void summariseBlock(std::uint64_t block);
    std::uint8_t highestCategory(TimelineScale::Range range) const;
    // What one pixel column of many items shows: the blend of its ordinary items' colours, and
    // its worst alarm category with the share of items in alarm categories.
    struct ColumnSummary
    {
        QColor base;           // invalid when every item is an alarm
        QColor alarm;          // invalid when none is
        double alarmShare = 0; // 0..1
    };
    ColumnSummary columnSummary(TimelineScale::Range range) const;
    QColor categoryColour(std::size_t category) const;
    void zoomBy(double x, double factor);
    void activate(std::uint64_t item);
    void syncScrollBar();
    void paintRuler(QPainter& painter, const Rows& rows) const;
    void paintTimeRuler(QPainter& painter, const Rows& rows) const;
    void updatePositions();
    void reposition();
    void userScrolled();
    int itemsHeight() const;
    void paintGroups(QPainter& painter, const Rows& rows) const;
    int groupRowHeight() const;
    void paintItems(QPainter& painter, const Rows& rows) const;
    void paintMarkers(QPainter& painter, const Rows& rows) const;
    void paintOutline(QPainter& painter, const Rows& rows, std::uint64_t item, const QColor& colour,
                      qreal penWidth) const;

    const TimelineSource* m_source = nullptr;
    std::vector<TimelineCategory> m_categories;
    std::vector<std::uint8_t> m_itemCategory;
    std::vector<double> m_itemTime; // TimelineSource::time of each item
    std::optional<TimeSpan> m_timeSpan;
    std::optional<TimeFrame> m_timeFrame;
    bool m_compact = false;
    std::vector<GroupRun> m_groupRuns; // runs, not one entry per item: groups change rarely
    bool m_hasGroups = false;
    std::vector<std::uint8_t> m_blockCategory; // the highest of each block of kBlock items
    // Items per category in each block (a block has at most 64 items: a byte each).
    std::vector<std::array<std::uint8_t, kMaxCategories>> m_blockCounts;
    std::vector<std::uint64_t> m_markers;
    std::optional<std::uint64_t> m_current;
    std::optional<std::uint64_t> m_hovered;
    QColor m_markerColour{0xe5, 0x25, 0x92};
    QString m_placeholder;
    TimelineScale m_scale;
    bool m_fitted = true; // follows resizes and new items until the user zooms
    bool m_syncing = false;
    std::optional<QPoint> m_pressPoint;
    double m_pressScroll = 0;
    bool m_dragging = false;
};

} // namespace nanscope::widgets
