// SPDX-License-Identifier: GPL-3.0-or-later
#include "logdirstatus.hpp"

#include "diagnosticsdialog.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/hostoriginsearch.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/views/snapshotnotices.hpp"
#include "nanscope/widgets/banner.hpp"
#include "recentlogdirs.hpp"

#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QProgressBar>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>
#include <utility>

namespace nanscope::app {
namespace {

widgets::Banner::Kind bannerKind(views::SnapshotNotice::Severity severity)
{
    switch (severity) {
    case views::SnapshotNotice::Severity::Error:
        return widgets::Banner::Kind::Error;
    case views::SnapshotNotice::Severity::Warning:
        return widgets::Banner::Kind::Warning;
    case views::SnapshotNotice::Severity::Info:
        break;
    }
    return widgets::Banner::Kind::Info;
}

// QProgressBar::setValue repaints at once when the bar moves a pixel, and a repaint paints every
// region of the window waiting to be painted, there and then: 5-6 ms of the GUI thread in each
// progress signal while a large logdir loads. With its updates off the bar skips that, and turning
// them on again schedules an ordinary update, painted with the rest of the window.
void setProgressLater(QProgressBar* bar, int value)
{
    bar->setUpdatesEnabled(false);
    bar->setValue(value);
    bar->setUpdatesEnabled(true);
}

} // namespace

LogdirStatus::LogdirStatus(items::LogdirSession* session, widgets::Banner* banner,
                           QMainWindow* window)
    : QObject(window), m_session(session), m_banner(banner), m_window(window)
{
    QStatusBar* bar = window->statusBar();
    m_counts = new QLabel(window);
    m_counts->setTextFormat(Qt::PlainText);
    m_followState = new QLabel(tr("● Following"), window);
    m_followState->setTextFormat(Qt::PlainText);
    m_followState->setToolTip(tr("Events appended to the logdir are read as they come"));
    QPalette followPalette = m_followState->palette();
    followPalette.setColor(QPalette::WindowText, QColor(0x2e, 0x9d, 0x5b));
    m_followState->setPalette(followPalette);
    m_followState->hide();
    m_progress = new QProgressBar(window);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(200);
    m_progress->setMaximumHeight(bar->fontMetrics().height());
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancel = new QToolButton(window);
    m_cancel->setIcon(window->style()->standardIcon(QStyle::SP_DialogCancelButton));
    m_cancel->setAutoRaise(true);
    m_cancel->setToolTip(tr("Stop loading (what was read so far stays)"));
    m_cancel->hide();
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
    bar->addPermanentWidget(m_followState);
    bar->addPermanentWidget(m_counts);

    using Session = items::LogdirSession;
    connect(m_cancel, &QToolButton::clicked, session, &Session::cancel);
    connect(session, &Session::loadingStarted, this, [this](const QString& path) {
        m_progress->setValue(0);
        setLoading(true);
        m_window->statusBar()->showMessage(tr("Reading %1…").arg(displayPath(path)));
    });
    connect(session, &Session::progressChanged, this, [this](qint64 done, qint64 total) {
        setProgressLater(m_progress, total > 0 ? static_cast<int>(done * 1000 / total) : 0);
    });
    connect(session, &Session::snapshotChanged, this, [this] {
        updateCounts();
        if (!m_session->isLoading())
            showNotices(); // following: "no events yet" goes once events come
    });
    connect(session, &Session::loadingFinished, this, &LogdirStatus::onLoadingFinished);
    connect(session, &Session::loadingFailed, this, &LogdirStatus::onLoadingFailed);
    connect(session, &Session::closed, this, [this] {
        m_banner->clear();
        setLoading(false);
        updateCounts();
    });
    connect(session, &Session::followingChanged, m_followState, &QWidget::setVisible);
    m_hostOrigins = new items::HostOriginSearch(this);
    connect(m_hostOrigins, &items::HostOriginSearch::found, this, &LogdirStatus::onHostOrigins);
    connect(session, &Session::loadingStarted, m_hostOrigins, &items::HostOriginSearch::cancel);
    connect(session, &Session::closed, m_hostOrigins, &items::HostOriginSearch::cancel);
    connect(banner, &widgets::Banner::actionTriggered, this, &LogdirStatus::onBannerAction);
    connect(banner, &widgets::Banner::dismissed, this, [this] { m_noticeDismissed = true; });
}

QString LogdirStatus::countsText() const
{
    return m_counts->text();
}

void LogdirStatus::setLoading(bool loading)
{
    m_progress->setVisible(loading);
    m_cancel->setVisible(loading);
}

void LogdirStatus::updateCounts()
{
    const items::SnapshotPtr snapshot = m_session->snapshot();
    if (!snapshot || !snapshot->readable()) {
        m_counts->clear();
        return;
    }
    QString counts = tr("%L1 graph traces · %L2 executions · %L3 alerts")
                         .arg(snapshot->traceCount())
                         .arg(snapshot->executionCount())
                         .arg(snapshot->alertCount());
    if (m_setAsideAlerts > 0 && m_setAsideAlerts <= snapshot->alertCount())
        counts += tr(" (%L1 set aside)").arg(m_setAsideAlerts);
    if (!m_session->mainHost().isEmpty()) // one host of several, picked by the user
        counts = tr("Host %1 · ").arg(m_session->mainHost()) + counts;
    m_counts->setText(counts);
}

void LogdirStatus::setSetAsideAlerts(quint64 alerts)
{
    m_setAsideAlerts = alerts;
    updateCounts();
}

void LogdirStatus::onLoadingFinished(bool cancelled)
{
    setLoading(false);
    updateCounts();
    const items::SnapshotPtr snapshot = m_session->snapshot();
    if (!snapshot || !snapshot->readable())
        return;
    m_window->statusBar()->showMessage(cancelled
                                           ? tr("Loading stopped: showing what was read")
                                           : tr("Read %1").arg(displayPath(m_session->path())),
                                       cancelled ? 0 : 4000);
    showNotices();
    if (!cancelled)
        m_hostOrigins->start(snapshot, m_session->path(), m_session->expected());
}

void LogdirStatus::onHostOrigins(const items::HostOrigins& origins)
{
    const core::ReportHostOrigin* earlier = origins.earlierThanMain();
    const bool errorShown =
        m_banner->isVisible() && m_banner->kind() == widgets::Banner::Kind::Error;
    if (!earlier || m_noticeDismissed || errorShown)
        return;
    const core::Origin& o = earlier->origin.origin;
    QString where;
    const core::FoldedStack& stack = earlier->origin.stack;
    if (stack.focusFrame) {
        const core::ResolvedFrame& frame = stack.frames[*stack.focusFrame].frame;
        where = tr(" at %1:%2")
                    .arg(QFileInfo(items::fromStd(frame.filePath)).fileName())
                    .arg(frame.line);
    }
    const QString host = items::fromStd(earlier->host);
    const QString main = items::fromStd(origins.mainHost);
    m_hostToRead = host;
    m_banner->showMessage(
        widgets::Banner::Kind::Warning, tr("Host %1 made the run's first NaN or ∞").arg(host),
        tr("%1%2 made %3 before anything on %4, whose alerts and origin are shown: a run of "
           "several hosts (a job's ranks) is read as TensorFlow reads it, from one host.")
            .arg(items::fromStd(o.opType), where, items::fromStd(o.health.describe()), main),
        tr("Read %1").arg(host));
}

void LogdirStatus::onBannerAction()
{
    if (m_hostToRead.isEmpty()) {
        DiagnosticsDialog(m_session->snapshot(), m_window).exec();
        return;
    }
    const QString host = std::exchange(m_hostToRead, QString());
    m_session->setMainHost(host);
    m_session->reload();
}

void LogdirStatus::onLoadingFailed(const QString& message)
{
    setLoading(false);
    m_window->statusBar()->clearMessage();
    const items::SnapshotPtr snapshot = m_session->snapshot();
    const bool details = snapshot && !snapshot->diagnostics().empty();
    m_hostToRead.clear();
    m_banner->showMessage(widgets::Banner::Kind::Error,
                          tr("Could not open %1").arg(displayPath(m_session->path())), message,
                          details ? tr("Details…") : QString());
}

void LogdirStatus::showNotices()
{
    m_hostToRead.clear();
    const items::SnapshotPtr snapshot = m_session->snapshot();
    if (!snapshot || !snapshot->readable() || m_noticeDismissed)
        return;
    const auto notices = views::snapshotNotices(*snapshot);
    if (notices.empty()) {
        m_banner->clear();
        return;
    }
    const views::SnapshotNotice& first = notices.front();
    const bool more = notices.size() > 1 || !snapshot->diagnostics().empty();
    QString text = first.text;
    if (notices.size() == 2)
        text += QLatin1Char(' ') + tr("(One more note in Details.)");
    else if (notices.size() > 2)
        text += QLatin1Char(' ') + tr("(%1 more notes in Details.)").arg(notices.size() - 1);
    m_banner->showMessage(bannerKind(first.severity), first.title, text,
                          more ? tr("Details…") : QString());
}

} // namespace nanscope::app
