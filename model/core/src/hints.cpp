// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/hints.hpp"

#include "healthrules.hpp"
#include "nanscope/core/intent.hpp"
#include "torchhints.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>

namespace nanscope::core {
namespace {

const TensorHealth kUnknown{};

const TensorHealth& input(const std::vector<TensorHealth>& inputs, std::size_t i)
{
    return i < inputs.size() ? inputs[i] : kUnknown;
}

bool full(const TensorHealth& h)
{
    return h.detail == TensorHealth::Detail::Full;
}
bool hasZero(const TensorHealth& h)
{
    return full(h) && h.zero > 0;
}
bool hasNegative(const TensorHealth& h)
{
    return full(h) && (h.negativeFinite > 0 || h.negativeInfinity > 0);
}
bool hasInfinity(const TensorHealth& h)
{
    return h.negativeInfinity > 0 || h.positiveInfinity > 0;
}
bool anyInfinity(const std::vector<TensorHealth>& inputs)
{
    return std::any_of(inputs.begin(), inputs.end(), hasInfinity);
}
bool anyZero(const std::vector<TensorHealth>& inputs)
{
    return std::any_of(inputs.begin(), inputs.end(), hasZero);
}
bool anyNonFinite(const std::vector<TensorHealth>& inputs)
{
    return std::any_of(inputs.begin(), inputs.end(),
                       [](const TensorHealth& h) { return h.known() && h.nonFinite; });
}

std::string count(double n, const char* one, const char* many)
{
    return formatCount(n) + " " + (n == 1 ? one : many);
}

using RuleFn =
    std::function<std::optional<Hint>(const std::vector<TensorHealth>&, const TensorHealth&)>;

struct Rule
{
    std::vector<std::string_view> ops;
    RuleFn explain;
};

const char* kLogFix =
    "clip the input away from zero (e.g. tf.clip_by_value(x, 1e-6, 1.0)) before the log, or use "
    "a numerically stable op (tf.nn.log_softmax, or a library cross-entropy such as "
    "tf.keras.losses.CategoricalCrossentropy(from_logits=True))";
const char* kDivisionFix =
    "add a small epsilon to the divisor (x / (y + 1e-8)), use tf.math.divide_no_nan, or mask "
    "the entries whose divisor is zero";
const char* kOverflowFix =
    "subtract the maximum before exponentiating (the log-sum-exp trick), clip the input, or use "
    "a fused op (tf.nn.softmax, tf.reduce_logsumexp, tf.nn.softplus)";

std::string zeros(const TensorHealth& x)
{
    return count(x.zero, "zero", "zeros");
}
std::string negatives(const TensorHealth& x)
{
    return count(x.negativeFinite + x.negativeInfinity, "negative value", "negative values");
}

std::optional<Hint> logRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    const TensorHealth& x = input(in, 0);
    if (hasZero(x) && hasNegative(x)) {
        // Both causes at once: the one with more inputs behind it made most of what the user
        // sees, and leads; a tie goes to the negatives, whose NaN is what alerts are raised for.
        if (x.negativeFinite + x.negativeInfinity >= x.zero)
            return Hint{"log-of-negative",
                        "log of a negative number gives NaN, and log of zero -inf: its input "
                        "holds " +
                            negatives(x) + " and " + zeros(x),
                        kLogFix};
        return Hint{"log-of-zero",
                    "log of zero gives -inf, and log of a negative number NaN: its input holds " +
                        zeros(x) + " and " + negatives(x),
                    kLogFix};
    }
    if (hasZero(x))
        return Hint{"log-of-zero", "log of zero gives -inf: its input holds " + zeros(x), kLogFix};
    if (hasNegative(x))
        return Hint{"log-of-negative",
                    "log of a negative number gives NaN: its input holds " + negatives(x), kLogFix};
    return Hint{"log-domain",
                "log gives -inf for zero inputs and NaN for negative ones (the input's health was "
                "not recorded in enough detail to tell which)",
                kLogFix};
}

std::optional<Hint> log1pRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    const TensorHealth& x = input(in, 0);
    std::string cause = "log1p gives -inf at -1 and NaN below -1";
    if (hasNegative(x))
        cause += ": its input holds " + negatives(x);
    return Hint{"log1p-domain", cause, "keep the input above -1 (e.g. tf.maximum(x, -1 + 1e-6))"};
}

