// SPDX-License-Identifier: GPL-3.0-or-later
// The hand-written protobuf decoding: tensors (content and typed fields), summary health and
// TensorBoard's alert rules.
#include "healthrules.hpp"
#include "logdirbuilder.hpp"
#include "recorddecoding.hpp"
#include "tensorproto.hpp"
#include "wirereader.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

using namespace nanscope;
using namespace nanscope::core;

namespace {

TensorProtoView view(const tfdbg::TensorProto& proto, std::string& storage)
{
    storage = proto.SerializeAsString();
    TensorProtoView v;
    REQUIRE(parseTensorProto(storage, v));
    return v;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

TEST_CASE("the wire reader rejects truncated and impossible fields", "[wire]")
{
    wire::Field f;
    {
        wire::Reader r(std::string_view("\x0a\x05"
                                        "ab",
                                        4)); // length 5, 2 bytes left
        CHECK_FALSE(r.next(f));
        CHECK(r.failed());
    }
    {
        const std::string bytes = "\x08" + std::string(11, '\xff');
        wire::Reader r(bytes);
        CHECK_FALSE(r.next(f)); // a varint longer than 10 bytes
        CHECK(r.failed());
    }
    {
        wire::Reader r(std::string_view("\x0b", 1)); // start group: not accepted
        CHECK_FALSE(r.next(f));
    }
    {
        wire::Reader r(std::string_view("\x09\x00\x00\x00\x00\x00\x00\xf8\x3f", 9));
        REQUIRE(r.next(f));
        CHECK(f.number == 1);
        CHECK(f.asDouble() == 1.5);
        CHECK(r.atEnd());
    }
}

TEST_CASE("summary vectors are read from tensor_content and from typed fields", "[tensor]")
{
    std::string bytes;
    double out[16];
    SECTION("float64 content")
    {
        const auto v = view(test::events::summary({7, 1000, 1, 0, 0}), bytes);
        CHECK(v.dtype == DType::Float64);
        CHECK(v.elementCount == 5);
        REQUIRE(readDoubles(v, out) == 5);
        CHECK(out[1] == 1000);
        CHECK(out[2] == 1);
    }
    SECTION("double_val with TensorFlow's fill rule")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_DOUBLE);
        t.mutable_tensor_shape()->add_dim()->set_size(4);
        t.add_double_val(2.5);
        t.add_double_val(3.5);
        const auto v = view(t, bytes);
        REQUIRE(readDoubles(v, out) == 4);
        CHECK(out[0] == 2.5);
        CHECK(out[3] == 3.5); // the last value repeats
    }
    SECTION("an empty typed field means zeros")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_DOUBLE);
        t.mutable_tensor_shape()->add_dim()->set_size(3);
        const auto v = view(t, bytes);
        REQUIRE(readDoubles(v, out) == 3);
        CHECK(out[2] == 0);
    }
    SECTION("content of the wrong size does not parse")
    {
        auto t = test::events::summary({1, 2, 3});
        t.mutable_tensor_shape()->mutable_dim(0)->set_size(4);
        const auto v = view(t, bytes);
        CHECK(readDoubles(v, out) == -1);
    }
    SECTION("NO_TENSOR's empty float32 placeholder has no values")
    {
        const auto v = view(test::events::noTensor(), bytes);
        CHECK(readDoubles(v, out) == 0);
    }
    SECTION("an empty TensorProto (dtype 0) does not parse")
    {
        const auto v = view(tfdbg::TensorProto{}, bytes);
        CHECK(readDoubles(v, out) == -1);
    }
}

