// SPDX-License-Identifier: GPL-3.0-or-later
// Intended non-finite values (intent.hpp): masks, absorbed values, the user's patterns and
// uninitialised memory are set aside, and the origin is the first value that is none of them.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"

#include <catch2/catch.hpp>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

constexpr int kFull = 4;
constexpr double kSize = 8;

// An eager op of 8 elements: `negInf`, `posInf` and `nan` of them non-finite, `zero` zeros, the
// rest positive.
struct Op
{
    std::string type;
    std::vector<std::int64_t> inputs;
    std::vector<std::int64_t> outputs;
    double negInf = 0;
    double posInf = 0;
    double nan = 0;
    double zero = 0;
};

class EagerRun
{
public:
    explicit EagerRun(const std::filesystem::path& dir) : m_set(test::emptyRun(dir)) {}

    // Appends the op; returns its execution index.
    std::uint64_t add(const Op& op)
    {
        const double positive = kSize - op.negInf - op.posInf - op.nan - op.zero;
        std::vector<tfdbg::TensorProto> tensors;
        for (std::size_t j = 0; j < op.outputs.size(); ++j)
            tensors.push_back(ev::fullHealth(static_cast<double>(op.outputs[j]), kSize, op.negInf,
                                             op.posInf, op.nan, 0, op.zero, positive));
        m_set.append("execution", ev::execution(static_cast<double>(++m_count), op.type, op.inputs,
                                                op.outputs, kFull, tensors));
        return m_count - 1;
    }

private:
    FileSetWriter m_set;
    std::uint64_t m_count = 0;
};

std::shared_ptr<const Snapshot> read(const std::filesystem::path& dir,
                                     const std::vector<std::string>& expected = {})
{
    ReaderOptions options;
    for (const auto& text : expected) {
        std::string error;
        auto p = ExpectedPattern::parse(text, &error);
        REQUIRE(p);
        options.expected.push_back(*p);
    }
    LogdirReader reader(dir, options);
    return reader.update();
}

EventRef eager(std::uint64_t index)
{
    return {EventSource::Eager, index};
}

const SetAside* setAsideOf(const Snapshot& s, std::string_view opType)
{
    for (const auto& g : s.propagation().setAside)
        if (g.opType == opType)
            return &g;
    return nullptr;
}

// One step of causal self-attention: scores, the mask written by masked_fill, softmax.
void attentionStep(EagerRun& run, std::int64_t base)
{
    run.add({"aten::bmm", {1, 2}, {base}});
    run.add({"aten::masked_fill", {base, 3}, {base + 1}, 3});
    run.add({"aten::_softmax", {base + 1}, {base + 2}, 0, 0, 0, 3});
    run.add({"aten::bmm", {base + 2, 4}, {base + 3}});
}

} // namespace

TEST_CASE("a causal mask is set aside and the loss's log of zero is the origin", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    attentionStep(run, 100);
    attentionStep(run, 200);
    const auto log = run.add({"aten::log", {203}, {300}, 1, 0, 0, 0});
    const auto mean = run.add({"aten::mean", {300}, {301}, 1});
    const auto s = read(dir.path());

    const auto& origin = s->origin();
    REQUIRE(origin);
    CHECK(origin->event == eager(log));
    CHECK(origin->opType == "aten::log");
    const Propagation& p = s->propagation();
    CHECK(p.intended(eager(1)));
    CHECK(p.intended(eager(5)));
    CHECK(p.hops(eager(log)) == 0);
    CHECK(p.hops(eager(mean)) == 1);
    CHECK_FALSE(p.hops(eager(1)));
    CHECK(p.producers == 1);
    CHECK(p.propagators == 1);
    CHECK(p.intendedEvents == 2);
    CHECK(p.countedAlerts == 2);
    CHECK(p.intendedAlerts == 2);
    CHECK(s->alertCount() == 4); // TensorBoard's count is unchanged

    const SetAside* mask = setAsideOf(*s, "aten::masked_fill");
    REQUIRE(mask);
    CHECK(mask->intent == Intent::Constant);
    CHECK(mask->producers == 2);
    CHECK(mask->kinds == nonfinite::NegInf);
    CHECK(mask->first == eager(1));
    CHECK(mask->absorbedBy == std::vector<std::string>{"aten::_softmax"});
}

TEST_CASE("a program whose only non-finite values are masks has no origin", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    for (std::int64_t step = 1; step <= 3; ++step)
        attentionStep(run, step * 100);
    const auto s = read(dir.path());
    CHECK_FALSE(s->origin());
    CHECK(s->propagation().countedAlerts == 0);
    CHECK(s->propagation().intendedAlerts == 3);
    CHECK(s->propagation().producers == 0);
    CHECK(s->alertCount() == 3);
}

