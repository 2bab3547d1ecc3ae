// SPDX-License-Identifier: GPL-3.0-or-later
// What each panel shows, as JSON: `nanscope LOGDIR --goto … --print-focus` prints it, so that a
// script or a test checks the tutorial's workflow end to end without a mouse.
#pragma once

#include <QJsonObject>

namespace nanscope::app {

class MainWindow;

// {"logdir", "event", "op", "graph_execution", "execution", "stack_trace", "source",
//  "graph_structure", "alerts", "tensor", "window"}: nulls where a panel shows nothing. Strings are
//  the logdir's text as is.
QJsonObject focusReport(const MainWindow& window);

} // namespace nanscope::app
