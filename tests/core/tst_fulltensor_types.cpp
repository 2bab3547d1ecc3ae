// SPDX-License-Identifier: GPL-3.0-or-later
// FULL_TENSOR values of every floating type TensorFlow defines: bfloat16, the float8 types and
// complex values are non-finite for NaNscope (health, alerts, origin, the report's exit status),
// while TensorBoard's counts and first alert stay TensorBoard's, which alerts on float16, float32
// and float64 values only.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "reportcommand.hpp"
#include "tensorproto.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <nlohmann/json.hpp>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = nanscope::test::events;
using test::runReport;
using test::shellQuoted;

namespace {

constexpr int kFullTensor = 7;

template <typename T>
tfdbg::TensorProto content(tfdbg::DataType dtype, const std::vector<T>& values)
{
    tfdbg::TensorProto t;
    t.set_dtype(dtype);
    t.mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    t.set_tensor_content(
        std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
    return t;
}

// The bytes PyTorch's recorder writes for a bfloat16 [NaN, +inf, -inf]: c07f 807f 80ff.
tfdbg::TensorProto bfloat16NonFinite()
{
    return content<std::uint16_t>(tfdbg::DT_BFLOAT16, {0x7fc0, 0x7f80, 0xff80});
}

TensorHealth healthOf(const tfdbg::TensorProto& t)
{
    std::string bytes;
    t.SerializeToString(&bytes);
    TensorProtoView view;
    REQUIRE(parseTensorProto(bytes, view));
    return fullTensorHealth(view);
}

TensorValue valueOf(const tfdbg::TensorProto& t)
{
    std::string bytes;
    t.SerializeToString(&bytes);
    TensorProtoView view;
    REQUIRE(parseTensorProto(bytes, view));
    return toTensorValue(view, 64);
}

void checkCounts(const TensorHealth& h, double negInf, double posInf, double nan)
{
    REQUIRE(h.known());
    CHECK(h.negativeInfinity == negInf);
    CHECK(h.positiveInfinity == posInf);
    CHECK(h.nan == nan);
    CHECK(h.nonFinite == (negInf + posInf + nan > 0));
}

} // namespace

TEST_CASE("FULL_TENSOR health of every floating type", "[tensor][dtype]")
{
    SECTION("bfloat16, as PyTorch records it")
    {
        const TensorHealth h = healthOf(bfloat16NonFinite());
        checkCounts(h, 1, 1, 1);
        const TensorValue v = valueOf(bfloat16NonFinite());
        REQUIRE(v.numeric);
        CHECK(std::isnan(v.values[0]));
        CHECK(v.values[1] == INFINITY);
        CHECK(v.values[2] == -INFINITY);
    }
    SECTION("float64")
    {
        checkCounts(healthOf(content<double>(tfdbg::DT_DOUBLE, {NAN, -INFINITY, 0.0, 2.0})), 1, 0,
                    1);
    }
    SECTION("float8_e5m2: IEEE-like, with infinities")
    {
        // +inf, -inf, NaN, 1.0, -0
        const auto t = content<std::uint8_t>(tfdbg::DT_FLOAT8_E5M2, {0x7c, 0xfc, 0x7e, 0x3c, 0x80});
        const TensorHealth h = healthOf(t);
        checkCounts(h, 1, 1, 1);
        CHECK(h.positiveFinite == 1);
        CHECK(h.zero == 1);
        const TensorValue v = valueOf(t);
        REQUIRE(v.numeric);
        CHECK(v.values[0] == INFINITY);
        CHECK(v.values[3] == 1.0);
    }
    SECTION("float8_e4m3fn: no infinities, NaN is S.1111.111")
    {
        // NaN, -NaN, 448 (the largest), -0, 1.0
        const auto t =
            content<std::uint8_t>(tfdbg::DT_FLOAT8_E4M3FN, {0x7f, 0xff, 0x7e, 0x80, 0x38});
        const TensorHealth h = healthOf(t);
        checkCounts(h, 0, 0, 2);
        CHECK(h.positiveFinite == 2);
        CHECK(h.zero == 1);
        const TensorValue v = valueOf(t);
        REQUIRE(v.numeric);
        CHECK(v.values[2] == 448.0);
        CHECK(v.values[4] == 1.0);
    }
    SECTION("the fnuz float8 types: NaN is the negative zero pattern, nothing else")
    {
        for (const auto dtype :
             {tfdbg::DT_FLOAT8_E4M3FNUZ, tfdbg::DT_FLOAT8_E4M3B11FNUZ, tfdbg::DT_FLOAT8_E5M2FNUZ}) {
            INFO(dtype);
            // NaN, 0, the largest negative, the largest positive
            const TensorHealth h = healthOf(content<std::uint8_t>(dtype, {0x80, 0x00, 0xff, 0x7f}));
            checkCounts(h, 0, 0, 1);
            CHECK(h.zero == 1);
            CHECK(h.negativeFinite == 1);
            CHECK(h.positiveFinite == 1);
        }
    }
    SECTION("complex64 and complex128: an element is NaN or infinite when a part is")
    {
        using C64 = std::complex<float>;
        const TensorHealth h = healthOf(content<C64>(
            tfdbg::DT_COMPLEX64, {C64(NAN, 0), C64(1, INFINITY), C64(-INFINITY, 1), C64(0, 0)}));
        checkCounts(h, 1, 1, 1);
        CHECK(h.size == 4);
        // As the recorder writes eager complex tensors: scomplex_val, the last element repeated.
        tfdbg::TensorProto typed;
        typed.set_dtype(tfdbg::DT_COMPLEX64);
        typed.mutable_tensor_shape()->add_dim()->set_size(3);
        for (const float part : {1.0f, 2.0f, 0.0f, NAN})
            typed.add_scomplex_val(part);
        checkCounts(healthOf(typed), 0, 0, 2);
        using C128 = std::complex<double>;
        checkCounts(healthOf(content<C128>(tfdbg::DT_COMPLEX128, {C128(1, 2), C128(0, NAN)})), 0, 0,
                    1);
    }
}

TEST_CASE("bfloat16 FULL_TENSOR executions: NaNscope's alerts, not TensorBoard's", "[report]")
{
    test::TempDir dir;
    const test::FileSetWriter set = test::emptyRun(dir.path());
    set.append("execution", ev::execution(2.0, "aten::ones", {}, {1}, kFullTensor,
                                          {content<float>(tfdbg::DT_FLOAT, {1.0f, 0.0f, -1.0f})}));
    set.append("execution",
               ev::execution(3.0, "aten::log", {1}, {2}, kFullTensor, {bfloat16NonFinite()}));

    LogdirReader reader(dir.path());
    const auto snapshot = reader.update();
    const Report r = buildReport(*snapshot);
    CHECK(r.alertTotal == 1);
    CHECK(r.countedAlerts == 1);
    CHECK(r.tensorBoardAlertTotal == 0);
    CHECK_FALSE(r.firstAlert);
    REQUIRE(r.origin);
    CHECK(r.origin->origin.opType == "aten::log");
    CHECK(snapshot->readHealth({EventSource::Eager, 1}, 0).nan == 1);
    CHECK_THAT(renderText(r), Catch::Contains("Alerts:       1 InfNanAlert"));

    const test::ReportRun run = runReport("--json --no-index-cache " + shellQuoted(dir.path()));
    INFO(run.output);
    CHECK(run.status == 1); // NaNscope found an alert that counts
    const auto j = nlohmann::json::parse(run.output);
    CHECK(j["alerts"]["total"] == 1);
    CHECK(j["alerts"]["counted"] == 1);
    CHECK(j["alerts"]["tensorboard_total"] == 0);
    CHECK(j["alerts"]["not_checked_by_tensorboard"] == 1);
    CHECK(j["tensorboard"]["alerts"] == 0);
    CHECK(j["first_alert"].is_null());
}

TEST_CASE("an execution with a float32 and a bfloat16 non-finite output", "[report]")
{
    test::TempDir dir;
    const test::FileSetWriter set = test::emptyRun(dir.path());
    set.append("execution",
               ev::execution(2.0, "aten::split", {}, {1, 2}, kFullTensor,
                             {bfloat16NonFinite(), content<float>(tfdbg::DT_FLOAT, {NAN})}));
    LogdirReader reader(dir.path());
    const Report r = buildReport(*reader.update());
    CHECK(r.alertTotal == 2);
    CHECK(r.tensorBoardAlertTotal == 1);
    REQUIRE(r.firstAlert);
    CHECK(r.firstAlert->alert.outputSlot == 1); // TensorBoard's: the float32 one
}

TEST_CASE("bfloat16 and float8 FULL_TENSOR graph traces", "[report]")
{
    test::TempDir dir;
    const test::FileSetWriter set = test::runWithOneOp(dir.path());
    set.append("graph_execution_traces",
               ev::trace(2.0, "g", "r", 0, kFullTensor, bfloat16NonFinite()));
    set.append("graph_execution_traces",
               ev::trace(3.0, "g", "r", 0, kFullTensor,
                         content<std::uint8_t>(tfdbg::DT_FLOAT8_E4M3FN, {0x7f})));
    set.append("graph_execution_traces",
               ev::trace(4.0, "g", "r", 0, kFullTensor, content<float>(tfdbg::DT_FLOAT, {NAN})));
    LogdirReader reader(dir.path());
    const auto snapshot = reader.update();
    const Report r = buildReport(*snapshot);
    CHECK(r.alertTotal == 3);
    CHECK(r.tensorBoardAlertTotal == 1);
    REQUIRE(r.firstAlert);
    CHECK(r.firstAlert->alert.event == EventRef{EventSource::Graph, 2});
    REQUIRE(r.origin);
    CHECK(r.origin->origin.event == EventRef{EventSource::Graph, 0});
    CHECK(snapshot->health({EventSource::Graph, 1}).has(health::NaN));
}