std::optional<Hint> xlogyRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    const TensorHealth& y = input(in, 1);
    if (hasZero(y))
        return Hint{"log-of-zero",
                    "x·log(y) with y = 0 and x ≠ 0 gives -inf: y holds " +
                        count(y.zero, "zero", "zeros"),
                    kLogFix};
    if (hasNegative(y))
        return Hint{"log-of-negative", "x·log(y) with a negative y gives NaN", kLogFix};
    return Hint{"log-domain", "x·log(y) gives -inf for y = 0 and NaN for negative y", kLogFix};
}

std::optional<Hint> sqrtRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    const TensorHealth& x = input(in, 0);
    const char* fix = "clip the input at zero (tf.maximum(x, 0.0)), or take the root of a quantity "
                      "that cannot go negative (e.g. x² + 1e-12)";
    if (hasNegative(x))
        return Hint{"sqrt-of-negative",
                    "the square root of a negative number is NaN: its input holds " + negatives(x),
                    fix};
    return Hint{"sqrt-domain", "the square root of a negative number is NaN", fix};
}

std::optional<Hint> rsqrtRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    const TensorHealth& x = input(in, 0);
    const char* fix = "add a small epsilon: tf.math.rsqrt(x + 1e-8) (as batch normalisation does)";
    if (hasZero(x))
        return Hint{"rsqrt-of-zero",
                    "1/sqrt(0) is +inf: its input holds " + count(x.zero, "zero", "zeros"), fix};
    if (hasNegative(x))
        return Hint{"sqrt-of-negative", "1/sqrt of a negative number is NaN", fix};
    return Hint{"rsqrt-domain", "1/sqrt(x) is +inf for x = 0 and NaN for negative x", fix};
}

std::optional<Hint> powRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    const TensorHealth& base = input(in, 0);
    const TensorHealth& exponent = input(in, 1);
    const char* fix = "keep the base positive (e.g. tf.maximum(x, 1e-6)) or use an integer "
                      "exponent; for x**0.5 use tf.sqrt of a non-negative value";
    if (hasZero(base) && hasNegative(exponent))
        return Hint{"pow-zero-negative", "zero to a negative power is +inf", fix};
    if (hasNegative(base))
        return Hint{"pow-negative-base",
                    "a negative base with a non-integer exponent gives NaN: the base holds " +
                        count(base.negativeFinite, "negative value", "negative values"),
                    fix};
    return Hint{"pow-domain",
                "pow gives +inf for 0 to a negative power, NaN for a negative base with a "
                "non-integer exponent, and overflows for large results",
                fix};
}

RuleFn divisionRule(std::size_t divisor)
{
    return [divisor](const std::vector<TensorHealth>& in,
                     const TensorHealth& out) -> std::optional<Hint> {
        const TensorHealth& y = input(in, divisor);
        if (hasZero(y)) {
            std::string result = out.nan > 0 && out.negativeInfinity + out.positiveInfinity == 0
                                     ? "0/0 gives NaN"
                                     : "division by zero gives ±inf (0/0 gives NaN)";
            return Hint{"division-by-zero",
                        result + ": the divisor holds " + count(y.zero, "zero", "zeros"),
                        kDivisionFix};
        }
        return Hint{"division", "a division by zero or by a tiny number gives ±inf (0/0 gives NaN)",
                    kDivisionFix};
    };
}

std::optional<Hint> divNoNanRule(const std::vector<TensorHealth>&, const TensorHealth&)
{
    return Hint{"division-overflow",
                "divide_no_nan returns 0 for a zero divisor, so the non-finite result is an "
                "overflow from a tiny divisor or a huge numerator",
                "rescale the operands or clip the divisor away from zero (|y| >= 1e-6)"};
}

std::optional<Hint> expRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    if (anyInfinity(in))
        return std::nullopt;
    return Hint{"exp-overflow",
                "exp overflows to +inf for inputs above about 88 in float32 (about 11 in "
                "float16)",
                kOverflowFix};
}

std::optional<Hint> productRule(const std::vector<TensorHealth>& in, const TensorHealth& out)
{
    if (anyInfinity(in) && (anyZero(in) || out.nan > 0))
        return Hint{"zero-times-infinity",
                    "0 × ∞ is NaN: an input holds infinities and another holds zeros",
                    "find where the infinity comes from (it is the real cause); a product only "
                    "spreads it"};
    if (anyNonFinite(in))
        return Hint{"propagated", "a non-finite input spreads through the product",
                    "find the op that produced the input's NaN or infinity"};
    return Hint{"product-overflow",
                "the product overflowed the range of its type (float16 holds values up to 65504)",
                "scale the operands down (normalise inputs, lower the learning rate, use loss "
                "scaling), or compute in float32"};
}

