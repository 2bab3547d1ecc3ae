// SPDX-License-Identifier: GPL-3.0-or-later
// RecorderOptions::stopAtFirstNonFinite: the recording stops at the first NaN that no intended
// value explains (a mask's −∞, an expected pattern, an infinity softmax absorbs), names the op
// that made it (or the op whose infinities became it), and leaves everything up to it on disk
// before the program hears of it.
#include "logdirfixture.hpp"
#include "nanscope/recorder.h"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <deque>
#include <fstream>
#include <limits>
#include <optional>
#include <vector>

using namespace nanscope;
using test::readEvents;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

RecorderOptions stopping(const std::filesystem::path& root,
                         TensorDebugMode mode = TensorDebugMode::FullHealth)
{
    return {.dumpRoot = root, .mode = mode, .circularBufferSize = -1, .stopAtFirstNonFinite = true};
}

// A tiny eager program: each op gets fresh output ids and reads the ids it is given.
class Program
{
public:
    explicit Program(Recorder& recorder) : m_recorder(recorder) {}

    // Records `op` reading `inputs` and making `values`; returns its output id.
    std::int64_t run(const std::string& op, std::vector<std::int64_t> inputs,
                     std::vector<float> values, Status* status = nullptr,
                     std::source_location where = std::source_location::current())
    {
        m_values.push_back(std::move(values));
        const std::vector<float>& kept = m_values.back();
        m_shapes.push_back({static_cast<std::int64_t>(kept.size())});
        const std::int64_t id = m_recorder.newTensorId();
        ExecutionSpec spec{.opType = op, .inputIds = std::move(inputs), .outputIds = {id}};
        spec.outputs.push_back(
            {.data = kept.data(), .dtype = DType::Float32, .shape = m_shapes.back()});
        spec.context.modulePath = "Net.attn";
        Status s = m_recorder.recordExecution(spec, CodeLocation(where));
        if (status)
            *status = s;
        else
            CHECK(s.ok());
        return id;
    }

private:
    Recorder& m_recorder;
    std::deque<std::vector<float>> m_values;
    std::deque<std::vector<std::int64_t>> m_shapes;
};

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("stopping needs a mode that reads values, a lag of 0 or more and valid patterns",
          "[stop]")
{
    test::TempDir dir;
    for (const auto mode : {TensorDebugMode::NoTensor, TensorDebugMode::Shape}) {
        auto refused = Recorder::open(stopping(dir.path() / "a", mode));
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.status().code() == ErrorCode::InvalidArgument);
        CHECK(contains(refused.status().message(), "needs a mode that reads values"));
    }
    auto options = stopping(dir.path() / "b");
    options.stopLagEvents = -1;
    CHECK(Recorder::open(options).status().code() == ErrorCode::InvalidArgument);
    options = stopping(dir.path() / "c");
    options.expectedNonFinite = {"aten::log:-inf!"};
    auto badPattern = Recorder::open(options);
    REQUIRE_FALSE(badPattern.ok());
    CHECK(contains(badPattern.status().message(), "aten::log:-inf!"));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "c"));
}

TEST_CASE("a NaN made from finite values stops the recording at its op, with it on disk", "[stop]")
{
    test::TempDir dir;
    auto options = stopping(dir.path());
    std::vector<NonFiniteStop> heard;
    std::size_t executionsOnDiskWhenHeard = 0;
    options.onNonFiniteStop = [&](const NonFiniteStop& stop) {
        heard.push_back(stop);
        executionsOnDiskWhenHeard = readEvents(dir.path(), "execution").size();
    };
    auto recorder = Recorder::open(options);
    REQUIRE(recorder.ok());
    Program program(**recorder);
    const auto x = program.run("aten::mm", {}, {1.0f, 2.0f});
    Status status;
    const int line = __LINE__ + 1;
    program.run("aten::sqrt", {x}, {1.0f, kNaN}, &status);

    CHECK(status.code() == ErrorCode::NonFinite);
    REQUIRE(heard.size() == 1);
    CHECK(executionsOnDiskWhenHeard == 2);
    const NonFiniteStop& stop = heard.front();
    CHECK(stop.origin.opType == "aten::sqrt");
    CHECK(stop.origin.modulePath == "Net.attn");
    CHECK(stop.origin.kinds == "nan");
    REQUIRE(stop.origin.stack.size() == 1);
    CHECK(stop.origin.stack.back().line == line);
    CHECK_FALSE(stop.stoppedAt);
    CHECK(status.message() == stop.message);
    CHECK(contains(stop.message, "aten::sqrt in Net.attn at "));
    CHECK(contains(stop.message, "tst_recorder_stop.cpp:" + std::to_string(line)));
    CHECK(contains(stop.message, "made nan"));
    CHECK(contains(stop.message, dir.path().string()));

    // Later calls are refused with the same message and record nothing; the callback is not
    // called again.
    Status later;
    program.run("aten::add", {x}, {1.0f}, &later);
    CHECK(later.code() == ErrorCode::NonFinite);
    CHECK(later.message() == stop.message);
    CHECK(heard.size() == 1);
    REQUIRE((*recorder)->nonFiniteStop());
    CHECK((*recorder)->nonFiniteStop()->origin.opType == "aten::sqrt");
    REQUIRE((*recorder)->close().ok());
    CHECK(readEvents(dir.path(), "execution").size() == 2);
}

