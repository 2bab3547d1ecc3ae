// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison of two runs (core/runcompare.hpp) on runs written record by record: identical
// runs agree, the first op that is finite in one run and not in the other is named with its
// step and module, extra ops do not move it, the threshold decides on health differences, what
// was set aside does not count, and an unreadable run is an error that names it.
#include "comparelogdirs.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/runcompare.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::CompareOp;
using test::Counts;
using test::eagerOp;
using test::graphOp;

namespace {

// A PyTorch-like training step: hidden layer, loss; `log` is aten::log's health.
std::vector<CompareOp> torchStep(Counts log = {})
{
    return {eagerOp("aten::addmm", "MLP.hidden", {}, false),
            eagerOp("aten::relu", "MLP.hidden"),
            eagerOp("aten::addmm", "MLP.out"),
            eagerOp("aten::softmax", "MLP.out"),
            eagerOp("aten::log", "MLP.loss", log),
            eagerOp("aten::mean", "MLP.loss", log)};
}

// A graph "train" step as traces: MatMul, Softmax, Log, Mean.
std::vector<CompareOp> graphStep(Counts log = {}, bool clip = false)
{
    std::vector<CompareOp> ops = {graphOp("MatMul", "dense/MatMul"),
                                  graphOp("Softmax", "dense/Softmax")};
    if (clip) // the fix: two ops more before the log
        ops.insert(ops.end(),
                   {graphOp("Minimum", "clip/Minimum"), graphOp("Maximum", "clip/Maximum")});
    ops.insert(ops.end(), {graphOp("Log", "loss/Log", log), graphOp("Mean", "loss/Mean", log)});
    return ops;
}

template <typename Step>
std::vector<CompareOp> steps(int count, int badFrom, Counts bad, Step step)
{
    std::vector<CompareOp> ops;
    for (int s = 0; s < count; ++s) {
        const auto one = step(s >= badFrom ? bad : Counts{}, s);
        ops.insert(ops.end(), one.begin(), one.end());
    }
    return ops;
}

constexpr int kNever = 1 << 30;
const Counts kMinusInf{.negInf = 1, .negative = 3, .positive = 0};

struct TwoRuns
{
    test::TempDir a;
    test::TempDir b;
    std::shared_ptr<const Snapshot> snapshotA;
    std::shared_ptr<const Snapshot> snapshotB;

    TwoRuns(const std::vector<CompareOp>& opsA, const std::vector<CompareOp>& opsB)
    {
        test::writeCompareRun(a.path(), opsA, "runA");
        test::writeCompareRun(b.path(), opsB, "runB");
        snapshotA = LogdirReader(a.path()).update();
        snapshotB = LogdirReader(b.path()).update();
    }

    RunComparison compare(const CompareOptions& options = {}) const
    {
        auto result = compareRuns(*snapshotA, *snapshotB, options);
        INFO(result.error);
        REQUIRE(result);
        return *result;
    }
};

} // namespace

TEST_CASE("two identical runs do not diverge", "[compare]")
{
    const auto torch = steps(5, kNever, {}, [](Counts c, int) { return torchStep(c); });
    const auto graph = steps(5, kNever, {}, [](Counts c, int) { return graphStep(c); });
    std::vector<CompareOp> ops = torch;
    ops.insert(ops.end(), graph.begin(), graph.end());
    const TwoRuns runs(ops, ops);
    const RunComparison c = runs.compare({.threshold = 0.0});
    CHECK(c.first.kind == DivergenceKind::None);
    CHECK(c.executions.countA == 30);
    CHECK(c.executions.aligned == 30);
    CHECK(c.traces.aligned == 20);
    CHECK(c.executions.onlyInA + c.executions.onlyInB + c.traces.onlyInA + c.traces.onlyInB == 0);
    CHECK_FALSE(c.executions.divergence);
    CHECK_FALSE(c.traces.firstUnmatched);
    CHECK(c.traces.healthReads == 20); // the threshold read every pair
    CHECK_FALSE(c.stopped);
    CHECK_THAT(renderCompareText(c), Catch::StartsWith("No divergence"));
}