TEST_CASE("full tensors are counted by class, float16 and bfloat16 included", "[tensor]")
{
    std::string bytes;
    SECTION("float32 content")
    {
        const auto v =
            view(test::events::floatContent({0.0f, -1.0f, 2.0f, -INFINITY, NAN, NAN}), bytes);
        const TensorHealth h = fullTensorHealth(v);
        REQUIRE(h.detail == TensorHealth::Detail::Full);
        CHECK(h.size == 6);
        CHECK(h.zero == 1);
        CHECK(h.negativeFinite == 1);
        CHECK(h.positiveFinite == 1);
        CHECK(h.negativeInfinity == 1);
        CHECK(h.nan == 2);
        CHECK(h.nonFinite);
    }
    SECTION("float_val with fill: the last value counts for the missing elements")
    {
        const auto v = view(test::events::floatTyped({1.0f, INFINITY}, 5), bytes);
        const TensorHealth h = fullTensorHealth(v);
        CHECK(h.positiveInfinity == 4);
        CHECK(h.positiveFinite == 1);
    }
    SECTION("float16 bit patterns")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_HALF);
        t.mutable_tensor_shape()->add_dim()->set_size(4);
        const std::uint16_t halves[] = {0x7c00, 0xfc00, 0x7e00, 0x8000}; // +inf -inf NaN -0
        t.set_tensor_content(std::string(reinterpret_cast<const char*>(halves), 8));
        const TensorHealth h = fullTensorHealth(view(t, bytes));
        CHECK(h.positiveInfinity == 1);
        CHECK(h.negativeInfinity == 1);
        CHECK(h.nan == 1);
        CHECK(h.zero == 1);
        Alert a;
        CHECK(fullTensorAlert(h, a));
        CHECK(a.counts == Alert::Counts::Integer);
    }
    SECTION("bfloat16 is non-finite for NaNscope but raises no TensorBoard alert")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_BFLOAT16);
        t.mutable_tensor_shape()->add_dim()->set_size(2);
        const std::uint16_t values[] = {0x7fc0, 0x3f80}; // NaN, 1.0
        t.set_tensor_content(std::string(reinterpret_cast<const char*>(values), 4));
        const TensorHealth h = fullTensorHealth(view(t, bytes));
        CHECK(h.nan == 1);
        CHECK(h.positiveFinite == 1);
        Alert a;
        CHECK_FALSE(fullTensorAlert(h, a));
    }
    SECTION("integers and empty tensors have no health")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_INT32);
        t.mutable_tensor_shape()->add_dim()->set_size(1);
        t.add_int_val(3);
        CHECK_FALSE(fullTensorHealth(view(t, bytes)).known());
        CHECK_FALSE(fullTensorHealth(view(test::events::floatContent({}), bytes)).known());
    }
}

TEST_CASE("summary health and TensorBoard's InfNan rules per mode", "[alerts]")
{
    Alert a;
    bool malformed = false;
    SECTION("CURT_HEALTH: a flag only, null counts")
    {
        const double v[] = {5, 1};
        const auto h = healthFromSummary(DebugMode::CurtHealth, v, std::size(v), malformed);
        CHECK(h.detail == TensorHealth::Detail::Flag);
        CHECK(h.nonFinite);
        REQUIRE(summaryAlert(DebugMode::CurtHealth, v, a));
        CHECK(a.counts == Alert::Counts::None);
    }
    SECTION("CONCISE_HEALTH: slots 1 to 4")
    {
        const double v[] = {7, 1000, 1, 0, 0};
        const auto h = healthFromSummary(DebugMode::ConciseHealth, v, std::size(v), malformed);
        CHECK(h.describe() == "1000 elements: 1 -inf, 999 finite");
        REQUIRE(summaryAlert(DebugMode::ConciseHealth, v, a));
        CHECK(a.size == 1000);
        CHECK(a.negativeInfinity == 1);
    }
    SECTION("FULL_HEALTH: slots 4 to 10")
    {
        const double v[] = {3, -1, 1, 2, 1000, 0, 0, 0, 0, 1, 999};
        const auto h = healthFromSummary(DebugMode::FullHealth, v, std::size(v), malformed);
        CHECK_FALSE(malformed);
        CHECK(h.known());
        CHECK_FALSE(h.nonFinite);
        CHECK(h.describe() == "1000 elements: 1 zero, 999 positive");
        CHECK_FALSE(summaryAlert(DebugMode::FullHealth, v, a));
        const double bad[] = {3, -1, 1, 2, 1000, 0, 0, 2, 0, 0, 998};
        REQUIRE(summaryAlert(DebugMode::FullHealth, bad, a));
        CHECK(a.nan == 2);
        CHECK(a.counts == Alert::Counts::Float);
    }
    SECTION("SHAPE and NO_TENSOR never alert")
    {
        const double v[] = {1, 1, 1, 4, 4, 0, 0, 0, 0, 0};
        CHECK_FALSE(summaryAlert(DebugMode::Shape, v, a));
        CHECK_FALSE(healthFromSummary(DebugMode::Shape, v, std::size(v), malformed).known());
    }
    SECTION("a vector too short for its mode is malformed, not an alert")
    {
        const double v[] = {1, 10, 1};
        CHECK_FALSE(
            healthFromSummary(DebugMode::ConciseHealth, v, std::size(v), malformed).known());
        CHECK(malformed);
        CHECK_FALSE(summaryAlert(DebugMode::ConciseHealth, v, a));
    }
    SECTION("NaN counts in a summary count as non-zero, as in Python")
    {
        const double v[] = {1, 10, 0, 0, kNaN};
        CHECK(summaryAlert(DebugMode::ConciseHealth, v, a));
    }
    (void)kInf;
}