TEST_CASE("a mask's -inf does not stop; a row masked entirely does, at the softmax", "[stop]")
{
    test::TempDir dir;
    auto recorder = Recorder::open(stopping(dir.path()));
    REQUIRE(recorder.ok());
    Program program(**recorder);
    const auto scores = program.run("aten::mm", {}, {0.5f, 1.5f});
    const auto masked = program.run("aten::masked_fill", {scores}, {0.5f, -kInf});
    const auto shifted = program.run("aten::add", {masked}, {1.0f, -kInf}); // carried on
    program.run("aten::_softmax", {shifted}, {1.0f, 0.0f});                 // absorbed
    CHECK_FALSE((*recorder)->nonFiniteStop());

    const auto allMasked = program.run("aten::masked_fill", {scores}, {-kInf, -kInf});
    Status status;
    program.run("aten::_softmax", {allMasked}, {kNaN, kNaN}, &status);
    CHECK(status.code() == ErrorCode::NonFinite);
    REQUIRE((*recorder)->nonFiniteStop());
    CHECK((*recorder)->nonFiniteStop()->origin.opType == "aten::_softmax");
    CHECK_FALSE((*recorder)->nonFiniteStop()->stoppedAt);
}

TEST_CASE("an infinity becomes the origin when an op turns it into NaN", "[stop]")
{
    test::TempDir dir;
    auto recorder = Recorder::open(stopping(dir.path()));
    REQUIRE(recorder.ok());
    Program program(**recorder);
    const auto probs = program.run("aten::_softmax", {}, {1.0f, 0.0f});
    const int logLine = __LINE__ + 1;
    const auto logs = program.run("aten::log", {probs}, {0.0f, -kInf});
    CHECK_FALSE((*recorder)->nonFiniteStop()); // a mask built by log(0) looks the same so far
    const auto carried = program.run("aten::neg", {logs}, {0.0f, kInf});
    Status status;
    program.run("aten::mul", {carried}, {0.0f, kNaN}, &status);
    CHECK(status.code() == ErrorCode::NonFinite);
    const auto stop = (*recorder)->nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "aten::log");
    CHECK(stop->origin.kinds == "-inf");
    CHECK(stop->origin.stack.back().line == logLine);
    REQUIRE(stop->stoppedAt);
    CHECK(stop->stoppedAt->opType == "aten::mul");
    CHECK(contains(stop->message, "aten::log in Net.attn at "));
    CHECK(contains(stop->message, "which aten::mul in Net.attn at "));
    CHECK(contains(stop->message, "turned into nan"));
}

TEST_CASE("an infinity that softmax absorbs never stops; one taken out by item() does", "[stop]")
{
    test::TempDir dir;
    auto recorder = Recorder::open(stopping(dir.path()));
    REQUIRE(recorder.ok());
    Program program(**recorder);
    const auto ones = program.run("aten::mm", {}, {1.0f, 0.0f});
    const auto mask = program.run("aten::log", {ones}, {0.0f, -kInf});
    const auto scores = program.run("aten::add", {mask}, {2.0f, -kInf});
    program.run("aten::_softmax", {scores}, {1.0f, 0.0f});
    CHECK_FALSE((*recorder)->nonFiniteStop());

    const auto overflow = program.run("aten::exp", {ones}, {kInf, 1.0f});
    ExecutionSpec item{.opType = "aten::_local_scalar_dense", .inputIds = {overflow}};
    const Status status = (*recorder)->recordExecution(item);
    CHECK(status.code() == ErrorCode::NonFinite);
    const auto stop = (*recorder)->nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "aten::exp");
    REQUIRE(stop->stoppedAt);
    CHECK(stop->stoppedAt->opType == "aten::_local_scalar_dense");
    CHECK(contains(stop->message, "took out of the record"));
}

