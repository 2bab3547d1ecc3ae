// SPDX-License-Identifier: GPL-3.0-or-later
#include "recentlogdirs.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace nanscope::app {
namespace {

const QString kKey = QStringLiteral("recentLogdirs");

QString normalised(const QString& path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

} // namespace

QString displayPath(const QString& path)
{
    return QDir::toNativeSeparators(QDir::cleanPath(path));
}

RecentLogdirs::RecentLogdirs(bool persistent) : m_persistent(persistent)
{
    if (m_persistent)
        m_entries = QSettings().value(kKey).toStringList();
    m_entries.removeDuplicates();
    while (m_entries.size() > kMaxEntries)
        m_entries.removeLast();
}

void RecentLogdirs::add(const QString& path)
{
    const QString entry = normalised(path);
    m_entries.removeAll(entry);
    m_entries.prepend(entry);
    while (m_entries.size() > kMaxEntries)
        m_entries.removeLast();
    save();
}

void RecentLogdirs::remove(const QString& path)
{
    m_entries.removeAll(normalised(path));
    save();
}

void RecentLogdirs::clear()
{
    m_entries.clear();
    save();
}

void RecentLogdirs::save() const
{
    if (m_persistent)
        QSettings().setValue(kKey, m_entries);
}

} // namespace nanscope::app