std::optional<Hint> sumRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    if (anyNonFinite(in))
        return Hint{"infinity-minus-infinity", "∞ − ∞ is NaN, and any NaN input makes the sum NaN",
                    "find the op that produced the input's NaN or infinity"};
    return Hint{"sum-overflow", "the sum overflowed the range of its type",
                "rescale the values, or accumulate in float32"};
}

std::optional<Hint> softmaxRule(const std::vector<TensorHealth>& in, const TensorHealth&)
{
    if (anyNonFinite(in))
        return Hint{"softmax-of-infinity", "softmax of ±inf or NaN logits is NaN",
                    "find where the logits became non-finite; clip them if they are huge"};
    return Hint{"softmax-overflow",
                "the softmax overflowed (TensorFlow subtracts the maximum, so this usually means "
                "huge logits in float16)",
                "compute the softmax in float32, or clip the logits"};
}

std::optional<Hint> castRule(const std::vector<TensorHealth>&, const TensorHealth&)
{
    return Hint{"cast-overflow",
                "a cast to a narrower float type overflowed (float16 holds values up to 65504, "
                "bfloat16 and float32 up to 3.4e38)",
                "rescale before the cast, or keep the computation in float32"};
}

std::optional<Hint> domainRule(const std::vector<TensorHealth>&, const TensorHealth&)
{
    return Hint{"domain",
                "the input is outside the function's domain (|x| > 1 for asin/acos, |x| >= 1 "
                "for atanh)",
                "clip the input into the domain (e.g. tf.clip_by_value(x, -1 + 1e-6, 1 - 1e-6))"};
}

std::optional<Hint> gammaRule(const std::vector<TensorHealth>&, const TensorHealth&)
{
    return Hint{"gamma-poles", "lgamma and digamma are infinite at zero and negative integers",
                "keep the input positive (e.g. softplus(x) + 1e-6)"};
}

std::optional<Hint> sourceRule(const std::vector<TensorHealth>&, const TensorHealth&)
{
    return Hint{"entered-non-finite",
                "the value entered this graph already non-finite: it is an argument, a variable "
                "or a constant, written by something earlier (often an optimizer step that stored "
                "NaN in a variable)",
                "look at what produced the value before this graph ran: an earlier step, the "
                "input pipeline, or the variable's last update"};
}

const std::vector<Rule>& rules()
{
    static const std::vector<Rule> table = {
        {{"Log"}, logRule},
        {{"Log1p"}, log1pRule},
        {{"Xlogy", "Xlog1py"}, xlogyRule},
        {{"Sqrt"}, sqrtRule},
        {{"Rsqrt"}, rsqrtRule},
        {{"Pow"}, powRule},
        {{"RealDiv", "Div", "FloorDiv", "TruncateDiv", "FloorMod", "TruncateMod", "Mod"},
         divisionRule(1)},
        {{"Xdivy"}, divisionRule(1)},
        {{"Reciprocal", "Inv"}, divisionRule(0)},
        {{"DivNoNan", "MulNoNan"}, divNoNanRule},
        {{"Exp", "Expm1", "Softplus", "Cosh", "Sinh", "Elu", "Selu"}, expRule},
        {{"Mul", "MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "Einsum", "Conv2D",
          "Conv3D", "Conv1D", "DepthwiseConv2dNative", "Conv2DBackpropInput",
          "Conv2DBackpropFilter", "Square", "Tensordot"},
         productRule},
        {{"Add", "AddV2", "AddN", "Sub", "Sum", "Mean", "BiasAdd", "Prod", "Cumsum"}, sumRule},
        {{"Softmax", "LogSoftmax", "SoftmaxCrossEntropyWithLogits",
          "SparseSoftmaxCrossEntropyWithLogits"},
         softmaxRule},
        {{"Cast"}, castRule},
        {{"Acos", "Asin", "Atanh", "Acosh"}, domainRule},
        {{"Lgamma", "Digamma", "Polygamma"}, gammaRule},
        {{"Placeholder", "PlaceholderWithDefault", "ReadVariableOp", "Const", "_Arg", "VarHandleOp",
          "VariableV2", "Recv", "_Recv", "IteratorGetNext"},
         sourceRule},
    };
    return table;
}

