// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger V2's graph structure, as a picture: the focused op with its inputs above and its
// consumers below, or the whole graph laid out by Graphviz. An eager execution (no graph) shows
// the executions that produced its inputs and consumed its outputs, through tensor ids. A find
// bar (Ctrl+F in the picture, or the toolbar's Find) steps through the ops of the shown graph
// whose name or type holds the text.
#pragma once

#include "nanscope/views/panel.hpp"

#include <QPointF>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QGraphicsScene;
class QGraphicsView;
class QHBoxLayout;
class QLabel;
class QStackedWidget;
class QToolButton;

namespace nanscope::widgets {
class ElidedLabel;
class FindBar;
} // namespace nanscope::widgets

namespace nanscope::views {

class GraphScene;
class GraphStructureView;
struct GraphPicture;
struct EagerPictureData;
template <typename T>
class SnapshotJob;

class GraphStructurePanel : public Panel
{
    Q_OBJECT

public:
    enum class Mode { Neighbourhood, WholeGraph };
    // Whole graphs with more ops than this are not laid out (Graphviz would take minutes).
    static constexpr std::size_t kMaxWholeGraphOps = 5000;

    explicit GraphStructurePanel(Navigator* navigator, QWidget* parent = nullptr);
    ~GraphStructurePanel() override;

    void setMode(Mode mode);
    Mode mode() const { return m_mode; }

    // The names of the ops drawn now, the focused op first (for tests and end-to-end checks).
    QStringList visibleOpNames() const;

    // What one box shows, for tests.
    struct NodeState
    {
        QString name;
        QString type;
        QString health;                         // "nan", "inf", "finite" or "unknown"
        std::optional<std::uint64_t> trace;     // the trace that coloured it; a click focuses it
        std::optional<std::uint64_t> execution; // an eager execution's box; a click focuses it
        bool focused = false;
        QPointF centre;        // scene coordinates
        QStringList labels;    // the box's two lines as painted (name, type), elided to fit
        qreal labelPixels = 0; // the smaller of their fonts' heights, in pixels on screen
    };
    std::vector<NodeState> nodes() const;
    struct EdgeState
    {
        std::size_t from = 0; // indices into nodes()
        std::size_t to = 0;
        QString tensor; // "dense/MatMul:0"
        QPointF middle; // halfway along the drawn line, in scene coordinates
    };
    std::vector<EdgeState> edges() const;
    // The tooltip of what lies under a scene point, topmost first (an edge's is its tensor).
    QString toolTipAt(const QPointF& scenePoint) const;
    QGraphicsScene* scene() const;
    QGraphicsView* view() const;
    // The one-line status: what is shown, or why the whole graph is not ("" when nothing).
    QString statusText() const;
    // The caption above the graph ("Log in graph …"), whole and as shown (elided to fit).
    QString caption() const;
    QString captionShown() const;
    // A narrow pane gives the caption a row of its own under the buttons.
    bool captionOnItsOwnRow() const { return m_captionOnItsOwnRow; }
    // True while a whole-graph layout runs on a worker.
    bool isLayingOut() const { return m_pendingJob != 0; }
    widgets::FindBar* findBar() const { return m_findBar; }

public Q_SLOTS:
    void activateFind();
    // Focuses the next (previous) op of the shown graph whose name or type holds `text`, after
    // the focused op in the graph's order, wrapping; the bar says "n of m".
    void findInGraph(const QString& text, bool backward = false);

Q_SIGNALS:
    // A whole-graph layout finished, failed or was refused, or an eager neighbourhood arrived;
    // tests wait for it.
    void layoutFinished();

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // The widgets, in the order they are made (graphstructurepanel.cpp, graphstructuretoolbar.cpp,
    // graphstructurefind.cpp).
    void buildPicture();
    void buildModeButtons();
    void buildToolBar();
    QHBoxLayout* buildFooter();
    void buildFindBar();

    void rebuild();
    void showPlaceholder(const QString& text);
    void showNeighbourhood(core::OpId op, std::optional<std::uint64_t> trace,
                           const QString& note = {});
    void showWholeGraph(core::OpId op, std::optional<std::uint64_t> trace);
    void showEagerNeighbourhood(std::uint64_t execution);
    void eagerNeighbourhoodFound(const EagerPictureData& found);
    void wholeGraphLaidOut(std::uint64_t job, GraphPicture picture);
    void nodeClicked(std::size_t node);
    void setStatus(const QString& text);
    void setCaption(const QString& text);
    void placeCaption();
    void keepNeighbourhoodRoom();

    Mode m_mode = Mode::Neighbourhood;
    GraphScene* m_scene = nullptr;
    GraphStructureView* m_view = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_placeholder = nullptr;
    widgets::ElidedLabel* m_caption = nullptr;
    QHBoxLayout* m_bar = nullptr;         // the buttons, with the caption between them when wide
    QHBoxLayout* m_captionSlot = nullptr; // the caption's place in the bar
    QHBoxLayout* m_captionRow = nullptr;  // its row of its own when narrow
    bool m_captionOnItsOwnRow = false;
    widgets::ElidedLabel* m_status = nullptr;
    QToolButton* m_neighbourhoodButton = nullptr;
    QToolButton* m_wholeGraphButton = nullptr;
    widgets::FindBar* m_findBar = nullptr;

    // The whole graph on screen (or being laid out), so that focus moves inside it only move
    // the highlight.
    core::GraphIndex m_shownGraph = core::kNoGraph;
    std::size_t m_shownOpCount = 0;
    bool m_showingWholeGraph = false;
    std::uint64_t m_nextJob = 1;
    std::uint64_t m_pendingJob = 0;
    core::GraphIndex m_pendingGraph = core::kNoGraph;
    // An eager execution's neighbourhood is found by scanning the index, off the GUI thread.
    std::unique_ptr<SnapshotJob<EagerPictureData>> m_eagerJob;
    std::optional<std::uint64_t> m_eagerShown; // the execution whose neighbourhood is shown
};

} // namespace nanscope::views