TEST_CASE("the first op finite in A and -inf in B is named with its module and step", "[compare]")
{
    const auto good = steps(6, kNever, {}, [](Counts c, int) { return torchStep(c); });
    const auto bad = steps(6, 3, kMinusInf, [](Counts c, int) { return torchStep(c); });
    const TwoRuns runs(good, bad);
    const RunComparison c = runs.compare();
    REQUIRE(c.first.kind == DivergenceKind::NonFiniteInB);
    const Divergence& d = c.first;
    CHECK(d.a.event == EventRef{EventSource::Eager, 3 * 6 + 4});
    CHECK(d.b.event == d.a.event);
    CHECK(d.b.opType == "aten::log");
    CHECK(d.b.modulePath == "MLP.loss");
    CHECK(d.a.step == 3);
    CHECK(d.b.step == 3);
    CHECK(d.a.health.nonFinite == false);
    CHECK(d.b.health.negativeInfinity == 1);
    CHECK(d.b.health.size == 4);
    CHECK(c.executions.aligned == 36);
    CHECK_FALSE(c.traces.divergence);

    const std::string text = renderCompareText(c);
    CHECK_THAT(text, Catch::StartsWith("Run B diverges from run A at aten::log (module "
                                       "MLP.loss), step 3: finite in A, 1 -inf in B\n"));
    CHECK_THAT(text, Catch::Contains("Executions: 36 in A, 36 in B; 36 aligned"));

    // The other way round, the same pair.
    const RunComparison back = compareRuns(*runs.snapshotB, *runs.snapshotA).value.value();
    CHECK(back.first.kind == DivergenceKind::NonFiniteInA);
    CHECK(back.first.a.event == d.b.event);
    CHECK_THAT(renderCompareText(back), Catch::Contains(": 1 -inf in A, finite in B"));
}

TEST_CASE("extra ops in one run do not break the alignment", "[compare]")
{
    // A clips before each log (two graph ops more per step) and stays finite; B does not clip and
    // its log makes -inf from step 2 on.
    const auto fixed = steps(5, kNever, {}, [](Counts c, int) { return graphStep(c, true); });
    const auto buggy = steps(5, 2, kMinusInf, [](Counts c, int) { return graphStep(c, false); });
    const TwoRuns runs(fixed, buggy);
    const RunComparison c = runs.compare();
    CHECK(c.traces.countA == 30);
    CHECK(c.traces.countB == 20);
    CHECK(c.traces.aligned == 20);
    CHECK(c.traces.onlyInA == 10);
    CHECK(c.traces.onlyInB == 0);
    REQUIRE(c.first.kind == DivergenceKind::NonFiniteInB);
    CHECK(c.first.a.opName == "loss/Log");
    CHECK(c.first.b.opName == "loss/Log");
    CHECK(c.first.a.graphName == "train");
    CHECK(c.first.a.event.index == 2 * 6 + 4);
    CHECK(c.first.b.event.index == 2 * 4 + 2);
    CHECK(c.first.b.step == 2);
    REQUIRE(c.traces.firstUnmatched);
    CHECK(*c.traces.firstUnmatchedSide == RunSide::A);
    CHECK(c.traces.firstUnmatched->opName == "clip/Minimum");
    CHECK(c.traces.firstUnmatched->event.index == 2);
    CHECK_THAT(renderCompareText(c),
               Catch::StartsWith("Run B diverges from run A at Log / op loss/Log (graph "
                                 "train), step 2: finite in A, 1 -inf in B"));
}

TEST_CASE("the threshold decides whether a health difference is a divergence", "[compare]")
{
    // Step 2's softmax has one zero of four elements in B (0.25 of them), none in A.
    auto a = steps(4, kNever, {}, [](Counts c, int) { return torchStep(c); });
    auto b = a;
    b[2 * 6 + 3].counts = {.zero = 1, .positive = 3};
    const TwoRuns runs(a, b);

    CHECK(runs.compare().first.kind == DivergenceKind::None);
    CHECK(runs.compare({.threshold = 0.3}).first.kind == DivergenceKind::None);
    const RunComparison c = runs.compare({.threshold = 0.2});
    REQUIRE(c.first.kind == DivergenceKind::Magnitude);
    CHECK(c.first.difference == Approx(0.25));
    CHECK(c.first.b.opType == "aten::softmax");
    CHECK(c.first.b.step == 2);
    CHECK(c.first.b.health.zero == 1);
    CHECK_THAT(renderCompareText(c), Catch::Contains("its health differs by 0.25 (threshold 0.2)"));

    SECTION("a budget of reads that runs out before the difference")
    {
        const RunComparison cut = runs.compare({.threshold = 0.2, .maxHealthReads = 5});
        CHECK(cut.first.kind == DivergenceKind::None);
        CHECK(cut.executions.thresholdCut);
        CHECK(cut.executions.healthReads == 5);
    }
}

