// SPDX-License-Identifier: GPL-3.0-or-later
// Non-finite values a program makes on purpose, and the user's list of those they expect.
//
// A transformer writes −∞ into its attention scores on purpose (masked_fill, where, a mask
// built by log of a 0/1 matrix) and softmax turns them into exact zeros; an uninitialised tensor
// (torch.empty) holds whatever bits were in memory. Neither is the bug a NaN hunt looks for, and
// naming either as the origin sends the user the wrong way. The analysis (origin.hpp) sets a
// non-finite value aside as *intended* when
//   - its op wrote it from the program's own constant (`isConstantWriter`: masked_fill, where,
//     full, Fill, SelectV2, Const …) while no input of it was non-finite, or it matched one of
//     the user's ExpectedPatterns: intended whatever happens to it later;
//   - or it is *absorbed*: it is ±∞ (never NaN, nor of a kind the mode does not tell: a NaN an
//     op hid was still made by mistake), every op that read it (and, in turn, every op that
//     read what carried it on) made finite values (softmax, exp, max, where …), none left it
//     unread, none turned its infinities into NaN, and none took it out of the record (item()).
//     Reads that only test a value or take its shape (`consumesNoValue`: isnan, ==, ones_like)
//     do not count. A
//     softmax that makes NaN of a row whose non-finite values are all −∞ takes the blame itself:
//     that is a row masked entirely, a bug of its own.
//   - or it was caught by PyTorch's loss scaler (GradScaler; nanscope/intendedvalues.hpp): made
//     after the loss was multiplied by the scale, and its values (of any kind: an overflow's ∞
//     becomes NaN further back) reached the scaler's check, which skips the step, and nothing
//     after it but writers; none was taken out of the record (item()). The multiplication is
//     told by its input: the scale, which the scaler's update reads first.
// Values that intended ones carry on unchanged (the scores a mask was added to) are intended
// too; an op that makes a new kind from them (NaN from −∞ · 0, a fully masked softmax row) is a
// producer. The outputs of ops that allocate without writing (`isUninitialisedOutput`) have no
// health at all: memory, not a value.
#pragma once

#include "nanscope/core/digests.hpp"
#include "nanscope/intendedvalues.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

// The vocabulary shared with the recorder (nanscope/intendedvalues.hpp).
namespace nonfinite = nanscope::nonfinite;
using nanscope::consumesNoValue;
using nanscope::ExpectedPattern;
using nanscope::isConstantWriter;
using nanscope::isSoftmaxLike;
using nanscope::isUninitialisedOutput;
using nanscope::kExpectedFileName;
using nanscope::kMaxExpectedFileBytes;
using nanscope::kMaxExpectedPatterns;
using nanscope::nonFiniteKindsText;
using nanscope::ParsedPatterns;
using nanscope::parseExpectedFile;

// Why a non-finite event was set aside.
enum class Intent : std::uint8_t {
    None,          // counts: a producer, a propagator, or an entry
    Constant,      // written from the program's literal (or carried on from one)
    Absorbed,      // computed, and every reader made finite values of it
    Expected,      // the user's pattern
    Uninitialised, // allocated, not written: no value at all
    LossScaled,    // a float16 overflow that the loss scaler caught, skipping the step
};
// "none", "constant", "absorbed", "expected", "uninitialised", "loss-scaled".
std::string_view toString(Intent intent);

// One group of intended values: those made by one op (type, name, module) of the program.
struct SetAside
{
    Intent intent = Intent::Constant;
    EventRef first; // the first event that made such values
    std::string opType;
    std::string opName;          // graph ops only
    std::string modulePath;      // PyTorch's module, when recorded
    std::string pattern;         // Intent::Expected: the pattern's text
    std::uint8_t kinds = 0;      // nonfinite bits seen in what it made (0: the mode tells none)
    std::uint64_t producers = 0; // events of this op that made them
    std::uint64_t carriers = 0;  // events that carried them on unchanged (an add of the mask)
    std::vector<std::string> absorbedBy; // op types that made finite values of them (at most 4)
};

} // namespace nanscope::core