TEST_CASE("the trace decoder reads what the index keeps", "[wire]")
{
    const auto event = test::events::trace(1700000000.25, "G", "Log", 2, 4,
                                           test::events::fullHealth(3, 8, 1, 0, 0, 0, 2, 5));
    const std::string payload = event.SerializeAsString();
    DecodedTrace t;
    REQUIRE(decodeTrace(payload, t) == DecodeStatus::Ok);
    CHECK(t.wallTime == 1700000000.25);
    CHECK(t.graphId == "G");
    CHECK(t.opName == "Log");
    CHECK(t.outputSlot == 2);
    CHECK(t.mode == DebugMode::FullHealth);
    CHECK(t.health.negativeInfinity == 1);
    CHECK(t.health.zero == 2);
    CHECK(t.alerts);

    const std::string graph = test::events::graph("g", "n").SerializeAsString();
    CHECK(decodeTrace(graph, t) == DecodeStatus::OtherKind);
    CHECK(decodeTrace(std::string_view("\x52\x7f", 2), t) == DecodeStatus::Malformed);
    // Every prefix of a valid payload is handled without reading past it.
    for (std::size_t n = 0; n < payload.size(); ++n)
        (void)decodeTrace(std::string_view(payload.data(), n), t);
}

TEST_CASE("the execution decoder keeps ids, per-output health and alerts", "[wire]")
{
    using namespace test::events;
    auto event = execution(
        5.0, "Log", {11, 12}, {13, 14}, 3,
        {conciseHealth(-1, 4, 0, 0, 0), tfdbg::TensorProto{}, conciseHealth(-1, 4, 0, 1, 0)});
    const std::string payload = event.SerializeAsString();
    DecodedExecution e;
    REQUIRE(decodeExecution(payload, e) == DecodeStatus::Ok);
    CHECK(e.opType == "Log");
    CHECK(e.inputIds == std::vector<std::int64_t>{11, 12});
    CHECK(e.outputIds == std::vector<std::int64_t>{13, 14});
    REQUIRE(e.outputHealth.size() == 3);
    CHECK(e.outputHealth[0].digest().finite());
    CHECK_FALSE(e.outputHealth[1].known()); // the empty placeholder
    REQUIRE(e.alerts.size() == 1);
    CHECK(e.alerts[0].outputSlot == 2);
    CHECK(e.alerts[0].positiveInfinity == 1);
}