TEST_CASE("a mask made by log of a 0/1 matrix is absorbed by softmax", "[intent]")
{
    // The word-language-model pattern: mask = log(tril(ones)), added to the scores of each
    // step; later a real bug, the square root of a negative number.
    test::TempDir dir;
    EagerRun run(dir.path());
    run.add({"aten::tril", {1}, {2}, 0, 0, 0, 3});
    const auto mask = run.add({"aten::log", {2}, {3}, 3});
    for (std::int64_t step = 1; step <= 3; ++step) {
        const std::int64_t b = step * 100;
        run.add({"aten::bmm", {4, 5}, {b}});
        run.add({"aten::add", {b, 3}, {b + 1}, 3});
        run.add({"aten::_softmax", {b + 1}, {b + 2}, 0, 0, 0, 3});
    }
    const auto sqrt = run.add({"aten::sqrt", {302}, {400}, 0, 0, 2});
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(sqrt));
    const Propagation& p = s->propagation();
    CHECK(p.intended(eager(mask)));
    CHECK(p.intended(eager(3))); // the scores the mask was added to
    const SetAside* log = setAsideOf(*s, "aten::log");
    REQUIRE(log);
    CHECK(log->intent == Intent::Absorbed);
    CHECK(log->producers == 1);
    CHECK(log->carriers == 3);
    CHECK(log->absorbedBy == std::vector<std::string>{"aten::_softmax"});
}

TEST_CASE("a mask stays intended when a later NaN flows through its add", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    const auto mask = run.add({"aten::log", {2}, {3}, 3});
    run.add({"aten::add", {10, 3}, {11}, 3});
    run.add({"aten::_softmax", {11}, {12}, 0, 0, 0, 3});
    const auto bug = run.add({"aten::div", {12, 13}, {20}, 0, 0, 1}); // 0/0
    run.add({"aten::add", {20, 3}, {21}, 0, 0, 8});                   // NaN scores + mask
    run.add({"aten::_softmax", {21}, {22}, 0, 0, 8});
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(bug));
    CHECK(s->propagation().intended(eager(mask)));
    CHECK(s->propagation().hops(eager(5)) == 2);
}

TEST_CASE("a fully masked row: the softmax is the origin, the mask stays intended", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    run.add({"aten::bmm", {1, 2}, {10}});
    const auto mask = run.add({"aten::masked_fill", {10, 3}, {11}, 8});
    const auto softmax = run.add({"aten::_softmax", {11}, {12}, 0, 0, 8});
    run.add({"aten::bmm", {12, 4}, {13}, 0, 0, 8});
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(softmax));
    CHECK(s->origin()->hint.rule == "fully-masked-row");
    CHECK_THAT(s->origin()->hint.cause, Catch::Contains("masked entirely"));
    CHECK(s->propagation().intended(eager(mask)));
    CHECK(s->propagation().hops(eager(3)) == 1);
}

TEST_CASE("a fully masked row of a computed mask is the softmax's too", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    const auto mask = run.add({"aten::log", {1}, {2}, 8});
    run.add({"aten::add", {3, 2}, {4}, 8});
    const auto softmax = run.add({"aten::_softmax", {4}, {5}, 0, 0, 8});
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(softmax));
    CHECK(s->propagation().intended(eager(mask)));
}

TEST_CASE("a mask made as -inf times (1 - keep) is NaN: the product is the origin", "[intent]")
{
    // mask = -inf * (1 - keep): where keep is 1 the product is -inf * 0.
    test::TempDir dir;
    EagerRun run(dir.path());
    run.add({"aten::rsub", {1}, {2}, 0, 0, 0, 4});
    const auto product = run.add({"aten::mul", {2}, {3}, 4, 0, 4});
    run.add({"aten::add", {5, 3}, {6}, 4, 0, 4});
    run.add({"aten::_softmax", {6}, {7}, 0, 0, 8});
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(product));
}

TEST_CASE("a value read by no op (its shape and a test aside) is not absorbed", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    const auto log = run.add({"aten::log", {1}, {2}, 1});
    run.add({"aten::ones_like", {2}, {3}}); // reads the shape only
    run.add({"aten::isfinite", {2}, {4}});  // tests it: a NaN check absorbs nothing
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(log));
}

TEST_CASE("a value that goes to Python (item) is not absorbed", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    const auto log = run.add({"aten::log", {1}, {2}, 1});
    run.add({"aten::_local_scalar_dense", {2}, {}});
    run.add({"aten::exp", {2}, {3}}); // finite: would absorb it
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(log));
}