// The rules are keyed by TensorFlow's op types; an aten op uses the rule of its TensorFlow
// counterpart.
Hint explainInTensorFlowTerms(std::string_view opType, const std::vector<TensorHealth>& inputs,
                              const TensorHealth& output)
{
    const std::string_view ruleOp = isAtenOp(opType) ? ruleOpOfAten(opType) : opType;
    for (const auto& rule : rules()) {
        if (std::find(rule.ops.begin(), rule.ops.end(), ruleOp) == rule.ops.end())
            continue;
        if (auto hint = rule.explain(inputs, output))
            return *hint;
        break;
    }
    if (anyNonFinite(inputs))
        return {"propagated", "a non-finite input spreads through " + std::string(opType),
                "find the op that produced the input's NaN or infinity"};
    return {"fallback",
            std::string(opType) + " produced " + output.describe() +
                " from inputs that were finite (or not recorded): an overflow, or an input "
                "outside the op's domain",
            "check the inputs' ranges; clip, rescale or add an epsilon; compute in float32 "
            "rather than float16"};
}

// Softmax over a row whose logits are all −∞ divides 0 by 0: a padding row, an empty sequence,
// a causal mask shifted by one. Attention ops that take a boolean mask do the same inside.
std::optional<Hint> fullyMaskedRow(std::string_view opType, const std::vector<TensorHealth>& in,
                                   const TensorHealth& output)
{
    if (!isSoftmaxLike(opType) || !(output.nan > 0))
        return std::nullopt;
    const bool otherNonFinite = std::any_of(in.begin(), in.end(), [](const TensorHealth& h) {
        return h.nan > 0 || h.positiveInfinity > 0 ||
               (h.detail == TensorHealth::Detail::Flag && h.nonFinite);
    });
    const bool masked = std::any_of(in.begin(), in.end(),
                                    [](const TensorHealth& h) { return h.negativeInfinity > 0; });
    const bool attention = opType.find("attention") != std::string_view::npos;
    if (otherNonFinite || !(masked || attention))
        return std::nullopt;
    return Hint{"fully-masked-row",
                "a row masked entirely: softmax of a row that is all -inf is NaN (0/0)",
                "keep at least one position of every row unmasked (padding rows, empty "
                "sequences), or fill masked positions with a large negative value (the dtype's "
                "lowest finite number) instead of -inf"};
}

// An infinity from finite inputs in a float16 output is mixed precision's overflow: float16
// stops at 65,504 where bfloat16 and float32 reach 3.4e38. Said for the overflow rules only:
// log(0) is -inf in any type.
std::optional<Hint> float16Overflow(std::string_view opType, const std::vector<TensorHealth>& in,
                                    const TensorHealth& output, const Hint& hint)
{
    static constexpr std::array kOverflows = {
        std::string_view{"exp-overflow"},  std::string_view{"product-overflow"},
        std::string_view{"sum-overflow"},  std::string_view{"softmax-overflow"},
        std::string_view{"cast-overflow"}, std::string_view{"division-overflow"},
        std::string_view{"fallback"},
    };
    const bool infinity = output.positiveInfinity > 0 || output.negativeInfinity > 0 ||
                          (output.detail == TensorHealth::Detail::Flag && output.nonFinite);
    if (output.dtype != DType::Float16 || !infinity || output.nan > 0 || anyNonFinite(in) ||
        std::find(kOverflows.begin(), kOverflows.end(), hint.rule) == kOverflows.end())
        return std::nullopt;
    const std::string cause = std::string(opType) +
                              " overflowed float16, which holds values up to 65,504: a finite "
                              "result too large for the type became ±inf";
    if (isAtenOp(opType))
        return Hint{"float16-overflow", cause,
                    "run under torch.autocast(dtype=torch.bfloat16) (float32's range), scale "
                    "the loss with torch.amp.GradScaler, or keep this op in float32"};
    return Hint{"float16-overflow", cause,
                "use the mixed_bfloat16 policy (float32's range), wrap the optimizer in "
                "tf.keras.mixed_precision.LossScaleOptimizer, or keep this layer in float32"};
}

} // namespace

Hint explainNonFinite(std::string_view opType, const std::vector<TensorHealth>& inputs,
                      const TensorHealth& output)
{
    if (auto masked = fullyMaskedRow(opType, inputs, output))
        return *masked;
    Hint hint = explainInTensorFlowTerms(opType, inputs, output);
    if (auto overflow = float16Overflow(opType, inputs, output, hint))
        return *overflow;
    if (isAtenOp(opType))
        rewordForPyTorch(hint);
    return hint;
}

} // namespace nanscope::core
