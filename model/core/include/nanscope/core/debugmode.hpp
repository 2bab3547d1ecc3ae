// SPDX-License-Identifier: GPL-3.0-or-later
// tfdbg2's TensorDebugMode, as the reader sees it in records (format §3.11).
#pragma once

#include <cstdint>
#include <string_view>

namespace nanscope::core {

enum class DebugMode : std::uint8_t {
    Unspecified = 0,
    NoTensor = 1,
    CurtHealth = 2,
    ConciseHealth = 3,
    FullHealth = 4,
    Shape = 5,
    FullNumerics = 6,
    FullTensor = 7,
    ReduceInfNanThreeSlots = 8,
};

// "NO_TENSOR", "FULL_HEALTH" … as TensorFlow spells them; "UNKNOWN" for values outside the enum.
std::string_view toString(DebugMode mode);

// The mode of a wire value; values outside the enum map to Unspecified.
DebugMode debugModeFromWire(std::uint64_t value);

// A set of modes (bit i = mode i), for "which modes does this logdir use".
using DebugModeSet = std::uint16_t;

constexpr DebugModeSet modeBit(DebugMode mode)
{
    return static_cast<DebugModeSet>(1u << static_cast<unsigned>(mode));
}

} // namespace nanscope::core
