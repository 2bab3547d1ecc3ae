// SPDX-License-Identifier: GPL-3.0-or-later
// Health from summary vectors (format §6.2) and TensorBoard's InfNan alert rules (§9.4).
#pragma once

#include "nanscope/core/debugmode.hpp"
#include "nanscope/core/digests.hpp"
#include "nanscope/core/health.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace nanscope::core {

// The health a summary vector of `mode` tells. `values` may be a prefix of the vector, whose full
// length is `length`. `malformed` is set when the vector is too short for its mode (TensorBoard
// would fail on it); TensorHealth::invalid says why a vector cannot be what TensorFlow writes.
TensorHealth healthFromSummary(DebugMode mode, std::span<const double> values, std::uint64_t length,
                               bool& malformed);

// Why a summary vector of `mode` (`values`, a prefix of its `length` values) cannot be what
// TensorFlow writes: the wrong length for its mode, a count that is not a count (negative,
// fractional, not finite, 2^53 or more), counts that do not add up to the element count. Empty
// when it can be (and for modes without a summary vector).
std::string summaryProblem(DebugMode mode, std::span<const double> values, std::uint64_t length);

// Whether a FULL_HEALTH vector of 11 values is one TensorFlow writes: summaryProblem's verdict on
// it, without the words.
bool fullHealthIsValid(std::span<const double> values);
// The same for the 88 content bytes of such a vector in a record, read where they lie.
bool fullHealthContentIsValid(std::string_view content);

// The same for the counts an alert carries: each a count, and the non-finite ones no more than
// the element count.
std::string countsProblem(double size, double negativeInfinity, double positiveInfinity,
                          double nan);

// TensorBoard's summary check: true (and `alert`'s slot-independent fields set) when it alerts.
bool summaryAlert(DebugMode mode, std::span<const double> values, Alert& alert);

// TensorBoard's full-tensor check on a value's health (float16/32/64 only: its reader makes
// numpy arrays, and bfloat16, float8 and complex ones are not np.floating).
bool fullTensorAlert(const TensorHealth& health, Alert& alert);
// NaNscope's: any non-finite value of any floating or complex type. Every alert of
// fullTensorAlert is one of these; the others mark their output health::NoAlert.
bool fullTensorNonFiniteAlert(const TensorHealth& health, Alert& alert);

// "12", "1.5", "1e+20": numbers from summary vectors, printed as people count.
std::string formatCount(double value);

} // namespace nanscope::core