TEST_CASE("where absorbs a log's -inf; the backward 0/0 is the origin", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    const auto log = run.add({"aten::log", {1}, {2}, 2});
    run.add({"aten::where", {3, 2}, {4}});
    const auto div = run.add({"aten::div", {5, 1}, {6}, 0, 0, 2});
    run.add({"aten::mul", {6, 7}, {8}, 0, 0, 2});
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(div));
    CHECK(s->propagation().intended(eager(log)));
    REQUIRE(setAsideOf(*s, "aten::log"));
    CHECK(setAsideOf(*s, "aten::log")->absorbedBy == std::vector<std::string>{"aten::where"});
}

TEST_CASE("uninitialised memory is no value: no alert counts, no origin", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    const auto empty = run.add({"aten::empty", {}, {1}, 0, 0, 3});
    run.add({"aten::uniform_", {1}, {1}}); // written in place
    run.add({"aten::mm", {1, 2}, {3}});
    const auto s = read(dir.path());
    CHECK_FALSE(s->origin());
    const Propagation& p = s->propagation();
    CHECK(p.uninitialised(eager(empty)));
    CHECK(p.uninitialisedEvents == 1);
    CHECK(p.uninitialisedAlerts == 1);
    CHECK(p.countedAlerts == 0);
    const SetAside* memory = setAsideOf(*s, "aten::empty");
    REQUIRE(memory);
    CHECK(memory->intent == Intent::Uninitialised);
    CHECK(memory->first == eager(empty));
    CHECK(memory->producers == 1);
    CHECK(memory->kinds == nonfinite::NaN);
}

TEST_CASE("uninitialised memory read before it is written: the reader is the origin", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    run.add({"aten::empty", {}, {1}, 0, 0, 3});
    const auto add = run.add({"aten::add", {1, 2}, {3}, 0, 0, 3});
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(add));
    CHECK(s->propagation().entries == 1); // its NaN came from no value that was recorded
}

TEST_CASE("the user's patterns set values aside, by op and kind", "[intent]")
{
    test::TempDir dir;
    EagerRun run(dir.path());
    const auto log = run.add({"aten::log", {1}, {2}, 1});
    run.add({"aten::mean", {2}, {3}, 1});

    SECTION("a matching op and kind")
    {
        const auto s = read(dir.path(), {"aten::log:-inf"});
        CHECK_FALSE(s->origin());
        const SetAside* g = setAsideOf(*s, "aten::log");
        REQUIRE(g);
        CHECK(g->intent == Intent::Expected);
        CHECK(g->pattern == "aten::log:-inf");
        CHECK(s->propagation().intended(eager(1))); // what carried it on
        REQUIRE(s->propagation().expectedPatterns.size() == 1);
    }
    SECTION("a glob")
    {
        CHECK_FALSE(read(dir.path(), {"aten::l?g*"})->origin());
    }
    SECTION("another kind")
    {
        const auto s = read(dir.path(), {"aten::log:nan,+inf"});
        REQUIRE(s->origin());
        CHECK(s->origin()->event == eager(log));
    }
    SECTION("the dump root's file")
    {
        test::writeBytes(dir.path() / std::string(kExpectedFileName),
                         "# written by the recorder\naten::log:-inf  # the loss\n");
        const auto s = read(dir.path());
        CHECK_FALSE(s->origin());
        REQUIRE(s->propagation().expectedPatterns.size() == 1);
        CHECK(s->propagation().expectedPatterns[0].text == "aten::log:-inf");
    }
    SECTION("a bad line in the file is a warning, the rest applies")
    {
        test::writeBytes(dir.path() / std::string(kExpectedFileName), "aten::log:-inf\nx:ninf\n");
        const auto s = read(dir.path());
        CHECK_FALSE(s->origin());
        const auto& diagnostics = s->diagnostics();
        const bool warned = std::any_of(diagnostics.begin(), diagnostics.end(), [](const auto& d) {
            return d.severity == Severity::Warning && d.message.find("line 2") != std::string::npos;
        });
        CHECK(warned);
    }
}