TEST_CASE("expected patterns, from the options or the dump root's file, explain values", "[stop]")
{
    test::TempDir dir;
    std::filesystem::create_directories(dir.path());
    {
        std::ofstream file(dir.path() / "nanscope_expected.txt");
        file << "# the user's own\naten::atan2:nan\n";
    }
    auto options = stopping(dir.path());
    options.expectedNonFinite = {"aten::div:nan"};
    auto recorder = Recorder::open(options);
    REQUIRE(recorder.ok());
    Program program(**recorder);
    const auto x = program.run("aten::mm", {}, {0.0f});
    program.run("aten::div", {x}, {kNaN});
    program.run("aten::atan2", {x}, {kNaN});
    CHECK_FALSE((*recorder)->nonFiniteStop());
    // A pattern that allows NaN does not explain an infinity.
    Status status;
    program.run("aten::div", {x}, {kInf}, &status);
    CHECK_FALSE((*recorder)->nonFiniteStop()); // an infinity is a suspect, not yet a stop
    program.run("aten::sub", {x}, {kNaN}, &status);
    CHECK(status.code() == ErrorCode::NonFinite);
    CHECK((*recorder)->nonFiniteStop()->origin.opType == "aten::sub");
}

TEST_CASE("CURT_HEALTH, which does not tell NaN from inf, stops at the first non-finite value",
          "[stop]")
{
    test::TempDir dir;
    auto recorder = Recorder::open(stopping(dir.path(), TensorDebugMode::CurtHealth));
    REQUIRE(recorder.ok());
    Program program(**recorder);
    const auto x = program.run("aten::mm", {}, {1.0f});
    const auto mask = program.run("aten::masked_fill", {x}, {-kInf}); // still a constant
    program.run("aten::add", {mask}, {-kInf});                        // carried on
    CHECK_FALSE((*recorder)->nonFiniteStop());
    Status status;
    program.run("aten::log", {x}, {-kInf}, &status);
    CHECK(status.code() == ErrorCode::NonFinite);
    CHECK((*recorder)->nonFiniteStop()->origin.kinds == "non-finite values");
}

TEST_CASE("FULL_TENSOR stops as the health modes do", "[stop]")
{
    test::TempDir dir;
    auto recorder = Recorder::open(stopping(dir.path(), TensorDebugMode::FullTensor));
    REQUIRE(recorder.ok());
    Program program(**recorder);
    const auto x = program.run("aten::mm", {}, {1.0f, 2.0f});
    Status status;
    program.run("aten::sqrt", {x}, {kNaN, 1.0f}, &status);
    CHECK(status.code() == ErrorCode::NonFinite);
    CHECK((*recorder)->nonFiniteStop()->origin.kinds == "nan");
}

TEST_CASE("graph traces stop at the tutorial's Log, turned into NaN by Mul", "[stop]")
{
    test::TempDir dir;
    auto recorder = Recorder::open(stopping(dir.path()));
    REQUIRE(recorder.ok());
    Recorder& r = **recorder;
    auto graph = r.declareGraph("loss");
    REQUIRE(graph.ok());
    auto probs = r.declareOp({.graph = *graph, .type = "Softmax", .name = "probs"});
    auto labels = r.declareOp({.graph = *graph, .type = "Placeholder", .name = "labels"});
    const int logLine = __LINE__ + 1;
    auto log = r.declareOp({.graph = *graph, .type = "Log", .name = "Log", .inputs = {"probs"}});
    auto mul =
        r.declareOp({.graph = *graph, .type = "Mul", .name = "mul", .inputs = {"Log", "labels"}});
    REQUIRE((probs.ok() && labels.ok() && log.ok() && mul.ok()));
    const std::vector<std::int64_t> shape{2};
    auto trace = [&](const OpHandle& op, std::vector<float> values) {
        static std::deque<std::vector<float>> kept;
        kept.push_back(std::move(values));
        return r.recordTrace(op, 0,
                             {.data = kept.back().data(), .dtype = DType::Float32, .shape = shape});
    };
    for (int step = 0; step < 3; ++step) { // finite steps, then the bug
        CHECK(trace(*probs, {0.5f, 0.5f}).ok());
        CHECK(trace(*log, {-0.7f, -0.7f}).ok());
        CHECK(trace(*mul, {-0.7f, 0.0f}).ok());
    }
    CHECK(trace(*probs, {1.0f, 0.0f}).ok());
    CHECK(trace(*log, {0.0f, -kInf}).ok());
    const Status status = trace(*mul, {0.0f, kNaN});
    CHECK(status.code() == ErrorCode::NonFinite);
    const auto stop = r.nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "Log");
    CHECK(stop->origin.opName == "Log");
    CHECK(stop->origin.stack.back().line == logLine);
    REQUIRE(stop->stoppedAt);
    CHECK(stop->stoppedAt->opName == "mul");
    CHECK(contains(stop->message, "Log at "));
    CHECK(contains(stop->message, "which Mul (op mul) at "));
    REQUIRE(r.close().ok());
    CHECK(readEvents(dir.path(), "graph_execution_traces").size() == 12);
}

