// SPDX-License-Identifier: GPL-3.0-or-later
// The hint table: op type × the health of the inputs.
#include "nanscope/core/hints.hpp"
#include "nanscope/core/stackfolding.hpp"

#include <catch2/catch.hpp>

using namespace nanscope::core;

namespace {

TensorHealth full(double size, double negative, double zero, double positive)
{
    TensorHealth h;
    h.detail = TensorHealth::Detail::Full;
    h.size = size;
    h.negativeFinite = negative;
    h.zero = zero;
    h.positiveFinite = positive;
    return h;
}

TensorHealth withInfinity()
{
    TensorHealth h = full(4, 0, 0, 3);
    h.positiveInfinity = 1;
    h.nonFinite = true;
    return h;
}

TensorHealth nanOutput()
{
    TensorHealth h = full(4, 0, 0, 3);
    h.nan = 1;
    h.nonFinite = true;
    return h;
}

} // namespace

TEST_CASE("hints name the cause from the op type and the inputs' health", "[hints]")
{
    const TensorHealth out = nanOutput();
    const TensorHealth unknown;
    CHECK(explainNonFinite("Log", {full(10, 0, 1, 9)}, out).rule == "log-of-zero");
    CHECK_THAT(explainNonFinite("Log", {full(10, 0, 1, 9)}, out).cause, Catch::Contains("1 zero"));
    CHECK(explainNonFinite("Log", {full(10, 2, 0, 8)}, out).rule == "log-of-negative");
    CHECK(explainNonFinite("Log", {unknown}, out).rule == "log-domain");
    // Zeros and negatives together: the more numerous cause leads (a tie goes to NaN's), and the
    // other is named too.
    const Hint mostlyNegative = explainNonFinite("Log", {full(320, 319, 1, 0)}, out);
    CHECK(mostlyNegative.rule == "log-of-negative");
    CHECK(mostlyNegative.cause ==
          "log of a negative number gives NaN, and log of zero -inf: its input holds 319 "
          "negative values and 1 zero");
    const Hint mostlyZero = explainNonFinite("Log", {full(10, 1, 3, 6)}, out);
    CHECK(mostlyZero.rule == "log-of-zero");
    CHECK(mostlyZero.cause == "log of zero gives -inf, and log of a negative number NaN: its "
                              "input holds 3 zeros and 1 negative value");
    CHECK(explainNonFinite("Log", {full(4, 2, 2, 0)}, out).rule == "log-of-negative");
    CHECK(explainNonFinite("Xlogy", {full(4, 0, 0, 4), full(4, 0, 2, 2)}, out).rule ==
          "log-of-zero");
    CHECK(explainNonFinite("Sqrt", {full(4, 1, 0, 3)}, out).rule == "sqrt-of-negative");
    CHECK(explainNonFinite("Rsqrt", {full(4, 0, 1, 3)}, out).rule == "rsqrt-of-zero");
    CHECK(explainNonFinite("Pow", {full(4, 1, 0, 3), full(1, 0, 0, 1)}, out).rule ==
          "pow-negative-base");
    CHECK(explainNonFinite("Pow", {full(4, 0, 1, 3), full(1, 1, 0, 0)}, out).rule ==
          "pow-zero-negative");
    CHECK(explainNonFinite("RealDiv", {full(4, 0, 0, 4), full(4, 0, 1, 3)}, out).rule ==
          "division-by-zero");
    CHECK(explainNonFinite("FloorDiv", {full(4, 0, 0, 4), full(4, 0, 1, 3)}, out).rule ==
          "division-by-zero");
    CHECK(explainNonFinite("Reciprocal", {full(4, 0, 1, 3)}, out).rule == "division-by-zero");
    CHECK(explainNonFinite("DivNoNan", {full(4, 0, 0, 4), full(4, 0, 1, 3)}, out).rule ==
          "division-overflow");
    CHECK(explainNonFinite("Exp", {full(4, 0, 0, 4)}, withInfinity()).rule == "exp-overflow");
    CHECK(explainNonFinite("Softplus", {full(4, 0, 0, 4)}, withInfinity()).rule == "exp-overflow");
    CHECK(explainNonFinite("Mul", {withInfinity(), full(4, 0, 1, 3)}, out).rule ==
          "zero-times-infinity");
    CHECK(explainNonFinite("MatMul", {full(4, 0, 0, 4), full(4, 0, 0, 4)}, withInfinity()).rule ==
          "product-overflow");
    CHECK(explainNonFinite("Softmax", {withInfinity()}, out).rule == "softmax-of-infinity");
    CHECK(explainNonFinite("AddV2", {withInfinity(), full(4, 0, 0, 4)}, out).rule ==
          "infinity-minus-infinity");
    CHECK(explainNonFinite("ReadVariableOp", {}, out).rule == "entered-non-finite");
    CHECK(explainNonFinite("Cast", {full(4, 0, 0, 4)}, withInfinity()).rule == "cast-overflow");
    const Hint fallback = explainNonFinite("Tanh", {full(4, 0, 0, 4)}, out);
    CHECK(fallback.rule == "fallback");
    CHECK_THAT(fallback.cause, Catch::Contains("Tanh"));
    CHECK_FALSE(fallback.fix.empty());
    CHECK(explainNonFinite("Tanh", {withInfinity()}, out).rule == "propagated");
}

