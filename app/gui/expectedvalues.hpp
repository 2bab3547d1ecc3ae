// SPDX-License-Identifier: GPL-3.0-or-later
// The non-finite values the user treats as expected, one list of patterns per logdir
// (core::ExpectedPattern's text, "aten::masked_fill:-inf"), kept in the application's settings
// beside the recent logdirs. The reader sets matching values aside as intended.
#pragma once

#include <QMap>
#include <QStringList>

namespace nanscope::app {

class ExpectedValues
{
public:
    // `persistent` false: kept in memory only (scripted runs, tests that must not touch
    // settings).
    explicit ExpectedValues(bool persistent = true);

    // The key of a logdir, or of any file in it: its folder's clean absolute path.
    static QString logdirKey(const QString& path);

    QStringList patterns(const QString& logdir) const;
    // False when `pattern` is no valid core::ExpectedPattern (`error` says why) or is listed.
    bool add(const QString& logdir, const QString& pattern, QString* error = nullptr);
    void setPatterns(const QString& logdir, const QStringList& patterns);
    void clear(const QString& logdir) { setPatterns(logdir, {}); }

private:
    void save() const;

    bool m_persistent;
    QMap<QString, QStringList> m_byLogdir;
};

} // namespace nanscope::app
