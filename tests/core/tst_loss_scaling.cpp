// SPDX-License-Identifier: GPL-3.0-or-later
// Loss scaling (torch.amp.GradScaler): float16 gradients overflow now and then on purpose, the
// scaler's check finds them and the step is skipped. Those are set aside (Intent::LossScaled);
// the program's own NaN later in the run is the origin. Written as PyTorch's recorder writes such
// a run: the loss multiplied by the scale, backward ops, the check (which has no outputs), the
// update whose first input is the scale, and the optimizer when the step is not skipped.
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

using namespace nanscope;
using namespace nanscope::core;

namespace {

struct Run
{
    bool scaler = true;               // the check and the update are recorded
    bool optimizerAfterCheck = false; // the step runs whatever the check found
    bool forwardOverflow = false;     // step 1's overflow comes before the loss is scaled
    int steps = 3;
    int overflowSteps = 2; // the first steps overflow
};

// Three steps (Run::steps); steps 0 and 1 overflow in backward (step 1 in forward with
// forwardOverflow), step 2 is clean, then the program's bug: a log of zero whose loss item()
// reads.
class ScaledRun
{
public:
    explicit ScaledRun(const std::filesystem::path& dir, Run run) : m_run(run)
    {
        auto opened = Recorder::open({.dumpRoot = dir.string(),
                                      .mode = TensorDebugMode::FullHealth,
                                      .circularBufferSize = -1});
        if (!opened.ok())
            return;
        m_rec = std::move(*opened);
        m_ok = write() && m_rec->close().ok();
    }
    bool ok() const { return m_ok; }

private:
    // One op: its outputs' values are `values` each (two elements), none when empty.
    bool op(const char* type, std::vector<std::int64_t> inputs,
            const std::vector<std::int64_t>& outputs, float value = 1.0f)
    {
        const float values[2] = {value, value};
        const std::int64_t shape[1] = {2};
        ExecutionSpec spec{.opType = type, .inputIds = std::move(inputs), .outputIds = outputs};
        for (std::size_t i = 0; i < outputs.size(); ++i)
            spec.outputs.push_back({.data = values, .dtype = DType::Float32, .shape = shape});
        spec.context.modulePath = "Net";
        return m_rec->recordExecution(spec).ok();
    }

    bool write()
    {
        const std::int64_t w = 1, scale = 2, growth = 3;
        std::int64_t next = 10;
        bool ok = op("aten::full", {}, {scale}, 65536.0f) && op("aten::full", {}, {growth}, 0.0f);
        for (int step = 0; step < m_run.steps && ok; ++step) {
            const bool overflow = step < m_run.overflowSteps;
            const bool inForward = overflow && step == 1 && m_run.forwardOverflow;
            const std::int64_t act = next++, loss = next++, scaled = next++, gradAct = next++,
                               gradW = next++, found = next++, inv = next++;
            ok = op("aten::mm", {w}, {act}, inForward ? INFINITY : 1.0f) &&
                 op("aten::mse_loss", {act}, {loss}, inForward ? INFINITY : 1.0f);
            if (inForward)
                ok = ok && op("aten::_local_scalar_dense", {loss}, {}); // print(loss.item())
            ok = ok && op("aten::mul", {loss, scale}, {scaled}, inForward ? INFINITY : 65536.0f) &&
                 op("aten::mm", {scaled, w}, {gradAct}, overflow ? INFINITY : 2.0f) &&
                 op("aten::mul", {gradAct, act}, {gradW}, overflow ? NAN : 2.0f);
            if (m_run.scaler)
                ok = ok && op("aten::full", {}, {found}, 0.0f) &&
                     op("aten::reciprocal", {scale}, {inv}, 1.0f / 65536) &&
                     op("aten::_amp_foreach_non_finite_check_and_unscale_", {gradW, found, inv},
                        {}) &&
                     op("aten::_amp_update_scale_", {scale, growth, found}, {scale}, 32768.0f);
            if (!overflow || !m_run.scaler || m_run.optimizerAfterCheck)
                ok = ok && op("aten::add_", {w, gradW}, {w}, overflow ? NAN : 1.0f);
        }
        // The program's bug, step 3: log(0) = -inf, times 0 is NaN, and the loss is printed.
        const std::int64_t zero = next++, logged = next++, loss = next++;
        return ok && op("aten::zeros", {}, {zero}, 0.0f) &&
               op("aten::log", {zero}, {logged}, -INFINITY) &&
               op("aten::mul", {logged, zero}, {loss}, NAN) &&
               op("aten::_local_scalar_dense", {loss}, {});
    }

