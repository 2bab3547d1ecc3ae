// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/sourcepanel.hpp"

#include "healthstyle.hpp"
#include "nanscope/core/nonfinitelines.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "nanscope/widgets/plainlabel.hpp"
#include "nanscope/widgets/plaintooltip.hpp"
#include "nanscope/widgets/whenidle.hpp"
#include "qsci.hpp"
#include "snapshotjob.hpp"
#include "sourcelexer.hpp"

#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

namespace nanscope::views {

using items::fromStd;

namespace {

// Debugger V2's focus orange: a translucent line background and a solid margin arrow.
QColor focusLineColor(const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Base).lightnessF() < 0.5;
    return dark ? QColor(0x6b, 0x3a, 0x0c) : QColor(0xff, 0xd8, 0xb5);
}

// A source file's text as the logdir holds it, a line at a time: every line ends in a newline.
QString joinedLines(const std::vector<std::string>& lines)
{
    QString text;
    for (const std::string& line : lines) {
        text += fromStd(line);
        if (line.empty() || line.back() != '\n')
            text += QLatin1Char('\n');
    }
    return text;
}

// A warm-up of an editor, off screen: a page of Python source given to it (beginWarmUp), painted
// a band at a time (paintBand, SourcePanel::paintBands) and taken away again (endWarmUp). The
// lexer's first use, the fixed font's glyphs and the scroll bars' pixmaps are then ready for the
// first file the user opens, whose jump otherwise paid 4-6 ms for them. In steps, each an event of
// its own: the page painted whole was one of 5-8 ms.
constexpr int kOffScreenBands = 3;

void beginWarmUp(QsciScintilla* editor, const QPalette& palette)
{
    QString page;
    for (int line = 0; line < 40; ++line) {
        for (char16_t c = u' '; c <= u'~'; ++c)
            page += QChar(c);
        page += QLatin1Char('\n');
    }
    QsciLexer* lexer = lexerForPath(QStringLiteral("warm_up.py"), editor);
    adaptLexer(lexer, palette, QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor->setLexer(lexer);
    editor->setText(page);
    editor->resize(700, 500);
}

// Band `band` of kOffScreenBands, painted into an image that is thrown away.
void paintBand(QsciScintilla* editor, int band)
{
    const QSize size = editor->size();
    const int top = size.height() * band / kOffScreenBands;
    const int bottom = size.height() * (band + 1) / kOffScreenBands;
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    editor->render(&image, {}, QRegion(0, top, size.width(), bottom - top));
}

void endWarmUp(QsciScintilla* editor)
{
    QsciLexer* lexer = editor->lexer();
    editor->setLexer(nullptr);
    delete lexer;
    editor->clear();
}

} // namespace

// The origin's source file, read on a pool thread.
struct SourcePanel::FirstFile
{
    int index = -1; // none
    QString path;
    QString text;
};

class SourcePanel::Jobs
{
public:
    explicit Jobs(SourcePanel* panel)
        : marks([panel](LineMap lines) {
              panel->m_nonFinite = std::move(lines);
              for (auto it = panel->m_fileOfEditor.cbegin(); it != panel->m_fileOfEditor.cend();
                   ++it)
                  panel->showMarks(it.key(), it.value());
          }),
          firstFile([panel](const FirstFile& file) { panel->prepareFirstFile(file); })
    {}
    SnapshotJob<LineMap> marks;
    SnapshotJob<FirstFile> firstFile;
};

SourcePanel::SourcePanel(Navigator* navigator, QWidget* parent)
    : Panel(navigator, parent), m_jobs(std::make_unique<Jobs>(this))
{
    setWindowTitle(tr("Source"));
    m_path = new widgets::ElidedLabel(this);
    m_path->setElideMode(Qt::ElideMiddle);
    m_info = widgets::plainLabel({}, this);
    m_info->setForegroundRole(QPalette::PlaceholderText);
    m_files = new QToolButton(this);
    m_files->setText(tr("Files"));
    m_files->setAutoRaise(true);
    m_files->setPopupMode(QToolButton::InstantPopup);
    m_files->setToolTip(tr("Open any source file the logdir captured"));
    m_files->setMenu(new QMenu(m_files));
    connect(m_files->menu(), &QMenu::aboutToShow, this, &SourcePanel::showFilesMenu);
    auto* header = new QHBoxLayout;
    header->setSpacing(8);
    header->addWidget(m_path, 1);
    header->addWidget(m_info);
    header->addWidget(m_files);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->tabBar()->setExpanding(false);
    m_tabs->tabBar()->setElideMode(Qt::ElideMiddle);
    m_placeholder =
        widgets::plainLabel(tr("No source shown. Double-click an alert or click a stack "
                               "frame to show the line that created an op."),
                            this); // it may name a file of the logdir
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_tabs);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addWidget(m_stack, 1);

