// SPDX-License-Identifier: GPL-3.0-or-later
#include "torchhints.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace nanscope::core {
namespace {

constexpr std::string_view kAten = "aten::";

// aten op (without "aten::" and an in-place '_') -> the TensorFlow op of the same rule.
constexpr std::array<std::pair<std::string_view, std::string_view>, 49> kRuleOps{{
    {"log", "Log"},
    {"log2", "Log"},
    {"log10", "Log"},
    {"log1p", "Log1p"},
    {"xlogy", "Xlogy"},
    {"special_xlog1py", "Xlog1py"},
    {"sqrt", "Sqrt"},
    {"rsqrt", "Rsqrt"},
    {"pow", "Pow"},
    {"float_power", "Pow"},
    {"div", "RealDiv"},
    {"true_divide", "RealDiv"},
    {"floor_divide", "FloorDiv"},
    {"fmod", "FloorMod"},
    {"remainder", "FloorMod"},
    {"reciprocal", "Reciprocal"},
    {"exp", "Exp"},
    {"exp2", "Exp"},
    {"expm1", "Expm1"},
    {"softplus", "Softplus"},
    {"cosh", "Cosh"},
    {"sinh", "Sinh"},
    {"elu", "Elu"},
    {"selu", "Selu"},
    {"mul", "Mul"},
    {"mm", "MatMul"},
    {"bmm", "BatchMatMul"},
    {"addmm", "MatMul"},
    {"addbmm", "BatchMatMul"},
    {"baddbmm", "BatchMatMul"},
    {"matmul", "MatMul"},
    {"linear", "MatMul"},
    {"convolution", "Conv2D"},
    {"einsum", "Einsum"},
    {"add", "Add"},
    {"sub", "Sub"},
    {"sum", "Sum"},
    {"mean", "Mean"},
    {"prod", "Prod"},
    {"cumsum", "Cumsum"},
    {"_softmax", "Softmax"},
    {"_log_softmax", "LogSoftmax"},
    {"_to_copy", "Cast"},
    {"acos", "Acos"},
    {"asin", "Asin"},
    {"atanh", "Atanh"},
    {"acosh", "Acosh"},
    {"lgamma", "Lgamma"},
    {"digamma", "Digamma"},
}};

// Rule name -> the fix in PyTorch's words.
constexpr std::array<std::pair<std::string_view, std::string_view>, 19> kFixes{{
    {"log-of-zero",
     "clamp the input away from zero (torch.clamp_min(x, 1e-6)) before the log, or use a "
     "numerically stable op: torch.log_softmax, or torch.nn.CrossEntropyLoss "
     "(torch.nn.functional.cross_entropy) on the logits"},
    {"log-of-negative",
     "clamp the input away from zero (torch.clamp_min(x, 1e-6)) before the log, or use a "
     "numerically stable op: torch.log_softmax, or torch.nn.CrossEntropyLoss on the logits"},
    {"log-domain",
     "clamp the input away from zero (torch.clamp_min(x, 1e-6)) before the log, or use a "
     "numerically stable op: torch.log_softmax, or torch.nn.CrossEntropyLoss on the logits"},
    {"log1p-domain", "keep the input above -1 (e.g. torch.clamp_min(x, -1 + 1e-6))"},
    {"sqrt-of-negative",
     "clamp the input at zero (torch.clamp_min(x, 0.0)), or take the root of a quantity that "
     "cannot go negative (e.g. x**2 + 1e-12)"},
    {"sqrt-domain",
     "clamp the input at zero (torch.clamp_min(x, 0.0)), or take the root of a quantity that "
     "cannot go negative (e.g. x**2 + 1e-12)"},
    {"rsqrt-of-zero", "add a small epsilon: torch.rsqrt(x + 1e-8) (as batch normalisation does)"},
    {"rsqrt-domain", "add a small epsilon: torch.rsqrt(x + 1e-8) (as batch normalisation does)"},
    {"pow-zero-negative",
     "keep the base positive (e.g. torch.clamp_min(x, 1e-6)) or use an integer exponent; for "
     "x**0.5 use torch.sqrt of a non-negative value"},
    {"pow-negative-base",
     "keep the base positive (e.g. torch.clamp_min(x, 1e-6)) or use an integer exponent; for "
     "x**0.5 use torch.sqrt of a non-negative value"},
    {"pow-domain",
     "keep the base positive (e.g. torch.clamp_min(x, 1e-6)) or use an integer exponent; for "
     "x**0.5 use torch.sqrt of a non-negative value"},
    {"division-by-zero",
     "add a small epsilon to the divisor (x / (y + 1e-8)), or divide only where it is not zero "
     "(x / torch.where(y == 0, 1, y), then mask those entries)"},
    {"division",
     "add a small epsilon to the divisor (x / (y + 1e-8)), or divide only where it is not zero "
     "(x / torch.where(y == 0, 1, y), then mask those entries)"},
    {"exp-overflow",
     "subtract the maximum before exponentiating (the log-sum-exp trick), clamp the input, or "
     "use a fused op (torch.softmax, torch.logsumexp, torch.nn.functional.softplus)"},
    {"softmax-overflow",
     "compute the softmax in float32 (torch.softmax(x, dim, dtype=torch.float32)), or clamp the "
     "logits"},
    {"cast-overflow",
     "rescale before the cast, or keep the computation in float32 (under torch.autocast, keep "
     "this op out of the float16 region)"},
    {"domain", "clamp the input into the domain (e.g. torch.clamp(x, -1 + 1e-6, 1 - 1e-6))"},
    {"gamma-poles", "keep the input positive (e.g. torch.nn.functional.softplus(x) + 1e-6)"},
    {"fallback",
     "check the inputs' ranges; clamp, rescale or add an epsilon; compute in float32 rather "
     "than float16"},
}};

} // namespace

