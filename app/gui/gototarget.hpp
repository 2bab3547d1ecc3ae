// SPDX-License-Identifier: GPL-3.0-or-later
// Where `nanscope LOGDIR --goto TARGET` opens: the first alert, the origin of the first NaN/∞,
// a graph execution trace or an eager execution by index.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

namespace nanscope::app {

class MainWindow;

struct GotoTarget
{
    enum class Kind { FirstAlert, Origin, Trace, Execution };
    Kind kind = Kind::FirstAlert;
    std::uint64_t index = 0; // Trace and Execution
};

// "first-alert", "origin", "trace:N", "execution:N"; nothing (and `error` says why) otherwise.
std::optional<GotoTarget> parseGotoTarget(const QString& text, QString* error = nullptr);

// Moves every panel there, as the matching double-click or menu command would; false (and
// `error` says why) when the loaded logdir has no such place.
bool goTo(MainWindow& window, const GotoTarget& target, QString* error = nullptr);

} // namespace nanscope::app