    connect(m_tabs, &QTabWidget::currentChanged, this, &SourcePanel::updateHeader);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int tab) {
        auto* editor = static_cast<QsciScintilla*>(m_tabs->widget(tab));
        m_fileOfEditor.remove(editor);
        m_tabs->removeTab(tab);
        editor->deleteLater();
        m_stack->setCurrentIndex(m_tabs->count() ? 1 : 0);
        updateHeader();
    });
    updateHeader();
    // The editor's warm-up (see beginWarmUp) in the first idle moments, while nothing is open:
    // once a logdir is, its first results come in the same moments.
    widgets::whenIdle(this, [this] { prepareSpareEditor(); });
}

SourcePanel::~SourcePanel() = default;

int SourcePanel::currentFileIndex() const
{
    auto* editor = currentEditor();
    return editor ? m_fileOfEditor.value(editor, -1) : -1;
}

QString SourcePanel::currentFilePath() const
{
    const int file = currentFileIndex();
    const auto& snapshot = navigator()->snapshot();
    if (file < 0 || !snapshot || static_cast<std::size_t>(file) >= snapshot->code().files().size())
        return {};
    return fromStd(snapshot->code().files()[static_cast<std::size_t>(file)].filePath);
}

QsciScintilla* SourcePanel::currentEditor() const
{
    return qobject_cast<QsciScintilla*>(m_tabs->currentWidget());
}

int SourcePanel::markedLine() const
{
    auto* editor = currentEditor();
    if (!editor)
        return 0;
    const int line = editor->markerFindNext(0, 1u << kFocusLineMarker);
    return line < 0 ? 0 : line + 1;
}

QString SourcePanel::lineText(int line) const
{
    auto* editor = currentEditor();
    if (!editor || line < 1 || line > editor->lines())
        return {};
    QString text = editor->text(line - 1);
    while (text.endsWith(QLatin1Char('\n')) || text.endsWith(QLatin1Char('\r')))
        text.chop(1);
    return text;
}

QSet<int> SourcePanel::nonFiniteLines() const
{
    QSet<int> lines;
    auto* editor = currentEditor();
    for (int line = editor ? editor->markerFindNext(0, 1u << kNonFiniteMarker) : -1; line >= 0;
         line = editor->markerFindNext(line + 1, 1u << kNonFiniteMarker))
        lines.insert(line + 1);
    return lines;
}

bool SourcePanel::isBusy() const
{
    return !m_jobs->marks.idle() || !m_jobs->firstFile.idle() || m_preparing;
}

void SourcePanel::closeAll()
{
    while (m_tabs->count() > 0) {
        QWidget* editor = m_tabs->widget(0);
        m_tabs->removeTab(0);
        delete editor;
    }
    m_fileOfEditor.clear();
    dropPreparedEditor();
    m_stack->setCurrentIndex(0);
    updateHeader();
}

void SourcePanel::dropPreparedEditor()
{
    m_jobs->firstFile.cancel();
    delete std::exchange(m_preparedEditor, nullptr);
    m_preparedFile = -1;
    m_preparing = false;
}

