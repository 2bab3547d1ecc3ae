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
// Values that intended ones carry on unchanged (the scores a mask was added to) are intended
// too; an op that makes a new kind from them (NaN from −∞ · 0, a fully masked softmax row) is a
// producer. The outputs of ops that allocate without writing (`isUninitialisedOutput`) have no
// health at all: memory, not a value.
#pragma once

#include "nanscope/core/digests.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

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

// Why a non-finite event was set aside.
enum class Intent : std::uint8_t {
    None,          // counts: a producer, a propagator, or an entry
    Constant,      // written from the program's literal (or carried on from one)
    Absorbed,      // computed, and every reader made finite values of it
    Expected,      // the user's pattern
    Uninitialised, // allocated, not written: no value at all
};
std::string_view toString(Intent intent); // "none", "constant", "absorbed", "expected", …

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
