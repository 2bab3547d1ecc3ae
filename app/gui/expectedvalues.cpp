// SPDX-License-Identifier: GPL-3.0-or-later
#include "expectedvalues.hpp"

#include "nanscope/core/intent.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace nanscope::app {
namespace {

// One map, path → patterns: paths hold '/', which QSettings would read as groups in a key.
const QString kKey = QStringLiteral("expectedValues");

} // namespace

ExpectedValues::ExpectedValues(bool persistent) : m_persistent(persistent)
{
    if (!m_persistent)
        return;
    const QVariantMap saved = QSettings().value(kKey).toMap();
    for (auto it = saved.begin(); it != saved.end(); ++it) {
        QStringList patterns = it.value().toStringList();
        patterns.removeDuplicates();
        // A hand-edited or older settings file must not feed the reader what it refuses.
        patterns.removeIf([](const QString& pattern) {
            return !core::ExpectedPattern::parse(pattern.toStdString(), nullptr);
        });
        if (!patterns.isEmpty())
            m_byLogdir.insert(it.key(), patterns);
    }
}

QString ExpectedValues::logdirKey(const QString& path)
{
    const QFileInfo info(path);
    return QDir::cleanPath(info.isFile() ? info.absolutePath() : info.absoluteFilePath());
}

QStringList ExpectedValues::patterns(const QString& logdir) const
{
    return m_byLogdir.value(logdirKey(logdir));
}

bool ExpectedValues::add(const QString& logdir, const QString& pattern, QString* error)
{
    std::string why;
    const auto parsed = core::ExpectedPattern::parse(pattern.toStdString(), &why);
    if (!parsed) {
        if (error)
            *error = QString::fromStdString(why);
        return false;
    }
    const QString text = QString::fromStdString(parsed->text);
    QStringList& list = m_byLogdir[logdirKey(logdir)];
    if (list.contains(text)) {
        if (error)
            *error = QObject::tr("%1 is already listed").arg(text);
        return false;
    }
    list << text;
    save();
    return true;
}

void ExpectedValues::setPatterns(const QString& logdir, const QStringList& patterns)
{
    if (patterns.isEmpty())
        m_byLogdir.remove(logdirKey(logdir));
    else
        m_byLogdir.insert(logdirKey(logdir), patterns);
    save();
}

void ExpectedValues::save() const
{
    if (!m_persistent)
        return;
    QVariantMap map;
    for (auto it = m_byLogdir.begin(); it != m_byLogdir.end(); ++it)
        map.insert(it.key(), it.value());
    QSettings().setValue(kKey, map);
}

} // namespace nanscope::app
