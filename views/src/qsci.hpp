// SPDX-License-Identifier: GPL-3.0-or-later
// QScintilla's headers use Qt's "signals" and "slots" keywords, which NaNscope turns off
// (QT_NO_KEYWORDS): they are spelled out here for those headers only.
#pragma once

#define signals Q_SIGNALS
#define slots Q_SLOTS
#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>
#undef signals
#undef slots