TEST_CASE("the envelope: wall time and the last oneof member, strict for the decoders", "[wire]")
{
    using namespace test::events;
    const tfdbg::DebugEvent traceMessage =
        trace(3.5, "G", "Log", 0, 4, fullHealth(1, 2, 0, 0, 0, 0, 1, 1));
    const std::string traceEvent = traceMessage.SerializeAsString();
    const std::string executionEvent =
        execution(4.5, "Exp", {1}, {2}, 3, {conciseHealth(-1, 2, 0, 0, 0)}).SerializeAsString();
    const std::string graphEvent = graph("g", "n").SerializeAsString();
    DecodedTrace t;
    DecodedExecution e;
    EventKind kind;

    SECTION("each decoder takes the wall time of its own kind")
    {
        REQUIRE(decodeExecution(executionEvent, e) == DecodeStatus::Ok);
        CHECK(e.wallTime == 4.5);
        CHECK(decodeExecution(traceEvent, e) == DecodeStatus::OtherKind);
        CHECK(decodeTrace(executionEvent, t) == DecodeStatus::OtherKind);
        REQUIRE(peekEvent(traceEvent, kind));
        CHECK(kind.wallTime == 3.5);
        CHECK(kind.member == event::GraphExecutionTrace);
        CHECK(kind.body == traceMessage.graph_execution_trace().SerializeAsString());
        REQUIRE(peekEvent(executionEvent, kind));
        CHECK(kind.member == event::Execution);
    }
    SECTION("merged messages: the last oneof member on the wire wins")
    {
        CHECK(decodeTrace(traceEvent + graphEvent, t) == DecodeStatus::OtherKind);
        CHECK(decodeTrace(graphEvent + traceEvent, t) == DecodeStatus::Ok);
        CHECK(decodeExecution(executionEvent + traceEvent, e) == DecodeStatus::OtherKind);
        CHECK(decodeExecution(traceEvent + executionEvent, e) == DecodeStatus::Ok);
        REQUIRE(peekEvent(traceEvent + graphEvent, kind));
        CHECK(kind.member == event::DebuggedGraph);
        // Another member of the wrong wire type still takes the oneof; field 5 is not a member.
        CHECK(decodeTrace(traceEvent + std::string("\x40\x01", 2), t) == DecodeStatus::OtherKind);
        CHECK(decodeTrace(traceEvent + std::string("\x28\x01", 2), t) == DecodeStatus::Ok);
    }
    SECTION("no member at all")
    {
        const std::string wallTimeOnly = std::string("\x09", 1) + std::string(8, '\0');
        CHECK(decodeTrace(wallTimeOnly, t) == DecodeStatus::OtherKind);
        CHECK(decodeExecution("", e) == DecodeStatus::OtherKind);
        REQUIRE(peekEvent(wallTimeOnly, kind));
        CHECK(kind.member == 0);
        CHECK(kind.body.empty());
    }
    SECTION("a wall time that is not a double: malformed for the decoders, skipped by peekEvent")
    {
        const std::string varintTime = std::string("\x08\x05", 2);
        CHECK(decodeTrace(varintTime + traceEvent, t) == DecodeStatus::Malformed);
        CHECK(decodeExecution(executionEvent + varintTime, e) == DecodeStatus::Malformed);
        REQUIRE(peekEvent(traceEvent + varintTime, kind));
        CHECK(kind.wallTime == 3.5);
        CHECK(kind.member == event::GraphExecutionTrace);
    }
    SECTION("the decoder's own member not length-delimited is malformed, wherever it is")
    {
        const std::string varintTrace("\x50\x01", 2);
        const std::string varintExecution("\x48\x01", 2);
        CHECK(decodeTrace(varintTrace + graphEvent, t) == DecodeStatus::Malformed);
        CHECK(decodeTrace(traceEvent + varintTrace, t) == DecodeStatus::Malformed);
        CHECK(decodeExecution(varintExecution + executionEvent, e) == DecodeStatus::Malformed);
        // Not the decoder's kind: another decoder's member of the wrong type only takes the oneof.
        CHECK(decodeExecution(executionEvent + varintTrace, e) == DecodeStatus::OtherKind);
        REQUIRE(peekEvent(graphEvent + varintTrace, kind));
        CHECK(kind.member == event::GraphExecutionTrace);
    }
    SECTION("broken wire bytes are malformed for all three")
    {
        const std::string truncated = traceEvent.substr(0, traceEvent.size() - 1);
        CHECK(decodeTrace(truncated, t) == DecodeStatus::Malformed);
        CHECK(decodeExecution(truncated, e) == DecodeStatus::Malformed);
        CHECK_FALSE(peekEvent(truncated, kind));
        CHECK_FALSE(peekEvent(std::string_view("\x00", 1), kind)); // field number 0
    }
}

