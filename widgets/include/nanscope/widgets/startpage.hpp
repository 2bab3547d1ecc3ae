// SPDX-License-Identifier: GPL-3.0-or-later
// What a window shows before anything is open: a logo and title, the main actions as buttons,
// the recently opened items, and a hint. The texts come from the application.
#pragma once

#include <QIcon>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace nanscope::widgets {

class StartPage : public QWidget
{
    Q_OBJECT

public:
    explicit StartPage(QWidget* parent = nullptr);

    void setLogo(const QIcon& icon);
    void setTitle(const QString& title);
    void setTagline(const QString& tagline);
    void setHint(const QString& hint);
    void setOpenText(const QString& text);
    void setDemoText(const QString& text);
    // Most recent first; the list is hidden when empty.
    void setRecent(const QStringList& paths);
    QStringList recent() const;
    // A message with an indeterminate progress bar while something starts; empty: idle.
    void setBusy(const QString& message);

    QPushButton* openButton() const { return m_open; }
    QPushButton* demoButton() const { return m_demo; }
    QListWidget* recentList() const { return m_recent; }

Q_SIGNALS:
    void openRequested();
    void demoRequested();
    void recentActivated(const QString& path);

private:
    void buildHeading();
    QHBoxLayout* buildButtons();
    void buildBusyIndicator();
    void buildRecentList();
    void layOutColumn(QHBoxLayout* buttons);

    QLabel* m_logo = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_tagline = nullptr;
    QLabel* m_hint = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_demo = nullptr;
    QLabel* m_recentTitle = nullptr;
    QListWidget* m_recent = nullptr;
    QLabel* m_busyText = nullptr;
    QProgressBar* m_busy = nullptr;
};

} // namespace nanscope::widgets
