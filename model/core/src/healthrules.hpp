// SPDX-License-Identifier: GPL-3.0-or-later
// Health from summary vectors (format §6.2) and TensorBoard's InfNan alert rules (§9.4).
#pragma once

#include "nanscope/core/debugmode.hpp"
#include "nanscope/core/digests.hpp"
#include "nanscope/core/health.hpp"

#include <span>

namespace nanscope::core {

// The health a summary vector of `mode` tells. `malformed` is set when the vector is too short
// for its mode (TensorBoard would fail on it).
TensorHealth healthFromSummary(DebugMode mode, std::span<const double> values, bool& malformed);

// TensorBoard's summary check: true (and `alert`'s slot-independent fields set) when it alerts.
bool summaryAlert(DebugMode mode, std::span<const double> values, Alert& alert);

// TensorBoard's full-tensor check on a value's health (float16/32/64 only).
bool fullTensorAlert(const TensorHealth& health, Alert& alert);

// "12", "1.5", "1e+20": numbers from summary vectors, printed as people count.
std::string formatCount(double value);

} // namespace nanscope::core