TEST_CASE("patterns: what parses and what matches", "[intent]")
{
    std::string error;
    auto p = ExpectedPattern::parse("aten::masked_fill:-inf", &error);
    REQUIRE(p);
    CHECK(p->op == "aten::masked_fill");
    CHECK(p->kinds == nonfinite::NegInf);
    p = ExpectedPattern::parse("aten::log", &error);
    REQUIRE(p);
    CHECK(p->op == "aten::log");
    CHECK(p->kinds == nonfinite::Any);
    p = ExpectedPattern::parse(" Select*:inf, nan ", &error);
    REQUIRE(p);
    CHECK(p->op == "Select*");
    CHECK(p->kinds == nonfinite::Any);
    CHECK(p->matchesOp("SelectV2", ""));
    CHECK(p->matchesOp("Foo", "SelectMask"));
    CHECK_FALSE(p->matchesOp("Where", "mask"));
    CHECK_FALSE(ExpectedPattern::parse("Log:ninf", &error));
    CHECK_THAT(error, Catch::Contains("not a kind"));
    CHECK_FALSE(ExpectedPattern::parse(":-inf", &error));
    CHECK_FALSE(ExpectedPattern::parse(std::string(300, 'a'), &error));
    // Many stars cost time in proportion, never exponentially.
    CHECK_FALSE(ExpectedPattern(*ExpectedPattern::parse(std::string(100, '*') + "b", &error))
                    .matchesOp(std::string(200, 'a'), ""));
    CHECK(nonFiniteKindsText(nonfinite::NegInf | nonfinite::NaN) == "-inf,nan");
    CHECK(nonFiniteKindsText(nonfinite::NegInf | nonfinite::PosInf) == "inf");

    const ParsedPatterns parsed = parseExpectedFile("a\n\n# c\nb:nan\nc:what\n");
    CHECK(parsed.patterns.size() == 2);
    REQUIRE(parsed.errors.size() == 1);
    CHECK_THAT(parsed.errors[0], Catch::StartsWith("line 5"));
}

TEST_CASE("a TensorFlow graph's SelectV2 mask is set aside; its Log of zero is the origin",
          "[intent]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    set.append("graphs", ev::graph("g", "train_step"));
    set.append("graphs", ev::op("g", "Placeholder", "scores", {}, {1}));
    set.append("graphs", ev::op("g", "SelectV2", "mask", {"causal", "scores:0", "neg_inf"}, {2}));
    set.append("graphs", ev::op("g", "Softmax", "probs", {"mask:0"}, {3}));
    set.append("graphs", ev::op("g", "Log", "log", {"probs:0"}, {4}));
    set.append("graphs", ev::op("g", "Mean", "loss", {"log:0"}, {5}));
    double t = 0;
    auto trace = [&](const char* op, double negInf, double zero) {
        set.append(
            "graph_execution_traces",
            ev::trace(++t, "g", op, 0, kFull,
                      ev::fullHealth(1, kSize, negInf, 0, 0, 0, zero, kSize - negInf - zero)));
    };
    for (int step = 0; step < 2; ++step) {
        trace("scores", 0, 0);
        trace("mask", 3, 0);
        trace("probs", 0, step == 1 ? 1 : 0); // the second step's softmax underflows
        trace("log", step == 1 ? 1 : 0, 0);
        trace("loss", step == 1 ? 1 : 0, 0);
    }
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->opType == "Log");
    CHECK(s->origin()->event == EventRef{EventSource::Graph, 8});
    CHECK(s->origin()->hint.rule == "log-of-zero");
    const Propagation& p = s->propagation();
    CHECK(p.intended({EventSource::Graph, 1}));
    CHECK(p.intended({EventSource::Graph, 6}));
    CHECK(p.hops({EventSource::Graph, 9}) == 1);
    const SetAside* mask = setAsideOf(*s, "SelectV2");
    REQUIRE(mask);
    CHECK(mask->opName == "mask");
    CHECK(mask->producers == 2);
    CHECK(mask->absorbedBy == std::vector<std::string>{"Softmax"});
    CHECK(p.countedAlerts == 2);
    CHECK(p.intendedAlerts == 2);
}

TEST_CASE("a NaN is never absorbed, even when every reader hides it", "[intent]")
{
    // A NaN weight read by relu (which some kernels turn into 0): a mistake, not a mask.
    test::TempDir dir;
    EagerRun run(dir.path());
    const auto weight = run.add({"aten::add", {1, 2}, {3}, 0, 0, 2});
    run.add({"aten::relu", {3}, {4}});
    run.add({"aten::where", {5, 6}, {7}, 0, 0, 0, 1}); // finite
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(weight));
    CHECK(s->propagation().setAside.empty());
}

TEST_CASE("values of a mode that tells no kind are not absorbed", "[intent]")
{
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    const int curt = 2;
    set.append("execution",
               ev::execution(1, "aten::log", {1}, {2}, curt, {ev::curtHealth(2, true)}));
    set.append("execution",
               ev::execution(2, "aten::_softmax", {2}, {3}, curt, {ev::curtHealth(3, false)}));
    set.append("execution",
               ev::execution(3, "aten::masked_fill", {4}, {5}, curt, {ev::curtHealth(5, true)}));
    set.append("execution",
               ev::execution(4, "aten::_softmax", {5}, {6}, curt, {ev::curtHealth(6, false)}));
    const auto s = read(dir.path());
    REQUIRE(s->origin());
    CHECK(s->origin()->event == eager(0));      // it might have been NaN
    CHECK(s->propagation().intended(eager(2))); // a constant is intended whatever its kind
}
