// SPDX-License-Identifier: GPL-3.0-or-later
// Help › About NaNscope: the version, what NaNscope does, and the Qt it runs on.
#pragma once

class QWidget;

namespace nanscope::app {

void showAboutBox(QWidget* parent);

} // namespace nanscope::app
