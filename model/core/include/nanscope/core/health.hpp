// SPDX-License-Identifier: GPL-3.0-or-later
// How healthy a tensor was: the one-byte digest kept per trace and per execution output, and the
// full counts decoded on demand.
#pragma once

#include "nanscope/dtype.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace nanscope::core {

// One byte per tensor in the index. Bits beyond Known say only what the record's mode can tell.
namespace health {
constexpr std::uint8_t Known = 1u << 0;     // the record tells finite from non-finite
constexpr std::uint8_t NonFinite = 1u << 1; // at least one -inf, +inf or NaN
constexpr std::uint8_t NegInf = 1u << 2;    // counts known (CONCISE/FULL_HEALTH, FULL_TENSOR)
constexpr std::uint8_t PosInf = 1u << 3;
constexpr std::uint8_t NaN = 1u << 4;
constexpr std::uint8_t Zero = 1u << 5;     // FULL_HEALTH and FULL_TENSOR only
constexpr std::uint8_t Negative = 1u << 6; // negative finite values (FULL_HEALTH, FULL_TENSOR)
// Per output: non-finite, but TensorBoard's rules raise no alert for it (a bfloat16, float8 or
// complex FULL_TENSOR value; NaNscope's alerts do). Never on an execution's digest of all outputs.
constexpr std::uint8_t NoAlert = 1u << 7;
} // namespace health

struct HealthDigest
{
    std::uint8_t bits = 0;

    bool known() const { return bits & health::Known; }
    bool nonFinite() const { return bits & health::NonFinite; }
    bool finite() const { return known() && !nonFinite(); }
    bool has(std::uint8_t bit) const { return (bits & bit) != 0; }
    friend bool operator==(const HealthDigest&, const HealthDigest&) = default;
};

// The full counts of one tensor, as far as its record's mode tells them.
struct TensorHealth
{
    enum class Detail : std::uint8_t {
        None,   // no values: NO_TENSOR, SHAPE, an empty placeholder, or not recorded at all
        Flag,   // CURT_HEALTH: only "any non-finite"
        Counts, // CONCISE_HEALTH: size and the three non-finite counts
        Full,   // FULL_HEALTH or FULL_TENSOR: every class counted
    };

    Detail detail = Detail::None;
    bool nonFinite = false;
    double size = 0; // element count (doubles: that is how summary vectors carry them)
    double negativeInfinity = 0;
    double positiveInfinity = 0;
    double nan = 0;
    double negativeFinite = 0;    // Full only
    double zero = 0;              // Full only
    double positiveFinite = 0;    // Full only
    DType dtype = DType::Invalid; // when the record says
    int rank = -1;                // -1 when unknown
    // Why the summary vector cannot be what TensorFlow writes (a count that is negative or not
    // whole, counts that do not add up, the wrong length for its mode); empty when it can be.
    std::string invalid;

    bool known() const { return detail != Detail::None; }
    HealthDigest digest() const;

    // "1000 elements: 1 zero, 999 positive", "1000 elements: 1 -inf, 999 finite", "finite",
    // "has NaN or ±inf", "unknown", "invalid summary: its six counts add up to 1003, not to its
    // 3 elements" …
    std::string describe() const;
};

// A count carried as a double (summary vectors carry element counts as float64), if it is one:
// finite, non-negative, integral and exact (below 2^53). A file may hold anything there, so no
// count from a file is converted to an integer without this check. Inline and without floor():
// the index calls it a dozen times per trace, and a libm call there once cost 40 % of indexing.
inline std::optional<std::uint64_t> exactCount(double value)
{
    // Below 2^53 every integer is a double of its own; 2^53 may be 2^53 + 1 rounded. The range
    // test comes first (NaN fails it), so the conversion below is always defined.
    constexpr double kExactLimit = 9007199254740992.0;
    if (!(value >= 0 && value < kExactLimit))
        return std::nullopt;
    // Signed: one instruction on x86-64 (the unsigned conversion branches), exact below 2^53.
    const auto integer = static_cast<std::int64_t>(value); // truncates toward zero
    if (static_cast<double>(integer) != value)
        return std::nullopt; // a fraction
    return static_cast<std::uint64_t>(integer);
}

} // namespace nanscope::core
