// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare view: where run B first parts from run A (core/runcompare.hpp). The comparison
// runs on a thread of its own; the view then names the divergence, shows both runs' executions
// or graph execution traces as timeline strips one above the other with the diverging op marked,
// and the two records of that op side by side. Double-clicking a run's record (or clicking an
// op on its strip) asks to show that event (eventActivated): run A is the window's logdir.
#pragma once

#include "nanscope/core/runcompare.hpp"
#include "nanscope/items/logdirsession.hpp"

#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QTableView;

namespace nanscope::items {
class RunComparisonModel;
}
namespace nanscope::widgets {
class TimelineStrip;
}

namespace nanscope::views {

class RunStripSource;
template <typename T>
class SnapshotJob;

class ComparePanel : public QWidget
{
    Q_OBJECT

public:
    using Result = std::shared_ptr<const core::ReadResult<core::RunComparison>>;

    explicit ComparePanel(QWidget* parent = nullptr);
    ~ComparePanel() override;

    // Compares run `a` with run `b` (neither null) off the GUI thread; options.stop is the
    // view's own. A comparison in progress is abandoned.
    void compare(items::SnapshotPtr a, items::SnapshotPtr b, core::CompareOptions options = {});
    // While run B loads (`message` says so), or when it cannot be compared: no result shown.
    void showStatus(const QString& message);
    bool isBusy() const;

    // The result shown: null while there is none; its error when a run could not be read.
    const Result& result() const { return m_result; }
    QString headline() const;
    // Which list the strips and the records show: the first divergence's, until the user picks.
    core::EventSource shownList() const { return m_list; }
    void showList(core::EventSource list);

    widgets::TimelineStrip* stripA() const { return m_stripA; }
    widgets::TimelineStrip* stripB() const { return m_stripB; }
    QTableView* records() const { return m_records; }
    items::RunComparisonModel* model() const { return m_model; }

Q_SIGNALS:
    void eventActivated(nanscope::core::RunSide side, nanscope::core::EventRef event);
    // A comparison's result was shown (or its error).
    void compared();

private:
    void deliver(Result result);
    void setSources(core::EventSource list);
    void updateList();
    void activateRecord(int column);
    const core::SequenceComparison* shownComparison() const;

    std::unique_ptr<SnapshotJob<Result>> m_job;
    items::SnapshotPtr m_a;
    items::SnapshotPtr m_b;
    Result m_result;
    core::EventSource m_list = core::EventSource::Graph;
    std::unique_ptr<RunStripSource> m_sourceA;
    std::unique_ptr<RunStripSource> m_sourceB;

    QLabel* m_headline = nullptr;
    QLabel* m_summary = nullptr;
    QComboBox* m_listChoice = nullptr;
    QLabel* m_labelA = nullptr;
    QLabel* m_labelB = nullptr;
    widgets::TimelineStrip* m_stripA = nullptr;
    widgets::TimelineStrip* m_stripB = nullptr;
    QTableView* m_records = nullptr;
    items::RunComparisonModel* m_model = nullptr;
};

} // namespace nanscope::views