TEST_CASE("a finite/non-finite divergence before a magnitude one wins", "[compare]")
{
    auto a = steps(4, kNever, {}, [](Counts c, int) { return torchStep(c); });
    auto b = steps(4, 1, kMinusInf, [](Counts c, int) { return torchStep(c); });
    b[3 * 6 + 3].counts = {.zero = 4, .positive = 0}; // later, and beyond any threshold
    const TwoRuns runs(a, b);
    const RunComparison c = runs.compare({.threshold = 0.1});
    REQUIRE(c.first.kind == DivergenceKind::NonFiniteInB);
    CHECK(c.first.b.step == 1);
}

TEST_CASE("health and magnitude differences", "[compare]")
{
    TensorHealth a{.detail = TensorHealth::Detail::Full, .size = 10, .positiveFinite = 10};
    TensorHealth b = a;
    CHECK(healthDifference(a, b) == 0.0);
    b.positiveFinite = 8;
    b.nan = 2;
    CHECK(healthDifference(a, b) == Approx(0.2));
    // A batch of another size with the same make-up compares alike.
    TensorHealth twice{.detail = TensorHealth::Detail::Full, .size = 20, .positiveFinite = 16};
    twice.nan = 4;
    CHECK(healthDifference(b, twice) == 0.0);
    // CONCISE_HEALTH counts only the non-finite classes.
    TensorHealth concise{.detail = TensorHealth::Detail::Counts, .size = 10};
    CHECK(healthDifference(a, concise) == 0.0);
    CHECK(healthDifference(b, concise) == Approx(0.2));
    // CURT_HEALTH and unknown health count nothing.
    CHECK_FALSE(healthDifference(a, {.detail = TensorHealth::Detail::Flag}));
    CHECK_FALSE(healthDifference(a, {}));
    TensorHealth invalid = a;
    invalid.invalid = "its counts add up to 11";
    CHECK_FALSE(healthDifference(a, invalid));

    TensorValue x{.dtype = DType::Float32, .shape = {3}, .elementCount = 3, .numeric = true};
    x.values = {1.0, -4.0, 2.0};
    TensorValue y = x;
    y.values = {1.0, -2.0, std::numeric_limits<double>::infinity()};
    CHECK(magnitudeDifference(x, x) == 0.0);
    CHECK(magnitudeDifference(x, y) == Approx(0.5)); // 4 against 2; the infinity is no magnitude
    TensorValue cut = x;
    cut.elementCount = 1000; // only the first values were kept: no magnitude
    CHECK_FALSE(magnitudeDifference(x, cut));
}

TEST_CASE("values set aside as intended are no divergence", "[compare]")
{
    // A mask's -inf, written from a constant and absorbed by the softmax, in B only.
    const std::vector<CompareOp> a = {eagerOp("aten::bmm"), eagerOp("aten::masked_fill"),
                                      eagerOp("aten::_softmax"), eagerOp("aten::sum")};
    auto b = a;
    b[1].counts = {.negInf = 2, .positive = 2};
    b[2].counts = {.zero = 2, .positive = 2};
    const TwoRuns runs(a, b);
    REQUIRE(runs.snapshotB->propagation().intended({EventSource::Eager, 1}));
    const RunComparison c = runs.compare();
    CHECK(c.first.kind == DivergenceKind::None);
    CHECK(c.executions.aligned == 4);
}

TEST_CASE("an unreadable run is an error that names it", "[compare]")
{
    test::TempDir dir;
    test::writeCompareRun(dir.path(), {eagerOp("aten::add")});
    const auto good = LogdirReader(dir.path()).update();
    const auto missing = LogdirReader(dir.path() / "no-such-logdir").update();
    const auto result = compareRuns(*good, *missing);
    CHECK_FALSE(result);
    CHECK_THAT(result.error, Catch::StartsWith("run B could not be read: "));
    CHECK_THAT(result.error, Catch::Contains("no-such-logdir"));
    const auto reversed = compareRuns(*missing, *good);
    CHECK_THAT(reversed.error, Catch::StartsWith("run A could not be read"));
}

TEST_CASE("a comparison stops when asked to", "[compare]")
{
    const auto ops = steps(2000, kNever, {}, [](Counts c, int) { return torchStep(c); });
    const TwoRuns runs(ops, ops);
    std::atomic_bool stop{true};
    const RunComparison c = runs.compare({.stop = &stop});
    CHECK(c.stopped);
    CHECK(c.executions.aligned < 12000);
}
