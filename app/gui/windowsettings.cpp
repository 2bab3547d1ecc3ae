// SPDX-License-Identifier: GPL-3.0-or-later
#include "windowsettings.hpp"

#include "docklayout.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/views/stacktracepanel.hpp"

#include <QMainWindow>
#include <QSettings>
#include <algorithm>

namespace nanscope::app {
namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kDocksKey = QStringLiteral("mainWindow/docks");
const QString kPatternsKey = QStringLiteral("stackTrace/frameworkPatterns");
const QString kMaxMemoryKey = QStringLiteral("reader/maxMemoryMiB");
constexpr quint64 kMaxMemoryMiB = quint64{1} << 24;

} // namespace

QRect defaultWindowGeometry(const QRect& available)
{
    if (available.width() <= 1600 || available.height() <= 1000)
        return available;
    const QSize size(std::min(available.width() * 85 / 100, 2560),
                     std::min(available.height() * 85 / 100, 1600));
    QRect geometry(QPoint(), size);
    geometry.moveCenter(available.center());
    return geometry;
}

bool WindowSettings::restore(QMainWindow* window, DockLayout& docks,
                             views::StackTracePanel* stackTrace) const
{
    if (!m_enabled)
        return false;
    QSettings settings;
    const QStringList patterns = settings.value(kPatternsKey).toStringList();
    if (!patterns.isEmpty())
        stackTrace->setFrameworkPatterns(patterns);
    if (settings.contains(kGeometryKey))
        window->restoreGeometry(settings.value(kGeometryKey).toByteArray());
    window->restoreState(settings.value(kStateKey).toByteArray());
    return docks.restoreState(settings.value(kDocksKey).toByteArray());
}

void WindowSettings::save(const QMainWindow* window, const DockLayout& docks) const
{
    if (!m_enabled)
        return;
    QSettings settings;
    settings.setValue(kGeometryKey, window->saveGeometry());
    settings.setValue(kStateKey, window->saveState());
    settings.setValue(kDocksKey, docks.saveState());
}

quint64 WindowSettings::maxMemoryBytes() const
{
    if (m_enabled) {
        bool ok = false;
        const quint64 mib = QSettings().value(kMaxMemoryKey).toULongLong(&ok);
        if (ok && mib >= 1 && mib <= kMaxMemoryMiB)
            return mib << 20;
    }
    return core::kDefaultMaxMemoryBytes;
}

void WindowSettings::saveFrameworkPatterns(const QStringList& patterns) const
{
    if (m_enabled)
        QSettings().setValue(kPatternsKey, patterns);
}

} // namespace nanscope::app
