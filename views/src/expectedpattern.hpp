// SPDX-License-Identifier: GPL-3.0-or-later
// The pattern "Treat as Expected" adds for an event (core/intent.hpp): its op's type and the
// kinds of non-finite value it made, "aten::log:-inf". One place, for every panel that offers it.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <QString>

class QAction;
class QMenu;

namespace nanscope::views {

// Empty when the event's op has no type, or its type makes no valid pattern. O(1): one digest.
QString expectedPatternFor(const core::Snapshot& snapshot, core::EventRef event);

// The menu entry "Treat as Expected: <pattern>", its tooltip said once for every menu.
QAction* addTreatAsExpectedAction(QMenu& menu, const QString& pattern);

} // namespace nanscope::views