    Run m_run;
    std::unique_ptr<Recorder> m_rec;
    bool m_ok = false;
};

std::shared_ptr<const Snapshot> read(Run run, test::TempDir& dir)
{
    REQUIRE(ScaledRun(dir.path(), run).ok());
    return LogdirReader(dir.path()).update();
}

const SetAside* lossScaled(const Snapshot& s)
{
    for (const SetAside& g : s.propagation().setAside)
        if (g.intent == Intent::LossScaled)
            return &g;
    return nullptr;
}

} // namespace

TEST_CASE("overflows the loss scaler caught are set aside; the program's NaN is the origin",
          "[intent][lossscaling]")
{
    test::TempDir dir;
    const auto s = read({}, dir);
    REQUIRE(s->origin());
    CHECK(s->origin()->opType == "aten::log");
    const SetAside* caught = lossScaled(*s);
    REQUIRE(caught);
    CHECK(caught->opType == "aten::mm");       // the backward op whose float16 product overflowed
    CHECK(caught->producers == 2);             // once each overflowing step
    CHECK(caught->carriers == 2);              // the mul that made NaN of it, each step
    CHECK(caught->kinds == nonfinite::PosInf); // what it made; the mul carried them on as NaN
    CHECK(toString(Intent::LossScaled) == "loss-scaled");
}

TEST_CASE("without a loss scaler, or with a step taken anyway, the overflow is the origin",
          "[intent][lossscaling]")
{
    for (const Run run : {Run{.scaler = false}, Run{.optimizerAfterCheck = true}}) {
        test::TempDir dir;
        const auto s = read(run, dir);
        REQUIRE(s->origin());
        CHECK(s->origin()->opType == "aten::mm");
        CHECK(s->origin()->event.index == 5); // step 0's backward product
        CHECK_FALSE(lossScaled(*s));
    }
}

TEST_CASE("an overflow before the loss was scaled is not the scaler's", "[intent][lossscaling]")
{
    test::TempDir dir;
    const auto s = read({.forwardOverflow = true}, dir);
    REQUIRE(s->origin());
    // Step 0's backward overflow was caught; step 1's forward one is the program's.
    CHECK(s->origin()->opType == "aten::mm");
    CHECK(s->origin()->modulePath == "Net");
    const SetAside* caught = lossScaled(*s);
    REQUIRE(caught);
    CHECK(caught->producers == 1);
    CHECK(s->origin()->event.index > caught->first.index);
}

TEST_CASE("a scaler that never recovers, or only after 32 skipped steps, leaves the first overflow",
          "[intent][lossscaling]")
{
    for (const Run run :
         {Run{.steps = 3, .overflowSteps = 3}, Run{.steps = 34, .overflowSteps = 32},
          Run{.steps = 33, .overflowSteps = 31}}) {
        test::TempDir dir;
        const auto s = read(run, dir);
        REQUIRE(s->origin());
        const bool fault = run.overflowSteps == run.steps || run.overflowSteps >= 32;
        INFO(run.overflowSteps << " of " << run.steps << " steps overflow");
        CHECK(s->origin()->opType == (fault ? "aten::mm" : "aten::log"));
        CHECK(bool(lossScaled(*s)) == !fault);
    }
}