TEST_CASE("the decoders survive random mutations of valid records", "[wire][robustness]")
{
    using namespace test::events;
    const std::vector<std::string> seeds = {
        trace(1.0, "graph", "op", 3, 4, fullHealth(1, 8, 1, 0, 0, 2, 3, 2)).SerializeAsString(),
        trace(1.0, "graph", "op", 0, 7, floatTyped({1.0f, NAN}, 7)).SerializeAsString(),
        execution(2.0, "Exp", {1, 2}, {3}, 3, {conciseHealth(-1, 4, 0, 1, 0), tfdbg::TensorProto{}})
            .SerializeAsString(),
        execution(2.0, "Exp", {}, {3}, 7, {floatContent({1, 2, 3})}).SerializeAsString(),
    };
    std::mt19937 random(1234);
    std::uint64_t decoded = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string bytes = seeds[i % seeds.size()];
        const int edits = 1 + static_cast<int>(random() % 4);
        for (int k = 0; k < edits && !bytes.empty(); ++k) {
            switch (random() % 3) {
            case 0:
                bytes[random() % bytes.size()] = static_cast<char>(random());
                break;
            case 1:
                bytes.resize(random() % bytes.size());
                break;
            default:
                bytes.insert(random() % (bytes.size() + 1), 1, static_cast<char>(random()));
                break;
            }
        }
        DecodedTrace t;
        DecodedExecution e;
        decoded += decodeTrace(bytes, t) == DecodeStatus::Ok;
        decoded += decodeExecution(bytes, e) == DecodeStatus::Ok;
        TensorProtoView v;
        if (parseTensorProto(bytes, v)) {
            std::vector<double> values;
            (void)readAllDoubles(v, values, nullptr);
            (void)fullTensorHealth(v);
            (void)dimensions(v);
        }
    }
    CHECK(decoded > 0); // some mutations keep the record valid
}

