// SPDX-License-Identifier: Apache-2.0
// What counts as a non-finite value a program makes on purpose, shared by the reader's analysis
// (model/core's intent.hpp) and the recorder, which stops a program at its first value that is
// not (RecorderOptions::stopAtFirstNonFinite): the op types that write the program's constants,
// read no value, or allocate without writing, and the user's allow-list of OP[:KINDS] patterns.
#pragma once

#include "nanscope/unwrittenops.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope {

// Kinds of non-finite value, as bits.
namespace nonfinite {
constexpr std::uint8_t NegInf = 1u << 0;
constexpr std::uint8_t PosInf = 1u << 1;
constexpr std::uint8_t NaN = 1u << 2;
constexpr std::uint8_t Any = NegInf | PosInf | NaN;
} // namespace nonfinite

// "-inf", "+inf", "nan", "-inf,nan", "inf" (both infinities), "any".
std::string nonFiniteKindsText(std::uint8_t kinds);

// One entry of the user's allow-list: `OP[:KINDS]`. OP is matched against an op's type and its
// name (graph ops) with `*` for any run of characters and `?` for one; KINDS is a comma-separated
// list of -inf, +inf, inf, nan, any (default any). "aten::masked_fill:-inf", "Select*:-inf,nan".
struct ExpectedPattern
{
    std::string text; // as written
    std::string op;
    std::uint8_t kinds = nonfinite::Any;

    // Nullopt with `error` set for an empty op, an unknown kind or a pattern over 256 bytes.
    static std::optional<ExpectedPattern> parse(std::string_view text, std::string* error);
    bool matchesOp(std::string_view opType, std::string_view opName) const;
    friend bool operator==(const ExpectedPattern&, const ExpectedPattern&) = default;
};

// The file a dump root may hold beside the logdir's files (written by the Python recorder's
// expected_nonfinite argument): one pattern a line, '#' starts a comment. TensorFlow's reader
// only opens files named tfdbg_events.*, so it never sees it.
inline constexpr std::string_view kExpectedFileName = "nanscope_expected.txt";
// Lines past this are ignored, with a warning: a hostile file must not make the analysis slow.
inline constexpr std::size_t kMaxExpectedPatterns = 256;
inline constexpr std::size_t kMaxExpectedFileBytes = std::size_t{64} * 1024;

struct ParsedPatterns
{
    std::vector<ExpectedPattern> patterns;
    std::vector<std::string> errors; // "line 3: unknown kind 'inf!'"
};
// The side file's text (one pattern a line).
ParsedPatterns parseExpectedFile(std::string_view text);

// Op types whose output holds values from the program's literal rather than from its inputs.
bool isConstantWriter(std::string_view opType);
// Op types whose output is allocated and not written: its bits are no value.
bool isUninitialisedOutput(std::string_view opType);
// Op types that read a value without computing with it: only its shape (ones_like, Shape …) or
// to test it (isnan, ==, IsFinite …). Such a read neither absorbs a value nor keeps it alive.
bool consumesNoValue(std::string_view opType);
// Softmax-like ops, for which a NaN made from −∞ alone is a row masked entirely.
bool isSoftmaxLike(std::string_view opType);

// Loss scaling (torch.amp.GradScaler, for float16 training): the loss is multiplied by a large
// scale before backward, so that small gradients survive float16; the gradients then overflow
// now and then, on purpose. The scaler checks them (`isLossScalerCheck`: NaN and ∞ alike), skips
// the optimizer's step when any is non-finite, and shrinks the scale (`isLossScaleUpdate`, whose
// first input is the scale). Non-finite values made after the loss was scaled, which reach the
// check and nothing after it, were caught by the scaler: not a bug of the program's.
// Past this many steps in a row whose gradients the check found non-finite, the overflows are
// a lasting fault: each skip halves the scale, and a float16 overflow needs a handful (65,536
// down to 1 is 16 halvings).
inline constexpr std::uint32_t kMaxLossScalingSkips = 32;
bool isLossScalerCheck(std::string_view opType);
bool isLossScaleUpdate(std::string_view opType);
// The op that scales the loss: a multiplication by the scale.
bool isLossScaling(std::string_view opType);
// Whether a stack frame is a loss scaler's scale(): a multiplication called from it scales the
// loss, before the first update names the scale.
bool isLossScalingFrame(std::string_view file, std::string_view function);

} // namespace nanscope