namespace {

struct Heard
{
    int calls = 0;
    std::string message;
};

extern "C" void onStop(const char* message, void* data)
{
    auto* heard = static_cast<Heard*>(data);
    ++heard->calls;
    heard->message = message;
}

} // namespace

TEST_CASE("the C interface stops with NANSCOPE_NONFINITE and calls back once", "[stop][c]")
{
    test::TempDir dir;
    const std::string root = dir.path().string();
    nanscope_options options;
    nanscope_options_init(&options);
    options.dump_root = root.c_str();
    options.tensor_debug_mode = NANSCOPE_FULL_HEALTH;
    nanscope_stop_options stop;
    nanscope_stop_options_init(&stop);
    CHECK(stop.stop_lag_events == 64);
    const char* expected[] = {"aten::log:-inf"};
    stop.expected_nonfinite = expected;
    stop.num_expected_nonfinite = 1;
    Heard heard;
    stop.on_stop = onStop;
    stop.user_data = &heard;
    nanscope_recorder* recorder = nullptr;
    REQUIRE(nanscope_open_stopping(&options, &stop, &recorder) == NANSCOPE_OK);
    const float values[] = {-kInf, kNaN};
    const std::int64_t shape[] = {1};
    const std::int64_t id = 1;
    nanscope_tensor inf{&values[0], NANSCOPE_FLOAT32, shape, 1};
    nanscope_tensor nan{&values[1], NANSCOPE_FLOAT32, shape, 1};
    const nanscope_location where{"train.c", 12, "step"};
    CHECK(nanscope_record_execution(recorder, "aten::log", nullptr, nullptr, 0, &id, &inf, 1,
                                    where) == NANSCOPE_OK);
    CHECK(nanscope_record_execution(recorder, "aten::sqrt", nullptr, nullptr, 0, &id, &nan, 1,
                                    where) == NANSCOPE_NONFINITE);
    CHECK(heard.calls == 1);
    CHECK(contains(heard.message, "aten::sqrt at "));
    CHECK(contains(heard.message, "train.c:12 (step)"));
    CHECK(std::string(nanscope_last_error()) == heard.message);
    CHECK(nanscope_record_execution(recorder, "aten::add", nullptr, nullptr, 0, &id, &nan, 1,
                                    where) == NANSCOPE_NONFINITE);
    CHECK(heard.calls == 1);
    CHECK(nanscope_close(recorder) == NANSCOPE_OK);
}

namespace {

// A loss scaler's step as PyTorch's recorder writes it: the loss multiplied by the scale (from
// GradScaler.scale, whose frame tells it before the first update names the scale), a backward
// product that overflows and a NaN made of it, the check (no outputs), the update.
struct ScaledStep
{
    std::int64_t grad = 0; // the gradient the check caught
    Status check;          // what recording the check returned
};

ScaledStep scaledStep(Recorder& recorder, Program& program, std::int64_t scale, bool fromScaler)
{
    const auto w = program.run("aten::mm", {}, {1.0f, 2.0f});
    const auto loss = program.run("aten::mse_loss", {w}, {3.0f});
    const std::int64_t scaled = recorder.newTensorId();
    const float value[1] = {196608.0f};
    const std::int64_t shape[1] = {1};
    ExecutionSpec mul{.opType = "aten::mul", .inputIds = {loss, scale}, .outputIds = {scaled}};
    mul.outputs.push_back({.data = value, .dtype = DType::Float32, .shape = shape});
    const std::vector<CodeLocation> stack = {
        {"/home/user/train.py", 40, "train"},
        {fromScaler ? "/usr/lib/python3/dist-packages/torch/amp/grad_scaler.py" : "/x/other.py",
         260, "scale"}};
    CHECK(recorder.recordExecution(mul, stack).ok());
    const auto gradAct = program.run("aten::mm", {scaled, w}, {kInf, 1.0f});
    const auto grad = program.run("aten::mul", {gradAct, w}, {kNaN, 1.0f});
    const auto found = program.run("aten::full", {}, {0.0f});
    ExecutionSpec check{.opType = "aten::_amp_foreach_non_finite_check_and_unscale_",
                        .inputIds = {grad, found, scale}};
    return {grad, recorder.recordExecution(check)};
}

// A stopping recorder with a loss scaler's scale made.
struct ScalingRun
{
    test::TempDir dir;
    std::unique_ptr<Recorder> recorder;
    std::optional<Program> program;
    std::int64_t scale = 0;