bool isAtenOp(std::string_view opType)
{
    return opType.starts_with(kAten);
}

std::string_view ruleOpOfAten(std::string_view opType)
{
    if (!isAtenOp(opType))
        return {};
    std::string_view name = opType.substr(kAten.size());
    if (name.size() > 1 && name.ends_with('_') && !name.ends_with("__"))
        name.remove_suffix(1); // in place: the same rule
    const auto it = std::find_if(kRuleOps.begin(), kRuleOps.end(),
                                 [&](const auto& entry) { return entry.first == name; });
    return it == kRuleOps.end() ? std::string_view{} : it->second;
}

void rewordForPyTorch(Hint& hint)
{
    const auto it = std::find_if(kFixes.begin(), kFixes.end(),
                                 [&](const auto& entry) { return entry.first == hint.rule; });
    if (it != kFixes.end())
        hint.fix = it->second;
    if (hint.rule == "softmax-overflow")
        hint.cause = "the softmax overflowed (PyTorch subtracts the maximum, so this usually "
                     "means huge logits in float16)";
}

bool isCollective(std::string_view opType)
{
    return opType.starts_with("c10d::") || opType.starts_with("_c10d_functional::") ||
           opType.starts_with("c10d_functional::");
}

Hint collectiveInputHint(std::string_view collective, bool isOrigin)
{
    const std::string name(collective);
    return {"collective-input",
            isOrigin ? name + " is a collective: its output holds values from other ranks and its "
                              "inputs here were finite, so the NaN or inf was most likely made on "
                              "another rank (or the reduction overflowed)"
                     : "an input was last written by " + name +
                           ", a collective: its values come from other ranks, and its record here "
                           "was taken before they arrived, so the NaN or inf was most likely made "
                           "on another rank",
            "read the run's other ranks (nanscope-report lists each rank's origin, earliest "
            "first; in the app, the banner reads the rank that made it): the earliest is where "
            "the value was made"};
}

} // namespace nanscope::core
