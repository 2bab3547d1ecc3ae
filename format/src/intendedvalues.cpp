// SPDX-License-Identifier: Apache-2.0
#include "nanscope/intendedvalues.hpp"

#include <algorithm>
#include <array>

namespace nanscope {
namespace {

constexpr std::size_t kMaxPatternBytes = 256;

// PyTorch writes in-place variants with a trailing underscore ("aten::masked_fill_"); the rules
// below name the functional op.
std::string_view functional(std::string_view opType)
{
    if (opType.size() > 1 && opType.back() == '_' && opType[opType.size() - 2] != '_')
        opType.remove_suffix(1);
    return opType;
}

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& list, std::string_view opType)
{
    const std::string_view op = functional(opType);
    return std::find(list.begin(), list.end(), op) != list.end();
}

// Ops whose output takes a value from an argument that is not a tensor the program computed:
// a Python scalar, an attribute, a constant tensor. (`aten::where` with a scalar branch and
// TensorFlow's Select take their constant from a Fill or Const the trace may not show.)
constexpr std::array kConstantWriters = {
    // PyTorch
    std::string_view{"aten::masked_fill"},
    std::string_view{"aten::where"},
    std::string_view{"aten::full"},
    std::string_view{"aten::full_like"},
    std::string_view{"aten::new_full"},
    std::string_view{"aten::fill"},
    std::string_view{"aten::zero"}, // zero_grad(set_to_none=False)
    std::string_view{"aten::index_fill"},
    std::string_view{"aten::constant_pad_nd"},
    std::string_view{"aten::pad"},
    std::string_view{"aten::scalar_tensor"},
    std::string_view{"aten::lift_fresh"},
    std::string_view{"aten::lift_fresh_copy"},
    std::string_view{"aten::scaled_dot_product_attention"},
    std::string_view{"aten::_scaled_dot_product_attention_math"},
    std::string_view{"aten::_canonical_mask"},
    // TensorFlow
    std::string_view{"Fill"},
    std::string_view{"Const"},
    std::string_view{"Select"},
    std::string_view{"SelectV2"},
    std::string_view{"PadV2"},
    std::string_view{"MirrorPad"},
};

constexpr std::array kNoValueReaders = {
    // tests of values: a NaN check must not count as what absorbed the NaN
    std::string_view{"aten::isnan"},
    std::string_view{"aten::isinf"},
    std::string_view{"aten::isfinite"},
    std::string_view{"aten::isposinf"},
    std::string_view{"aten::isneginf"},
    std::string_view{"aten::eq"},
    std::string_view{"aten::ne"},
    std::string_view{"aten::lt"},
    std::string_view{"aten::le"},
    std::string_view{"aten::gt"},
    std::string_view{"aten::ge"},
    std::string_view{"IsNan"},
    std::string_view{"IsInf"},
    std::string_view{"IsFinite"},
    std::string_view{"Equal"},
    std::string_view{"NotEqual"},
    std::string_view{"Less"},
    std::string_view{"LessEqual"},
    std::string_view{"Greater"},
    std::string_view{"GreaterEqual"},
    // shapes
    std::string_view{"aten::ones_like"},
    std::string_view{"aten::zeros_like"},
    std::string_view{"aten::empty_like"},
    std::string_view{"aten::full_like"},
    std::string_view{"aten::rand_like"},
    std::string_view{"aten::randn_like"},
    std::string_view{"aten::randint_like"},
    std::string_view{"aten::new_zeros"},
    std::string_view{"aten::new_ones"},
    std::string_view{"aten::new_empty"},
    std::string_view{"aten::new_full"},
    std::string_view{"aten::new_empty_strided"},
    std::string_view{"aten::size"},
    std::string_view{"aten::sym_size"},
    std::string_view{"aten::stride"},
    std::string_view{"aten::sym_stride"},
    std::string_view{"aten::numel"},
    std::string_view{"aten::sym_numel"},
    std::string_view{"aten::is_same_size"},
    std::string_view{"aten::resize_as"},
    std::string_view{"Shape"},
    std::string_view{"ShapeN"},
    std::string_view{"Size"},
    std::string_view{"Rank"},
    std::string_view{"ZerosLike"},
    std::string_view{"OnesLike"},
};

constexpr std::array kSoftmaxLike = {
    std::string_view{"aten::softmax"},
    std::string_view{"aten::_softmax"},
    std::string_view{"aten::log_softmax"},
    std::string_view{"aten::_log_softmax"},
    std::string_view{"aten::_safe_softmax"},
    std::string_view{"aten::logsumexp"},
    std::string_view{"aten::scaled_dot_product_attention"},
    std::string_view{"aten::_scaled_dot_product_attention_math"},
    std::string_view{"aten::_scaled_dot_product_flash_attention"},
    std::string_view{"aten::_scaled_dot_product_flash_attention_for_cpu"},
    std::string_view{"aten::_scaled_dot_product_efficient_attention"},
    std::string_view{"aten::_scaled_dot_product_cudnn_attention"},
    std::string_view{"aten::_native_multi_head_attention"},
    std::string_view{"Softmax"},
    std::string_view{"LogSoftmax"},
};

// PyTorch's loss scaler (torch.amp.GradScaler and its kin): the op that checks the gradients for
// NaN and ∞ (and unscales them), and the one that shrinks the scale after a check found some.
constexpr std::array kLossScalerChecks = {
    std::string_view{"aten::_amp_foreach_non_finite_check_and_unscale"},
    std::string_view{"aten::_amp_non_finite_check_and_unscale"},
};
constexpr std::array kLossScaleUpdates = {
    std::string_view{"aten::_amp_update_scale"},
};

// `*` matches any run, `?` one character; iterative, with one backtracking point, so that a
// pattern of many stars costs O(pattern × text), never exponential time.
bool globMatch(std::string_view pattern, std::string_view text)
{
    std::size_t p = 0;
    std::size_t t = 0;
    std::size_t star = std::string_view::npos;
    std::size_t resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

std::string_view trimmed(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(" \t\r");
    return s.substr(first, last - first + 1);
}

std::optional<std::uint8_t> kindBits(std::string_view word)
{
    if (word == "-inf")
        return nonfinite::NegInf;
    if (word == "+inf")
        return nonfinite::PosInf;
    if (word == "inf")
        return std::uint8_t{nonfinite::NegInf | nonfinite::PosInf};
    if (word == "nan")
        return nonfinite::NaN;
    if (word == "any")
        return nonfinite::Any;
    return std::nullopt;
}

// The kinds after the last ':' when every comma-separated word there is a kind; nullopt when
// the text has no such suffix (the colons belong to the op: "aten::log").
std::optional<std::uint8_t> kindSuffix(std::string_view text, std::size_t colon)
{
    std::string_view rest = text.substr(colon + 1);
    std::uint8_t bits = 0;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const auto bit = kindBits(trimmed(rest.substr(0, comma)));
        if (!bit)
            return std::nullopt;
        bits |= *bit;
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    return bits == 0 ? std::nullopt : std::optional<std::uint8_t>(bits);
}

} // namespace

std::string nonFiniteKindsText(std::uint8_t kinds)
{
    kinds &= nonfinite::Any;
    if (kinds == nonfinite::Any)
        return "any";
    std::string text;
    auto add = [&text](const char* word) {
        text += (text.empty() ? "" : ",") + std::string(word);
    };
    if ((kinds & nonfinite::NegInf) && (kinds & nonfinite::PosInf))
        add("inf");
    else if (kinds & nonfinite::NegInf)
        add("-inf");
    else if (kinds & nonfinite::PosInf)
        add("+inf");
    if (kinds & nonfinite::NaN)
        add("nan");
    return text;
}

std::optional<ExpectedPattern> ExpectedPattern::parse(std::string_view text, std::string* error)
{
    auto fail = [error](std::string why) {
        if (error)
            *error = std::move(why);
        return std::nullopt;
    };
    text = trimmed(text);
    if (text.size() > kMaxPatternBytes)
        return fail("a pattern is at most " + std::to_string(kMaxPatternBytes) + " bytes");
    ExpectedPattern p;
    p.text = std::string(text);
    p.op = p.text;
    if (const auto colon = text.rfind(':'); colon != std::string_view::npos) {
        const bool opColons = colon > 0 && text[colon - 1] == ':'; // "aten::log"
        if (!opColons) {
            const auto kinds = kindSuffix(text, colon);
            if (!kinds)
                return fail(
                    "'" + std::string(text.substr(colon + 1)) +
                    "' is not a kind: use -inf, +inf, inf, nan or any, separated by commas");
            p.kinds = *kinds;
            p.op = std::string(trimmed(text.substr(0, colon)));
        }
    }
    if (p.op.empty())
        return fail("the pattern names no op: write OP[:KINDS], e.g. aten::masked_fill:-inf");
    return p;
}

bool ExpectedPattern::matchesOp(std::string_view opType, std::string_view opName) const
{
    return globMatch(op, opType) || (!opName.empty() && globMatch(op, opName));
}

ParsedPatterns parseExpectedFile(std::string_view text)
{
    ParsedPatterns out;
    std::size_t lineNumber = 0;
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++lineNumber;
        if (const auto hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        line = trimmed(line);
        if (line.empty())
            continue;
        if (out.patterns.size() == kMaxExpectedPatterns) {
            out.errors.push_back("line " + std::to_string(lineNumber) + ": more than " +
                                 std::to_string(kMaxExpectedPatterns) +
                                 " patterns; the rest are ignored");
            break;
        }
        std::string error;
        if (auto p = ExpectedPattern::parse(line, &error))
            out.patterns.push_back(std::move(*p));
        else
            out.errors.push_back("line " + std::to_string(lineNumber) + ": " + error);
    }
    return out;
}

bool isConstantWriter(std::string_view opType)
{
    return listed(kConstantWriters, opType);
}

bool isUninitialisedOutput(std::string_view opType)
{
    return writesNoValues(opType);
}

bool consumesNoValue(std::string_view opType)
{
    return listed(kNoValueReaders, opType);
}

bool isSoftmaxLike(std::string_view opType)
{
    return listed(kSoftmaxLike, opType);
}

bool isLossScalerCheck(std::string_view opType)
{
    return listed(kLossScalerChecks, opType);
}

bool isLossScaleUpdate(std::string_view opType)
{
    return listed(kLossScaleUpdates, opType);
}

bool isLossScaling(std::string_view opType)
{
    return opType == "aten::mul";
}

bool isLossScalingFrame(std::string_view file, std::string_view function)
{
    // torch/amp/grad_scaler.py, torch/cuda/amp/grad_scaler.py,
    // torch/distributed/fsdp/sharded_grad_scaler.py: each scaler's scale() multiplies there.
    // Python's recorders name methods by their qualified name ("GradScaler.scale").
    return (function == "scale" || function.ends_with(".scale")) &&
           file.ends_with("grad_scaler.py");
}

} // namespace nanscope
