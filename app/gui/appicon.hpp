// SPDX-License-Identifier: GPL-3.0-or-later
// The application's icon, rendered from resources/nanscope.svg at every size a desktop asks for,
// and the one toolbar icon no style provides.
#pragma once

#include <QIcon>

namespace nanscope::app {

QIcon appIcon();

// "Go to origin": a target, drawn in the palette's text colour with the NaN accent.
QIcon originIcon();

} // namespace nanscope::app
