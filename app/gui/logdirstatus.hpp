// SPDX-License-Identifier: GPL-3.0-or-later
// How the window reports on the logdir it shows: in the status bar, the reading progress with a
// button that stops it, the follow state and the counts; in the banner, what a loaded logdir
// lacks or why one could not be opened, with the details a click away (DiagnosticsDialog), and
// when another host (rank) made the run's first NaN, with a button that reads that host.
#pragma once

#include <QObject>

class QLabel;
class QMainWindow;
class QProgressBar;
class QToolButton;

namespace nanscope::items {
class HostOriginSearch;
class LogdirSession;
struct HostOrigins;
} // namespace nanscope::items
namespace nanscope::widgets {
class Banner;
}

namespace nanscope::app {

class LogdirStatus : public QObject
{
    Q_OBJECT

public:
    // Listens to `session` from now on: made before the window's own connections, it has
    // updated the status bar and the banner by the time the window hears of a load.
    LogdirStatus(items::LogdirSession* session, widgets::Banner* banner, QMainWindow* window);

    // "830 graph traces · 226 executions · 507 alerts"; empty without a readable snapshot.
    QString countsText() const;
    // Of the alerts, how many the Alerts panel set aside as intended (TensorBoard counts them):
    // "507 alerts (183 set aside)".
    void setSetAsideAlerts(quint64 alerts);
    // The notes of the next load show even where the user closed the banner before.
    void forgetDismissal() { m_noticeDismissed = false; }

private:
    void setLoading(bool loading);
    void updateCounts();
    void showNotices();
    void onLoadingFinished(bool cancelled);
    void onLoadingFailed(const QString& message);
    void onHostOrigins(const items::HostOrigins& origins);
    void onBannerAction();

    items::LogdirSession* m_session;
    widgets::Banner* m_banner;
    QMainWindow* m_window;
    QLabel* m_counts = nullptr;
    QLabel* m_followState = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    items::HostOriginSearch* m_hostOrigins = nullptr;
    QString m_hostToRead; // the banner's button reads this host as the main one, when set
    bool m_noticeDismissed = false;
    quint64 m_setAsideAlerts = 0;
};

} // namespace nanscope::app