void SourcePanel::snapshotChanged(const items::SnapshotPtr& snapshot)
{
    // A newer snapshot of the same logdir keeps the tabs; another logdir's are stale.
    if (!items::sameLogdir(m_snapshot, snapshot)) {
        closeAll();
        m_nonFinite.clear();
    }
    m_snapshot = snapshot;
    if (!snapshot) {
        m_jobs->marks.cancel();
        m_jobs->firstFile.cancel();
        return;
    }
    if (!snapshot->complete())
        return;
    if (!m_spareEditor)
        widgets::whenIdle(this, [this] { prepareSpareEditor(); });
    m_jobs->marks.request(snapshot, [folding = navigator()->folding()](
                                        const core::Snapshot& s, const std::atomic_bool& stop) {
        LineMap lines;
        for (const auto& [file, fileLines] : core::nonFiniteUserLines(s, folding, &stop))
            for (const std::int32_t line : fileLines)
                lines[static_cast<int>(file)].insert(line);
        return lines;
    });
    if (m_preparedEditor || !m_fileOfEditor.isEmpty())
        return; // made ready already, or the user has opened files
    m_jobs->firstFile.request(
        snapshot, [folding = navigator()->folding(), sticky = navigator()->stickyFile()](
                      const core::Snapshot& s, const std::atomic_bool&) {
            FirstFile file;
            // The analysis is shared: the Alerts panel's job waits on the same one.
            const auto& origin = s.origin();
            if (!origin)
                return file;
            const Focus focus = focusForEvent(s, folding, origin->event, sticky);
            if (!focus.fileIndex || *focus.fileIndex >= s.code().files().size())
                return file;
            const auto lines = s.readSourceLines(*focus.fileIndex);
            if (!lines || lines->empty())
                return file;
            file.index = static_cast<int>(*focus.fileIndex);
            file.path = fromStd(s.code().files()[*focus.fileIndex].filePath);
            file.text = joinedLines(*lines);
            return file;
        });
}

void SourcePanel::prepareFirstFile(const FirstFile& file)
{
    if (file.index < 0 || m_preparing || m_preparedEditor ||
        m_fileOfEditor.key(file.index) != nullptr)
        return;
    m_preparing = true;
    // In an idle moment of its own: each of the panel's idle steps stays a few milliseconds.
    widgets::whenIdle(this, [this, file, logdir = m_snapshot] {
        if (!items::sameLogdir(m_snapshot, logdir))
            return; // another logdir meanwhile (whose closing reset m_preparing)
        if (m_preparedEditor || m_fileOfEditor.key(file.index) != nullptr) {
            m_preparing = false;
            return;
        }
        m_preparedEditor = createEditor(file.path, file.text);
        m_preparedEditor->hide();
        m_preparedFile = file.index;
        // Painted once at the size it will have as a tab: its first paint there is then as
        // quick as any other.
        const int tabBar = m_tabs->tabBar()->sizeHint().height();
        m_preparedEditor->resize(m_stack->width(), std::max(1, m_stack->height() - tabBar));
        paintBands(m_preparedEditor, &SourcePanel::m_preparedEditor, 0,
                   [this] { m_preparing = false; });
    });
}

QsciScintilla* SourcePanel::takePreparedEditor(int fileIndex)
{
    if (!m_preparedEditor || m_preparedFile != fileIndex)
        return nullptr;
    m_preparedFile = -1;
    m_preparing = false; // its painting, if not over, stops
    return std::exchange(m_preparedEditor, nullptr);
}

void SourcePanel::prepareSpareEditor()
{
    if (m_spareEditor)
        return;
    auto* editor = new QsciScintilla(this);
    editor->hide();
    m_spareEditor = editor;
    widgets::whenIdle(this, [this, editor] {
        if (m_spareEditor != editor)
            return;
        beginWarmUp(editor, palette());
        paintBands(editor, &SourcePanel::m_spareEditor, 0, [editor] { endWarmUp(editor); });
    });
}

// Paints band `band` of `editor` off screen in an event of its own, then the next, while the
// editor is still the one `slot` holds (the spare or the prepared one); after the last, `then`.
void SourcePanel::paintBands(QsciScintilla* editor, QsciScintilla* SourcePanel::*slot, int band,
                             const std::function<void()>& then)
{
    widgets::whenIdle(this, [this, editor, slot, band, then] {
        if (this->*slot != editor)
            return; // taken, or dropped with its logdir
        if (band == kOffScreenBands) {
            then();
            return;
        }
        paintBand(editor, band);
        paintBands(editor, slot, band + 1, then);
    });
}

