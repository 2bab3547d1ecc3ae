// SPDX-License-Identifier: GPL-3.0-or-later
// The intent walk's count (intentwalk.hpp) replays the steps the first walk logged, and walks
// every event again only where the log outgrew its budget: both must give the same origin and the
// same propagation, on random programs that mix graph traces, eager ops, masks, constants,
// uninitialised memory, loss scaling, function calls and the user's patterns.
#include "intentwalk.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "originanalysis.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

constexpr int kFull = 4;
constexpr double kSize = 8;

const std::vector<std::string> kGraphTypes = {"Placeholder", "Log",    "AddV2", "Softmax",
                                              "Fill",        "Empty",  "Shape", "Mul",
                                              "Identity",    "Select", "Exp",   "Relu"};
const std::vector<std::string> kEagerTypes = {
    "aten::add",         "aten::mul",   "aten::softmax",
    "aten::masked_fill", "aten::empty", "aten::size",
    "aten::log",         "aten::sum",   "aten::_amp_foreach_non_finite_check_and_unscale_",
    "aten::zero_",       "aten::exp",   "aten::_amp_update_scale_",
    "__inference_f"};

class RandomProgram
{
public:
    explicit RandomProgram(unsigned seed) : m_random(seed) {}

    void write(const std::filesystem::path& dir)
    {
        FileSetWriter set = test::emptyRun(dir);
        set.append("graphs", ev::graph("g", "f"));
        const int ops = 4 + pick(10);
        for (int k = 0; k < ops; ++k) {
            std::vector<std::string> inputs;
            for (int i = 0; k > 0 && i < pick(3); ++i)
                inputs.push_back("op" + std::to_string(pick(k)) + ":0");
            set.append("graphs", ev::op("g", kGraphTypes[pick(kGraphTypes.size())],
                                        "op" + std::to_string(k), inputs, {k + 1}));
        }
        std::vector<std::int64_t> ids;
        const int events = 20 + pick(200);
        for (int e = 0; e < events; ++e) {
            const double wallTime = 1.0 + e;
            if (pick(2) == 0) {
                set.append("graph_execution_traces",
                           ev::trace(wallTime, "g", "op" + std::to_string(pick(ops)), 0, kFull,
                                     health(1)));
                continue;
            }
            std::vector<std::int64_t> inputs;
            for (int i = 0; !ids.empty() && i < pick(3); ++i)
                inputs.push_back(ids[pick(ids.size())]);
            // Now and then an id written again: the old value is overwritten.
            const std::int64_t output = !ids.empty() && pick(8) == 0
                                            ? ids[pick(ids.size())]
                                            : static_cast<std::int64_t>(ids.size() + 1000);
            ids.push_back(output);
            const std::string& type = kEagerTypes[pick(kEagerTypes.size())];
            set.append("execution", ev::execution(wallTime, type, inputs, {output}, kFull,
                                                  {health(static_cast<double>(output))},
                                                  type == "__inference_f" ? "g" : ""));
        }
    }

private:
    int pick(std::size_t n) { return static_cast<int>(m_random() % std::max<std::size_t>(n, 1)); }

    // Mostly finite; otherwise some -inf, +inf or NaN, alone or mixed.
    tfdbg::TensorProto health(double id)
    {
        if (pick(3) != 0)
            return ev::fullHealth(id, kSize, 0, 0, 0, 0, 1, kSize - 1);
        const double negInf = pick(2) ? 1 : 0;
        const double posInf = pick(3) == 0 ? 1 : 0;
        const double nan = negInf + posInf == 0 || pick(3) == 0 ? 1 : 0;
        return ev::fullHealth(id, kSize, negInf, posInf, nan, 0, 0, kSize - negInf - posInf - nan);
    }

    std::mt19937 m_random;
};

void requireSame(const NonFiniteAnalysis& a, const NonFiniteAnalysis& b)
{
    REQUIRE(a.origin.has_value() == b.origin.has_value());
    if (a.origin) {
        CHECK(a.origin->event == b.origin->event);
        CHECK(a.origin->opType == b.origin->opType);
        REQUIRE(a.origin->inputs.size() == b.origin->inputs.size());
        for (std::size_t k = 0; k < a.origin->inputs.size(); ++k) {
            CHECK(a.origin->inputs[k].event == b.origin->inputs[k].event);
            CHECK(a.origin->inputs[k].healthText == b.origin->inputs[k].healthText);
        }
        CHECK(a.origin->hint.rule == b.origin->hint.rule);
    }
    const Propagation& p = a.propagation;
    const Propagation& q = b.propagation;
    CHECK(p.traceHops == q.traceHops);
    CHECK(p.executionHops == q.executionHops);
    CHECK(p.producers == q.producers);
    CHECK(p.entries == q.entries);
    CHECK(p.propagators == q.propagators);
    CHECK(p.intendedEvents == q.intendedEvents);
    CHECK(p.uninitialisedEvents == q.uninitialisedEvents);
    CHECK(p.countedAlerts == q.countedAlerts);
    CHECK(p.intendedAlerts == q.intendedAlerts);
    REQUIRE(p.setAside.size() == q.setAside.size());
    for (std::size_t k = 0; k < p.setAside.size(); ++k) {
        const SetAside& s = p.setAside[k];
        const SetAside& t = q.setAside[k];
        CHECK(s.intent == t.intent);
        CHECK(s.first == t.first);
        CHECK(s.opType == t.opType);
        CHECK(s.opName == t.opName);
        CHECK(s.modulePath == t.modulePath);
        CHECK(s.pattern == t.pattern);
        CHECK(s.kinds == t.kinds);
        CHECK(s.producers == t.producers);
        CHECK(s.carriers == t.carriers);
        CHECK(s.absorbedBy == t.absorbedBy);
    }
}

std::vector<ExpectedPattern> patternsFor(unsigned seed)
{
    std::vector<ExpectedPattern> patterns;
    if (seed % 3 == 0)
        for (const char* text : {"aten::log:-inf", "Exp:inf"})
            patterns.push_back(*ExpectedPattern::parse(text, nullptr));
    return patterns;
}

} // namespace

TEST_CASE("the count replaying the walk's log gives what a second walk gives", "[intent]")
{
    int origins = 0;
    int setAside = 0;
    int propagated = 0;
    for (unsigned seed = 1; seed <= 120; ++seed) {
        INFO("seed " << seed);
        test::TempDir dir;
        RandomProgram(seed).write(dir.path());
        LogdirReader reader(dir.path());
        const auto snapshot = reader.update();
        const auto patterns = patternsFor(seed);

        IntentWalk walk(snapshot->data(), patterns);
        walk.run();
        REQUIRE(walk.logged());
        IntentWalk unlogged(snapshot->data(), patterns, 0);
        unlogged.run();
        REQUIRE_FALSE(unlogged.logged());

        const NonFiniteAnalysis replayed = analyseNonFinite(*snapshot, patterns);
        requireSame(replayed, analyseNonFinite(*snapshot, patterns, 0));
        // A log dropped halfway through the walk.
        requireSame(replayed, analyseNonFinite(*snapshot, patterns, 30 * sizeof(std::uint64_t)));
        origins += replayed.origin ? 1 : 0;
        setAside += replayed.propagation.setAside.empty() ? 0 : 1;
        propagated += replayed.propagation.propagators > 0 ? 1 : 0;
    }
    // The programs exercise what they are for.
    CHECK(origins > 30);
    CHECK(setAside > 30);
    CHECK(propagated > 30);
}