TEST_CASE("aten ops get the rule of their TensorFlow counterpart, with PyTorch's fixes", "[hints]")
{
    const TensorHealth out = nanOutput();
    const Hint log = explainNonFinite("aten::log", {full(10, 0, 1, 9)}, out);
    CHECK(log.rule == "log-of-zero");
    CHECK_THAT(log.cause, Catch::Contains("1 zero"));
    CHECK_THAT(log.fix, Catch::Contains("torch.clamp_min"));
    CHECK_THAT(log.fix, Catch::Contains("log_softmax"));
    CHECK_THAT(log.fix, Catch::Contains("CrossEntropyLoss"));
    CHECK_THAT(log.fix, !Catch::Contains("tf."));
    CHECK(explainNonFinite("aten::log_", {full(10, 2, 0, 8)}, out).rule == "log-of-negative");
    CHECK(explainNonFinite("aten::div", {full(4, 0, 0, 4), full(4, 0, 1, 3)}, out).rule ==
          "division-by-zero");
    CHECK_THAT(explainNonFinite("aten::div", {full(4, 0, 0, 4), full(4, 0, 1, 3)}, out).fix,
               Catch::Contains("torch.where"));
    CHECK(explainNonFinite("aten::sqrt", {full(4, 1, 0, 3)}, out).rule == "sqrt-of-negative");
    CHECK(explainNonFinite("aten::exp", {full(4, 0, 0, 4)}, withInfinity()).rule == "exp-overflow");
    CHECK(explainNonFinite("aten::addmm", {full(4, 0, 0, 4), full(4, 0, 0, 4)}, withInfinity())
              .rule == "product-overflow");
    const Hint softmax = explainNonFinite("aten::_softmax", {full(4, 0, 0, 4)}, out);
    CHECK(softmax.rule == "softmax-overflow");
    CHECK_THAT(softmax.cause, Catch::Contains("PyTorch"));
    // No rule: the fallback names the aten op, in PyTorch's words.
    const Hint fallback = explainNonFinite("aten::tanh", {full(4, 0, 0, 4)}, out);
    CHECK(fallback.rule == "fallback");
    CHECK_THAT(fallback.cause, Catch::Contains("aten::tanh"));
    CHECK_THAT(fallback.fix, Catch::Contains("clamp"));
    // TensorFlow's own op types keep TensorFlow's words.
    CHECK_THAT(explainNonFinite("Log", {full(10, 0, 1, 9)}, out).fix, Catch::Contains("tf."));
}