QsciScintilla* SourcePanel::createEditor(const QString& path, const QString& text)
{
    auto* editor = m_spareEditor ? std::exchange(m_spareEditor, nullptr) : new QsciScintilla(this);
    if (editor->lexer())
        endWarmUp(editor); // taken before its warm-up was over
    editor->setUtf8(true);
    const QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const QPalette pal = palette();
    if (QsciLexer* lexer = lexerForPath(path, editor)) {
        adaptLexer(lexer, pal, font);
        editor->setLexer(lexer);
    } else {
        editor->setFont(font);
        editor->setPaper(pal.color(QPalette::Base));
        editor->setColor(pal.color(QPalette::Text));
    }
    editor->setText(text);
    editor->setReadOnly(true);
    editor->setWrapMode(QsciScintilla::WrapNone);
    editor->setTabWidth(4);
    editor->setFolding(QsciScintilla::NoFoldStyle);
    editor->setBraceMatching(QsciScintilla::NoBraceMatch);
    editor->setCaretLineVisible(false);
    editor->setCaretWidth(0);
    editor->setFrameShape(QFrame::NoFrame);
    editor->setAcceptDrops(false); // a dropped folder opens a logdir, in the window
    editor->setSelectionBackgroundColor(pal.color(QPalette::Highlight));
    editor->setSelectionForegroundColor(pal.color(QPalette::HighlightedText));

    // Margin 0: line numbers; margin 1: the focus arrow and the non-finite marks.
    editor->setMarginsFont(font);
    editor->setMarginsBackgroundColor(pal.color(QPalette::Window));
    editor->setMarginsForegroundColor(pal.color(QPalette::PlaceholderText));
    editor->setMarginType(0, QsciScintilla::NumberMargin);
    editor->setMarginWidth(0, QStringLiteral("0") + QString::number(editor->lines()) +
                                  QStringLiteral("0"));
    editor->setMarginMarkerMask(0, 0);
    editor->setMarginType(1, QsciScintilla::SymbolMargin);
    editor->setMarginWidth(1, editor->fontMetrics().height());
    editor->setMarginMarkerMask(1, (1 << kFocusArrowMarker) | (1 << kNonFiniteMarker));
    editor->setMarginWidth(2, 0);

    editor->markerDefine(QsciScintilla::Background, kFocusLineMarker);
    editor->setMarkerBackgroundColor(focusLineColor(pal), kFocusLineMarker);
    editor->markerDefine(QsciScintilla::RightArrow, kFocusArrowMarker);
    editor->setMarkerBackgroundColor(QColor(0xff, 0x6f, 0x00), kFocusArrowMarker);
    editor->setMarkerForegroundColor(QColor(0xff, 0x6f, 0x00), kFocusArrowMarker);
    editor->markerDefine(QsciScintilla::Circle, kNonFiniteMarker);
    editor->setMarkerBackgroundColor(healthstyle::nan(), kNonFiniteMarker);
    editor->setMarkerForegroundColor(healthstyle::nan(), kNonFiniteMarker);

    return editor;
}

void SourcePanel::showMarks(QsciScintilla* editor, int fileIndex)
{
    editor->markerDeleteAll(kNonFiniteMarker);
    for (const int line : m_nonFinite.value(fileIndex))
        if (line >= 1 && line <= editor->lines())
            editor->markerAdd(line - 1, kNonFiniteMarker);
}

