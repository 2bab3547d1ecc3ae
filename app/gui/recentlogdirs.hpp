// SPDX-License-Identifier: GPL-3.0-or-later
// The logdirs opened before, most recent first, kept in the application's settings.
#pragma once

#include <QStringList>

namespace nanscope::app {

// A logdir's path the way the window shows it: cleaned, with the platform's separators.
QString displayPath(const QString& path);

class RecentLogdirs
{
public:
    static constexpr int kMaxEntries = 10;

    // `persistent` false: kept in memory only (screenshots, tests that must not touch settings).
    explicit RecentLogdirs(bool persistent = true);

    QStringList entries() const { return m_entries; }
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

private:
    void save() const;

    bool m_persistent;
    QStringList m_entries;
};

} // namespace nanscope::app
