// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger V2's Source Code, with tabs: the logdir's own copy of each source file (never the
// local disk), read-only, highlighted by file type, the focused line marked and centred, and a
// margin mark on every line whose ops produced NaN or ∞.
#pragma once

#include "nanscope/views/panel.hpp"

#include <QHash>
#include <QSet>
#include <functional>
#include <memory>

class QLabel;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class QsciScintilla;

namespace nanscope::widgets {
class ElidedLabel;
}

namespace nanscope::views {

class SourcePanel : public Panel
{
    Q_OBJECT

public:
    // Marker numbers in the editors.
    static constexpr int kFocusLineMarker = 0; // background of the focused line
    static constexpr int kFocusArrowMarker = 1;
    static constexpr int kNonFiniteMarker = 2;

    explicit SourcePanel(Navigator* navigator, QWidget* parent = nullptr);
    ~SourcePanel() override;

    QTabWidget* tabs() const { return m_tabs; }
    // The file shown (an index into the logdir's source files), or -1.
    int currentFileIndex() const;
    QString currentFilePath() const;
    QsciScintilla* currentEditor() const;
    // The focused line marked in the current file (1-based), or 0.
    int markedLine() const;
    // Line `line` (1-based) of the current file's text.
    QString lineText(int line) const;
    // Lines of the current file with a non-finite mark (1-based).
    QSet<int> nonFiniteLines() const;
    bool isBusy() const;
    // The file made ready, off screen, for the first jump once the logdir is read: the one the
    // origin's focus shows (an index into the logdir's source files), or -1.
    int preparedFileIndex() const { return m_preparedEditor ? m_preparedFile : -1; }

public Q_SLOTS:
    // Opens (or shows) a tab with file `fileIndex` of the logdir; false when it has no text.
    bool openFile(int fileIndex);

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;

private:
    using LineMap = QHash<int, QSet<int>>; // file index -> 1-based lines
    struct FirstFile;
    QsciScintilla* createEditor(const QString& path, const QString& text);
    QsciScintilla* takePreparedEditor(int fileIndex);
    void prepareSpareEditor();
    void paintBands(QsciScintilla* editor, QsciScintilla* SourcePanel::*slot, int band,
                    const std::function<void()>& then);
    void prepareFirstFile(const FirstFile& file);
    void dropPreparedEditor();
    void closeAll();
    void showMarks(QsciScintilla* editor, int fileIndex);
    void showFocusLine();
    void updateHeader();
    void showFilesMenu();

    QStackedWidget* m_stack = nullptr;
    QLabel* m_placeholder = nullptr;
    QTabWidget* m_tabs = nullptr;
    widgets::ElidedLabel* m_path = nullptr;
    QLabel* m_info = nullptr;
    QToolButton* m_files = nullptr;
    QHash<QsciScintilla*, int> m_fileOfEditor;
    // An editor made and warmed up while the window is idle once a logdir is read, for the first
    // file opened: making one, and painting the first source, cost 5-7 ms of the user's first
    // jump.
    QsciScintilla* m_spareEditor = nullptr;
    // And the origin's file in an editor of its own, off screen, for the first double-click on
    // an alert (most often the first alert's or the origin's): opening it then only adds a tab.
    QsciScintilla* m_preparedEditor = nullptr;
    int m_preparedFile = -1;
    bool m_preparing = false; // the file is read; its editor is made and painted in events to come
    LineMap m_nonFinite;
    items::SnapshotPtr m_snapshot;

    class Jobs;
    std::unique_ptr<Jobs> m_jobs;
};

} // namespace nanscope::views
