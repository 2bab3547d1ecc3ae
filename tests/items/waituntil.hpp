// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QTest>

namespace nanscope::test {

// Runs the event loop until `done()` holds or `milliseconds` pass; returns done().
template <typename Predicate>
bool waitUntil(Predicate done, int milliseconds = 10000)
{
    QDeadlineTimer deadline(milliseconds);
    while (!done() && !deadline.hasExpired())
        QTest::qWait(10);
    return done();
}

} // namespace nanscope::test
