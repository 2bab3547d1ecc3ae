// SPDX-License-Identifier: GPL-3.0-or-later
#include "gototarget.hpp"

#include "mainwindow.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "nanscope/views/alertspanel.hpp"
#include "nanscope/views/navigator.hpp"

#include <algorithm>

namespace nanscope::app {
namespace {

void say(QString* error, const QString& why)
{
    if (error)
        *error = why;
}

} // namespace

std::optional<GotoTarget> parseGotoTarget(const QString& text, QString* error)
{
    if (text == QLatin1String("first-alert"))
        return GotoTarget{GotoTarget::Kind::FirstAlert};
    if (text == QLatin1String("origin"))
        return GotoTarget{GotoTarget::Kind::Origin};
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    const QString kind = text.left(colon);
    if (colon > 0 && (kind == QLatin1String("trace") || kind == QLatin1String("execution"))) {
        bool ok = false;
        const QString number = text.mid(colon + 1);
        const qulonglong index = number.toULongLong(&ok);
        // toULongLong accepts a sign and spaces; an index is digits only.
        const bool digits = !number.isEmpty() && std::all_of(number.begin(), number.end(),
                                                             [](QChar c) { return c.isDigit(); });
        if (ok && digits)
            return GotoTarget{kind == QLatin1String("trace") ? GotoTarget::Kind::Trace
                                                             : GotoTarget::Kind::Execution,
                              index};
        say(error, QStringLiteral("'%1' is not an index in --goto %2").arg(number, text));
        return std::nullopt;
    }
    say(error, QStringLiteral("unknown --goto target '%1': expected first-alert, origin, "
                              "trace:N or execution:N")
                   .arg(text));
    return std::nullopt;
}

bool goTo(MainWindow& window, const GotoTarget& target, QString* error)
{
    const items::SnapshotPtr snapshot = window.session()->snapshot();
    if (!snapshot || !snapshot->readable()) {
        say(error, QStringLiteral("the logdir could not be read"));
        return false;
    }
    views::Navigator& navigator = *window.navigator();
    switch (target.kind) {
    case GotoTarget::Kind::FirstAlert:
        if (window.jumpToFirstAlert())
            return true;
        say(error, QStringLiteral("the logdir has no alert"));
        return false;
    case GotoTarget::Kind::Origin:
        if (window.alertsPanel()->goToOrigin())
            return true;
        if (const quint64 setAside = window.alertsPanel()->setAsideEventCount())
            say(error, QStringLiteral("every NaN or infinity (%1 tensors) was set aside as "
                                      "intended, so no origin")
                           .arg(setAside));
        else
            say(error, QStringLiteral("the logdir has no NaN or infinity, so no origin"));
        return false;
    case GotoTarget::Kind::Trace:
        if (target.index < snapshot->traceCount()) {
            navigator.focusTrace(target.index);
            return true;
        }
        say(error, QStringLiteral("there is no trace %1: the logdir has %2")
                       .arg(target.index)
                       .arg(snapshot->traceCount()));
        return false;
    case GotoTarget::Kind::Execution:
        if (target.index < snapshot->executionCount()) {
            navigator.focusExecution(target.index);
            return true;
        }
        say(error, QStringLiteral("there is no execution %1: the logdir has %2")
                       .arg(target.index)
                       .arg(snapshot->executionCount()));
        return false;
    }
    return false;
}

} // namespace nanscope::app