    ScalingRun()
    {
        auto opened = Recorder::open(stopping(dir.path()));
        REQUIRE(opened.ok());
        recorder = std::move(*opened);
        program.emplace(*recorder);
        scale = program->run("aten::full", {}, {65536.0f});
    }
    ScaledStep step(bool fromScaler = true)
    {
        return scaledStep(*recorder, *program, scale, fromScaler);
    }
};

} // namespace

TEST_CASE("overflows the loss scaler catches do not stop; the program's own NaN does",
          "[stop][lossscaling]")
{
    ScalingRun run;
    Program& program = *run.program;
    const auto growth = program.run("aten::full", {}, {0.0f});
    // Step 1: the scale is known by the frame of GradScaler.scale; then by the update.
    CHECK(run.step(true).check.ok());
    ExecutionSpec update{.opType = "aten::_amp_update_scale_", .inputIds = {run.scale, growth}};
    CHECK(run.recorder->recordExecution(update).ok());
    CHECK(run.step(false).check.ok());
    CHECK_FALSE(run.recorder->nonFiniteStop());

    const auto zeros = program.run("aten::zeros", {}, {0.0f});
    const auto logs = program.run("aten::log", {zeros}, {-kInf});
    Status status;
    program.run("aten::mul", {logs, zeros}, {kNaN}, &status);
    CHECK(status.code() == ErrorCode::NonFinite);
    const auto stop = run.recorder->nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "aten::log");
}

TEST_CASE("a step taken on what the loss scaler caught stops, naming the overflow",
          "[stop][lossscaling]")
{
    ScalingRun run;
    const ScaledStep step = run.step();
    CHECK(step.check.ok());
    Status status;
    run.program->run("aten::add_", {step.grad}, {kNaN, 1.0f}, &status); // the optimizer anyway
    CHECK(status.code() == ErrorCode::NonFinite);
    const auto stop = run.recorder->nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "aten::mm");
    CHECK(stop->origin.kinds == "+inf");
    REQUIRE(stop->stoppedAt);
    CHECK(stop->stoppedAt->opType == "aten::add_");
    CHECK(contains(stop->message, "after the loss scaler had caught it"));
}

TEST_CASE("without loss scaling, a backward overflow made NaN stops at once", "[stop][lossscaling]")
{
    ScalingRun run;
    Program& program = *run.program;
    Status status;
    const auto w = program.run("aten::mm", {}, {1.0f, 2.0f});
    const auto product = program.run("aten::mul", {w, run.scale}, {kInf, 1.0f}); // not scaler's
    program.run("aten::mul", {product, w}, {kNaN, 1.0f}, &status);
    CHECK(status.code() == ErrorCode::NonFinite);
    const auto stop = run.recorder->nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "aten::mul");
}

TEST_CASE("a loss scaler that catches something at every step stops after 32 steps",
          "[stop][lossscaling]")
{
    ScalingRun run;
    for (int step = 0; step < 31; ++step)
        CHECK(run.step().check.ok());
    // A clean check: the scaler recovered, and the count starts again.
    const auto w = run.program->run("aten::mm", {}, {1.0f, 2.0f});
    ExecutionSpec clean{.opType = "aten::_amp_foreach_non_finite_check_and_unscale_",
                        .inputIds = {w}};
    CHECK(run.recorder->recordExecution(clean).ok());
    for (int step = 0; step < 31; ++step)
        CHECK(run.step().check.ok());
    CHECK_FALSE(run.recorder->nonFiniteStop());
    CHECK(run.step().check.code() == ErrorCode::NonFinite);
    const auto stop = run.recorder->nonFiniteStop();
    REQUIRE(stop);
    CHECK(stop->origin.opType == "aten::mm");
    CHECK(stop->origin.kinds == "+inf");
    CHECK(contains(stop->message, "32 steps in a row"));
}
