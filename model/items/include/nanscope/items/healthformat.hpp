// SPDX-License-Identifier: GPL-3.0-or-later
// How tensor health reads and looks in every model.
#pragma once

#include "nanscope/core/health.hpp"

#include <QColor>
#include <QString>

namespace nanscope::items {

// "NaN, -inf", "finite", "unknown" … from the one-byte digest.
QString digestText(core::HealthDigest digest);

// The kinds of non-finite value a digest records: "NaN, -inf"; "NaN or ±inf" when the mode
// does not tell them apart; empty for a finite or unknown digest.
QString nonFiniteKinds(core::HealthDigest digest);

// "1000 elements: 1 -inf, 999 finite" … from full counts.
QString healthText(const core::TensorHealth& health);

// TensorFlow's name of a tensor's type ("float32"); "dtype 99" for a value TensorFlow does not
// define; empty for DType::Invalid (the record did not say).
QString dtypeText(DType dtype);

// A background for rows whose tensor is non-finite (invalid colour otherwise). Light enough for
// dark text, and distinct in dark palettes too.
QColor nonFiniteBackground(core::HealthDigest digest);

} // namespace nanscope::items