TEST_CASE("an infinity from finite inputs in float16 is named mixed precision's overflow",
          "[hints]")
{
    TensorHealth half = withInfinity();
    half.dtype = nanscope::DType::Float16;
    const Hint matmul = explainNonFinite("aten::addmm", {full(4, 0, 0, 4), full(4, 0, 0, 4)}, half);
    CHECK(matmul.rule == "float16-overflow");
    CHECK_THAT(matmul.cause, Catch::Contains("65,504"));
    CHECK_THAT(matmul.fix, Catch::Contains("bfloat16"));
    CHECK_THAT(matmul.fix, Catch::Contains("GradScaler"));
    CHECK(explainNonFinite("aten::exp", {full(4, 0, 0, 4)}, half).rule == "float16-overflow");
    CHECK_THAT(explainNonFinite("MatMul", {full(4, 0, 0, 4), full(4, 0, 0, 4)}, half).fix,
               Catch::Contains("LossScaleOptimizer"));
    // Not an overflow: log(0) is -inf in any type, and an infinite input only spreads.
    CHECK(explainNonFinite("aten::log", {full(10, 0, 1, 9)}, half).rule == "log-of-zero");
    CHECK(explainNonFinite("aten::addmm", {withInfinity(), full(4, 0, 0, 4)}, half).rule !=
          "float16-overflow");
    // The same overflow in float32 or bfloat16 keeps its own rule.
    for (const auto dtype : {nanscope::DType::Float32, nanscope::DType::BFloat16}) {
        TensorHealth wide = withInfinity();
        wide.dtype = dtype;
        CHECK(explainNonFinite("aten::addmm", {full(4, 0, 0, 4), full(4, 0, 0, 4)}, wide).rule ==
              "product-overflow");
    }
}

TEST_CASE("torch's own frames fold; the user's script does not", "[stack]")
{
    auto frame = [](std::string file, int line) {
        ResolvedFrame f;
        f.filePath = std::move(file);
        f.line = line;
        return f;
    };
    const FoldedStack stack = StackFolding().fold({
        frame("/home/u/train.py", 80),
        frame("/usr/lib/python3/dist-packages/torch/nn/modules/module.py", 1190),
        frame("/home/u/model.py", 12),
        frame("/venv/lib/python3.11/site-packages/torch/nn/functional.py", 5),
        frame("/usr/lib/python3/dist-packages/torch/utils/_python_dispatch.py", 101),
    });
    CHECK_FALSE(stack.frames[0].framework);
    CHECK(stack.frames[1].framework);
    CHECK(stack.frames[3].framework);
    CHECK(stack.frames[4].framework);
    REQUIRE(stack.userFrame);
    CHECK(*stack.userFrame == 2);
}

TEST_CASE("framework frames fold; the user frame is the innermost other one", "[stack]")
{
    auto frame = [](std::string file, int line) {
        ResolvedFrame f;
        f.filePath = std::move(file);
        f.line = line;
        return f;
    };
    const StackFolding folding;
    const FoldedStack stack = folding.fold({
        frame("/home/u/train.py", 80),
        frame("/usr/lib/python3/dist-packages/keras/engine.py", 10),
        frame("/home/u/model.py", 216),
        frame("/venv/lib/python3.11/site-packages/tensorflow/python/ops/gen_math_ops.py", 5),
        frame("/venv/lib/python3.11/site-packages/tensorflow/python/debug/dumping_callback.py", 7),
    });
    REQUIRE(stack.frames.size() == 5);
    CHECK_FALSE(stack.frames[0].framework);
    CHECK(stack.frames[1].framework);
    CHECK(stack.frames[3].framework);
    REQUIRE(stack.userFrame);
    CHECK(*stack.userFrame == 2);

    const StackFolding custom({"/home/u/model.py"});
    CHECK(*custom.fold({frame("/home/u/train.py", 1), frame("/home/u/model.py", 2)}).userFrame ==
          0);
    CHECK_FALSE(folding.fold({frame("/usr/include/c++/12/bits/x.h", 1)}).userFrame);

    const std::vector<std::string> lines{"a", "b", "c", "d", "e", "f", "g", "h"};
    const auto e = excerpt(lines, "/x.py", 2, 3);
    REQUIRE(e);
    CHECK(e->firstLine == 1);
    CHECK(e->lines.size() == 5);
    CHECK(e->lines[1] == "b");
    CHECK_FALSE(excerpt(lines, "/x.py", 9, 3));
    CHECK_FALSE(excerpt(lines, "/x.py", 0, 3));
}
