// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparedialog.hpp"

#include "nanscope/views/comparepanel.hpp"
#include "nanscope/views/navigator.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QVBoxLayout>

namespace nanscope::app {

CompareDialog::CompareDialog(items::LogdirSession* runA, views::Navigator* navigator,
                             QWidget* parent)
    : QDialog(parent), m_runA(runA), m_navigator(navigator), m_runB(new items::LogdirSession(this)),
      m_panel(new views::ComparePanel(this))
{
    setWindowTitle(tr("Compare Runs"));
    // Beside the main window, not over it: its events are what a double-click shows.
    setModal(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_panel, 1);
    layout->addWidget(buttons);
    resize(900, 620);

    connect(m_runB, &items::LogdirSession::loadingFinished, this, &CompareDialog::onRunBLoaded);
    connect(m_runB, &items::LogdirSession::loadingFailed, this, [this](const QString& message) {
        m_panel->showStatus(tr("Run B (%1) could not be read: %2")
                                .arg(QDir::toNativeSeparators(m_runB->path()), message));
        Q_EMIT comparisonShown();
    });
    connect(m_panel, &views::ComparePanel::compared, this, &CompareDialog::comparisonShown);
    connect(m_panel, &views::ComparePanel::eventActivated, this,
            [this](core::RunSide side, core::EventRef event) {
                if (side == core::RunSide::A)
                    showInWindow(event);
            });
}

CompareDialog::~CompareDialog() = default;

void CompareDialog::compareWith(const QString& path)
{
    m_comparedA.reset();
    m_panel->showStatus(tr("Reading run B: %1…").arg(QDir::toNativeSeparators(path)));
    m_runB->open(path);
}

bool CompareDialog::isBusy() const
{
    return m_runB->isLoading() || m_panel->isBusy();
}

void CompareDialog::onRunBLoaded(bool cancelled)
{
    const items::SnapshotPtr a = m_runA->snapshot();
    const items::SnapshotPtr b = m_runB->snapshot();
    if (!b || !b->readable())
        return; // loadingFailed came first and said why
    if (cancelled) {
        m_panel->showStatus(tr("Reading run B was stopped"));
        Q_EMIT comparisonShown();
        return;
    }
    if (!a || !a->readable()) {
        m_panel->showStatus(tr("Open a logdir first: it is run A"));
        Q_EMIT comparisonShown();
        return;
    }
    m_comparedA = a;
    m_panel->compare(a, b);
}

void CompareDialog::showInWindow(core::EventRef event)
{
    // Only while the window still shows the logdir compared: another logdir's event of the same
    // index would be another op.
    const items::SnapshotPtr shown = m_navigator->snapshot();
    if (!shown || !m_comparedA || !items::sameLogdir(shown, m_comparedA))
        return;
    m_navigator->focusEvent(event);
    if (QWidget* window = parentWidget()) {
        window->raise();
        window->activateWindow();
    }
}

} // namespace nanscope::app