bool SourcePanel::openFile(int fileIndex)
{
    for (auto it = m_fileOfEditor.cbegin(); it != m_fileOfEditor.cend(); ++it) {
        if (it.value() == fileIndex) {
            m_tabs->setCurrentWidget(it.key());
            m_stack->setCurrentIndex(1);
            return true;
        }
    }
    const auto& snapshot = navigator()->snapshot();
    if (!snapshot || fileIndex < 0 ||
        static_cast<std::size_t>(fileIndex) >= snapshot->code().files().size())
        return false;
    const core::SourceFileInfo& info =
        snapshot->code().files()[static_cast<std::size_t>(fileIndex)];
    const QString path = fromStd(info.filePath);
    QsciScintilla* editor = takePreparedEditor(fileIndex);
    if (!editor) {
        const auto lines = snapshot->readSourceLines(static_cast<std::size_t>(fileIndex));
        if (!lines || lines->empty()) {
            m_placeholder->setText(
                tr("The logdir holds no text for %1%2")
                    .arg(path, lines.error.empty() ? QString()
                                                   : QStringLiteral(": ") + fromStd(lines.error)));
            if (m_tabs->count() == 0)
                m_stack->setCurrentIndex(0);
            return false;
        }
        editor = createEditor(path, joinedLines(*lines));
    }
    m_fileOfEditor.insert(editor, fileIndex);
    showMarks(editor, fileIndex);
    QString title = QFileInfo(path).fileName();
    title.replace(QLatin1Char('&'), QStringLiteral("&&"));
    const int tab = m_tabs->addTab(editor, title);
    m_tabs->setTabToolTip(tab, widgets::plainToolTip(QDir::toNativeSeparators(path)));
    m_tabs->setCurrentIndex(tab);
    m_stack->setCurrentIndex(1);
    updateHeader();
    return true;
}

void SourcePanel::focusChanged(const Focus& focus)
{
    if (focus.fileIndex)
        openFile(static_cast<int>(*focus.fileIndex));
    showFocusLine();
}

void SourcePanel::showFocusLine()
{
    const Focus& focus = navigator()->focus();
    for (auto it = m_fileOfEditor.cbegin(); it != m_fileOfEditor.cend(); ++it) {
        QsciScintilla* editor = it.key();
        editor->markerDeleteAll(kFocusLineMarker);
        editor->markerDeleteAll(kFocusArrowMarker);
        if (!focus.fileIndex || static_cast<int>(*focus.fileIndex) != it.value() ||
            focus.line < 1 || focus.line > editor->lines())
            continue;
        const int line = focus.line - 1;
        editor->markerAdd(line, kFocusLineMarker);
        editor->markerAdd(line, kFocusArrowMarker);
        editor->setCursorPosition(line, 0);
        // Centred, as Debugger V2 reveals it.
        const auto visible =
            static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN));
        editor->setFirstVisibleLine(std::max(0, line - visible / 2));
    }
    updateHeader();
}

void SourcePanel::updateHeader()
{
    const int file = currentFileIndex();
    const auto& snapshot = navigator()->snapshot();
    if (file < 0 || !snapshot ||
        static_cast<std::size_t>(file) >= snapshot->code().files().size()) {
        m_path->setText({});
        m_info->clear();
        return;
    }
    const core::SourceFileInfo& info = snapshot->code().files()[static_cast<std::size_t>(file)];
    m_path->setText(QDir::toNativeSeparators(fromStd(info.filePath)));
    QStringList details;
    if (!info.hostName.empty())
        details << fromStd(info.hostName);
    if (auto* editor = currentEditor())
        details << tr("%L1 lines").arg(editor->lines() - 1);
    const int marks = m_nonFinite.value(file).size();
    if (marks > 0)
        details << (marks == 1 ? tr("1 line made NaN or ∞")
                               : tr("%L1 lines made NaN or ∞").arg(marks));
    m_info->setText(details.join(QStringLiteral(" · ")));
}

void SourcePanel::showFilesMenu()
{
    QMenu* menu = m_files->menu();
    menu->clear();
    const auto& snapshot = navigator()->snapshot();
    if (!snapshot || snapshot->code().files().empty()) {
        menu->addAction(tr("No source files in this logdir"))->setEnabled(false);
        return;
    }
    const auto& files = snapshot->code().files();
    for (std::size_t i = 0; i < files.size(); ++i) {
        QString label = QDir::toNativeSeparators(fromStd(files[i].filePath));
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* action = menu->addAction(label);
        action->setEnabled(files[i].lineCount > 0);
        connect(action, &QAction::triggered, this, [this, i] { openFile(static_cast<int>(i)); });
    }
}

} // namespace nanscope::views
