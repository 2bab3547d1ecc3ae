// SPDX-License-Identifier: GPL-3.0-or-later
// RecordRing, the circular buffer that keeps traces unframed until they are written.
#include "recordring.hpp"
#include "tensorproto.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace nanscope;
using namespace nanscope::detail;

namespace {

std::shared_ptr<const wire::TraceFrame> frameFor(int i)
{
    return std::make_shared<const wire::TraceFrame>(wire::makeTraceFrame(
        "graph", "op_" + std::to_string(i), i % 3, TensorDebugMode::FullHealth, "/device:CPU:0"));
}

wire::TensorProto summaryOf(double value)
{
    wire::TensorProto payload;
    const std::vector<double> values = {value, -1.0, value * 2};
    setSummaryPayload(payload, values);
    return payload;
}

// The record the ring must give for trace i, framed here from copies of its parts.
std::string expectedTrace(int i)
{
    std::string record;
    wire::frameTrace(1000.0 + i, *frameFor(i), summaryOf(i), record);
    return record;
}

// Even records framed, odd ones traces kept as their parts.
void push(RecordRing& ring, int i)
{
    if (i % 2 == 0) {
        ring.pushFramed([i](std::string& slot) { slot = "framed " + std::to_string(i); });
        return;
    }
    wire::TensorProto payload = summaryOf(i);
    ring.pushTrace({.wallTime = 1000.0 + i, .frame = frameFor(i), .payload = &payload});
}

std::string expected(int i)
{
    return i % 2 == 0 ? "framed " + std::to_string(i) : expectedTrace(i);
}

std::vector<std::string> contents(const RecordRing& ring)
{
    std::vector<std::string> out;
    std::string scratch = "left over";
    for (std::size_t r = 0; r < ring.size(); ++r)
        out.emplace_back(ring[r].bytes(scratch));
    return out;
}

std::vector<std::string> expectedRange(int from, int to)
{
    std::vector<std::string> out;
    for (int i = from; i < to; ++i)
        out.push_back(expected(i));
    return out;
}

} // namespace

TEST_CASE("a record ring keeps its last records, oldest first, framed or not", "[ring]")
{
    RecordRing ring(4);
    CHECK(ring.empty());
    for (int i = 0; i < 3; ++i)
        push(ring, i);
    CHECK(contents(ring) == expectedRange(0, 3));
    // Full, then wrapped round twice: every entry has held both kinds of record.
    for (int i = 3; i < 13; ++i) {
        push(ring, i);
        INFO("after record " << i);
        CHECK(ring.size() == static_cast<std::size_t>(std::min(i + 1, 4)));
        CHECK(contents(ring) == expectedRange(std::max(0, i - 3), i + 1));
    }
}

TEST_CASE("a trace in a ring is the ring's: the caller's later changes do not reach it", "[ring]")
{
    RecordRing ring(2);
    wire::TensorProto payload = summaryOf(7);
    auto frame = frameFor(7);
    const std::weak_ptr<const wire::TraceFrame> watch = frame;
    ring.pushTrace({.wallTime = 1007.0, .frame = std::move(frame), .payload = &payload});
    // The caller reuses its payload for the next trace, and lets go of the op's frame.
    setSummaryPayload(payload, std::vector<double>{99.0, 99.0, 99.0});
    CHECK(!watch.expired());
    std::string scratch;
    CHECK(std::string(ring[0].bytes(scratch)) == expectedTrace(7));

    // Pushed out: the frame goes with its record.
    push(ring, 8);
    push(ring, 10);
    CHECK(watch.expired());
}

TEST_CASE("a ring's NO_TENSOR traces share the constant placeholder payload", "[ring]")
{
    RecordRing ring(3);
    for (int i = 0; i < 5; ++i)
        ring.pushTrace(
            {.wallTime = 1000.0 + i, .frame = frameFor(i), .constantPayload = &noTensorPayload()});
    std::string scratch;
    for (std::size_t r = 0; r < ring.size(); ++r) {
        const int i = static_cast<int>(r) + 2;
        std::string want;
        wire::TensorProto placeholder;
        setNoTensorPayload(placeholder);
        wire::frameTrace(1000.0 + i, *frameFor(i), placeholder, want);
        CHECK(std::string(ring[r].bytes(scratch)) == want);
    }
}

TEST_CASE("a ring gives its records up at once, as strings, and fills again", "[ring]")
{
    RecordRing ring(3);
    for (int i = 0; i < 5; ++i)
        push(ring, i);
    RecordRing taken = ring.takeAll();
    CHECK(ring.empty());
    REQUIRE(taken.size() == 3);
    for (std::size_t r = 0; r < taken.size(); ++r)
        CHECK(taken[r].take() == expected(static_cast<int>(r) + 2));

    for (int i = 5; i < 9; ++i)
        push(ring, i);
    CHECK(contents(ring) == expectedRange(6, 9));
}