TEST_CASE("a FULL_HEALTH trace decodes to what the general summary rules say", "[wire]")
{
    // The trace decoder reads TensorFlow's own FULL_HEALTH vectors in one step; the general rules
    // (healthFromSummary, summaryAlert) are the reference for every vector, valid or not.
    const double kInf = std::numeric_limits<double>::infinity();
    const double kNaN = std::numeric_limits<double>::quiet_NaN();
    const double big = 1125899906842624.0; // 2^50, where the one-step path hands over
    std::vector<std::vector<double>> vectors = {
        {1, -1, 1, 2, 10, 0, 0, 0, 3, 3, 4},            // finite
        {1, -1, 1, 2, 10, 1, 2, 3, 1, 1, 2},            // every non-finite kind
        {1, -1, 1, 2, 0, 0, 0, 0, 0, 0, 0},             // empty
        {1, -1, 1, 2, 10, 0, 0, 0, 3, 3, 5},            // counts that do not add up
        {1, -1, 1, 2, 10, 0, 0, 0.5, 3, 3, 3.5},        // a fraction
        {1, -1, 1, 2, 10, 0, -1, 0, 4, 3, 4},           // a negative count
        {1, -1, 1, 2, kNaN, 0, 0, 0, 3, 3, 4},          // NaN for a count
        {1, -1, 1, 2, 10, kInf, 0, 0, 3, 3, 4},         // infinity for a count
        {1, -1, -1, 2, 10, 0, 0, 0, 3, 3, 4},           // a negative dtype
        {1, -1, 1, 3e9, 10, 0, 0, 0, 3, 3, 4},          // a rank no int holds
        {1, -1, 5e9, 2, 10, 0, 0, 0, 3, 3, 4},          // a dtype no int holds
        {1, -1, 1, 2, big, 0, 0, 0, 0, 0, big},         // counts of 2^50 and more
        {1, -1, 1, 2, 3 * big, big, 0, 0, 0, big, big}, // adding up above 2^50
        {1, -1, 1, 2, 9007199254740992.0, 0, 0, 0, 0, 0, 9007199254740992.0}, // 2^53
        {1, -1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 7},                                // twelve values
        {1, -1, 1, 2, 1, 0, 0, 0, 0, 1},                                      // ten values
    };
    std::mt19937 rng(5);
    for (int i = 0; i < 200; ++i) {
        std::vector<double> v = {1, -1, 1, 2, 0, 0, 0, 0, 0, 0, 0};
        for (std::size_t k = 5; k < 11; ++k)
            v[k] = static_cast<double>(rng() % 4);
        for (std::size_t k = 5; k < 11; ++k)
            v[4] += v[k];
        if (rng() % 3 == 0)
            v[4 + rng() % 7] += rng() % 2 ? 1 : -1; // off by one somewhere
        vectors.push_back(v);
    }
    for (const auto& v : vectors) {
        CAPTURE(v);
        const std::string payload =
            test::events::trace(1.0, "G", "Op", 0, 4, test::events::summary(v)).SerializeAsString();
        DecodedTrace t;
        REQUIRE(decodeTrace(payload, t) == DecodeStatus::Ok);
        bool malformed = false;
        const TensorHealth expected =
            healthFromSummary(DebugMode::FullHealth, v, v.size(), malformed);
        Alert alert;
        const bool alerts = summaryAlert(DebugMode::FullHealth, v, alert);
        CHECK(t.malformedSummary == malformed);
        CHECK(t.health.detail == expected.detail);
        CHECK(t.health.dtype == expected.dtype);
        CHECK(t.health.rank == expected.rank);
        CHECK(t.health.invalid == expected.invalid);
        CHECK(t.health.digest().bits == expected.digest().bits);
        CHECK(t.health.describe() == expected.describe());
        CHECK(t.alerts == alerts);
        CHECK(t.alert.invalidSummary == !expected.invalid.empty());
        if (alerts) {
            CHECK(t.alert.counts == alert.counts);
            CHECK(t.alert.size == alert.size);
            CHECK(t.alert.negativeInfinity == alert.negativeInfinity);
            CHECK(t.alert.positiveInfinity == alert.positiveInfinity);
            CHECK(std::isnan(t.alert.nan) == std::isnan(alert.nan));
        }
    }
}

TEST_CASE("FULL_HEALTH validity is the exact rule for counts of every size", "[wire]")
{
    // The reference: dtype, rank and the six counts are exact counts, and the six add up to the
    // element count, in integers.
    const auto reference = [](const std::vector<double>& v) {
        std::uint64_t classes = 0;
        for (std::size_t k = 2; k < 11; ++k)
            if (!exactCount(v[k]))
                return false;
        for (std::size_t k = 5; k < 11; ++k)
            classes += *exactCount(v[k]);
        return classes == *exactCount(v[4]);
    };
    std::mt19937_64 rng(11);
    const double scales[] = {4, 1e6, 1125899906842624.0, 4503599627370496.0, 9007199254740992.0};
    for (int i = 0; i < 5000; ++i) {
        const double scale = scales[rng() % std::size(scales)];
        std::vector<double> v(11, 0.0);
        for (std::size_t k = 2; k < 11; ++k)
            v[k] = std::floor(static_cast<double>(rng() % 1000) / 1000 * scale);
        v[4] = v[5] + v[6] + v[7] + v[8] + v[9] + v[10];
        switch (rng() % 5) {
        case 0:
            v[4 + rng() % 7] += 1;
            break;
        case 1:
            v[2 + rng() % 9] = -v[2 + rng() % 9] - 1;
            break;
        case 2:
            v[2 + rng() % 9] += 0.5;
            break;
        default:
            break;
        }
        CAPTURE(v);
        CHECK(fullHealthIsValid(v) == reference(v));
    }
}
