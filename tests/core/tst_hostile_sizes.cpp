// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile sizes: a million graphs, outer-context chains 100 000 deep, length fields that claim
// gigabytes, ops that claim two billion outputs, and the reader's memory limit. No crash, no
// hang, no allocation a length field alone decides, memory within the configured limit, and a
// clear diagnostic each time.
#include "childrun.hpp"
#include "decodedsize.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "nanscope/format/crc32c.hpp"
#include "nanscope/format/record.hpp"
#include "reportcommand.hpp"
#include "snapshotsearch.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace nanscope;
using namespace nanscope::core;
using test::FileSetWriter;
namespace ev = test::events;

namespace {

void appendVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

void appendBytesField(std::string& out, int field, std::string_view bytes)
{
    out += static_cast<char>((field << 3) | 2);
    appendVarint(out, bytes.size());
    out += bytes;
}

// The framed record of DebuggedGraph{graph_id, outer_context_id}, built without libprotobuf:
// a million of them are written in a fraction of a second.
void appendGraphRecord(std::string& out, const std::string& id, const std::string& outer)
{
    std::string graph;
    appendBytesField(graph, 1, id);
    if (!outer.empty())
        appendBytesField(graph, 6, outer);
    std::string event("\x09\x00\x00\x00\x00\x00\x00\xf0\x3f", 9); // wall_time 1.0
    appendBytesField(event, 8, graph);
    format::appendRecord(out, event);
}

std::string header(std::uint64_t length)
{
    std::string h(12, '\0');
    for (int i = 0; i < 8; ++i)
        h[i] = static_cast<char>((length >> (8 * i)) & 0xff);
    const std::uint32_t crc = format::maskCrc(format::crc32c(h.data(), 8));
    for (int i = 0; i < 4; ++i)
        h[8 + i] = static_cast<char>((crc >> (8 * i)) & 0xff);
    return h;
}

// Makes `file` `size` bytes long without writing them: a sparse file costs no disk.
void extendSparse(const std::filesystem::path& file, std::uint64_t size)
{
    const int fd = ::open(file.c_str(), O_WRONLY);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, static_cast<off_t>(size)) == 0);
    ::close(fd);
}

} // namespace

TEST_CASE("a million graphs", "[hostile][sizes]")
{
    test::TempDir dir;
    constexpr int kGraphs = 1'000'000;
    FileSetWriter set = test::emptyRun(dir.path());
    std::string bytes;
    bytes.reserve(std::size_t{kGraphs} * 40);
    for (int i = 0; i < kGraphs; ++i)
        appendGraphRecord(bytes, std::to_string(i), i > 0 ? "0" : "");
    set.appendBytes("graphs", bytes);
    set.append("graphs", ev::op("999999", "Log", "log", {}, {1}));
    set.append("graph_execution_traces",
               ev::trace(1.0, "999999", "log", 0, 4, ev::fullHealth(1, 4, 1, 0, 0, 0, 0, 3)));

    const auto start = std::chrono::steady_clock::now();
    const auto s = LogdirReader(dir.path()).update();
    REQUIRE(s->graphs().declaredGraphCount() == kGraphs);
    REQUIRE(s->origin());
    CHECK(s->origin()->graphName.empty());
    const std::string text = renderText(buildReport(*s));
    CHECK_THAT(text, Catch::Contains("1000000 graphs"));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    WARN("a million graphs read in " << seconds << " s");
    CHECK(s->diagnostics().empty());

    // Under a memory limit, reading stops among the graphs, and says so.
    const auto limited = LogdirReader(dir.path(), {.maxMemoryBytes = 64u << 20}).update();
    CHECK(limited->graphs().declaredGraphCount() < kGraphs);
    CHECK(limited->graphs().declaredGraphCount() > 10'000);
    const Diagnostic* d = test::findDiagnostic(*limited, Severity::Error, "memory limit of 64 MiB");
    REQUIRE(d != nullptr);
    CHECK_THAT(d->file, Catch::EndsWith(".graphs"));
}

TEST_CASE("outer-context chains 100 000 deep, and a cycle as long", "[hostile][sizes]")
{
    constexpr int kDepth = 100'000;
    test::TempDir dir;
    FileSetWriter set = test::emptyRun(dir.path());
    SECTION("a chain")
    {
        std::string bytes;
        for (int i = 0; i < kDepth; ++i)
            appendGraphRecord(bytes, "g" + std::to_string(i), i ? "g" + std::to_string(i - 1) : "");
        set.appendBytes("graphs", bytes);
        const std::string deepest = "g" + std::to_string(kDepth - 1);
        set.append("graphs", ev::op(deepest, "Placeholder", "x", {}, {1}));
        set.append("graphs", ev::op(deepest, "Log", "log", {"x:0"}, {2}));
        // Traces in the deepest graph, and a call of the outermost one that returns NaN.
        set.append("graph_execution_traces",
                   ev::trace(1.0, deepest, "x", 0, 4, ev::fullHealth(1, 4, 0, 0, 0, 0, 1, 3)));
        set.append("graph_execution_traces",
                   ev::trace(2.0, deepest, "log", 0, 4, ev::fullHealth(2, 4, 1, 0, 0, 0, 0, 3)));
        set.append("execution", ev::execution(3.0, "__inference_f_1", {}, {7}, 3,
                                              {ev::conciseHealth(-1, 4, 0, 0, 4)}, "g0"));
        const auto result = test::runInChild(60, [&] {
            const auto s = LogdirReader(dir.path()).update();
            if (!s->diagnostics().empty())
                return 1;
            const auto details = s->readTrace(1);
            if (!details || details->graphIds.size() != kDepth || details->graphIds[0] != "g0")
                return 2;
            if (!s->origin() || s->origin()->opName != "log")
                return 3;
            // The call's NaN came from the trace inside it, however deep.
            if (s->propagation().executionHops.at(0) == 0)
                return 4;
            return renderText(buildReport(*s)).empty() ? 5 : 0;
        });
        CHECK(result.code == 0);
        CHECK(result.signal == 0); // SIGALRM: too slow; SIGSEGV: the stack ran out
    }
    SECTION("a cycle")
    {
        std::string bytes;
        for (int i = 0; i < kDepth; ++i)
            appendGraphRecord(bytes, "g" + std::to_string(i),
                              "g" + std::to_string((i + kDepth - 1) % kDepth));
        set.appendBytes("graphs", bytes);
        set.append("graphs", ev::op("g5", "Log", "log", {}, {1}));
        set.append("graph_execution_traces",
                   ev::trace(1.0, "g5", "log", 0, 4, ev::fullHealth(1, 4, 1, 0, 0, 0, 0, 3)));
        const auto result = test::runInChild(60, [&] {
            const auto s = LogdirReader(dir.path()).update();
            if (!test::findDiagnostic(*s, Severity::Warning,
                                      "the outer context ids of 100000 graphs form a cycle"))
                return 1;
            const auto details = s->readTrace(0);
            if (!details || details->graphIds.size() != kDepth)
                return 2;
            (void)s->propagation();
            return renderText(buildReport(*s)).empty() ? 3 : 0;
        });
        CHECK(result.code == 0);
        CHECK(result.signal == 0);
    }
}

TEST_CASE("length fields that claim gigabytes are never allocated", "[hostile][sizes]")
{
    test::TempDir dir;
    test::writeSmallLogdir(dir.path());
    auto file = [&](const std::string& suffix) {
        for (const auto& e : std::filesystem::directory_iterator(dir.path()))
            if (e.path().extension() == "." + suffix)
                return e.path();
        FAIL("no ." << suffix);
        return std::filesystem::path();
    };
    SECTION("a trace record of 2 GiB in a sparse file")
    {
        const auto traces = file("graph_execution_traces");
        const auto size = std::filesystem::file_size(traces);
        test::appendBytes(traces, header(format::kMaxRecordPayload - 1));
        extendSparse(traces, size + format::kMaxRecordPayload + 64);
        const auto result = test::runInChild(60, [&] {
            const auto s = LogdirReader(dir.path(), {.maxMemoryBytes = 256u << 20}).update();
            const Diagnostic* d =
                test::findDiagnostic(*s, Severity::Error, "longer than the limit of 64 MiB");
            return s->traceCount() == 4 && d && d->offset == size ? 0 : 1;
        });
        CHECK(result.code == 0);
        CHECK(result.peakGrowthKiB < 100 * 1024);
    }
    SECTION("a metadata record of 2 GiB in a sparse file")
    {
        const auto metadata = file("metadata");
        test::writeBytes(metadata, header(format::kMaxRecordPayload - 1));
        extendSparse(metadata, format::kMaxRecordPayload + 64);
        const auto result = test::runInChild(60, [&] {
            const auto s = LogdirReader(dir.path()).update();
            return test::findDiagnostic(*s, Severity::Error, "longer than the reader's limit") ? 0
                                                                                               : 1;
        });
        CHECK(result.code == 0);
        CHECK(result.peakGrowthKiB < 100 * 1024);
    }
    SECTION("an op that claims two billion outputs, an input that names slot 999999999")
    {
        FileSetWriter set(dir.path());
        auto claims = ev::op("g", "Split", "split", {}, {});
        claims.mutable_graph_op_creation()->set_num_outputs(INT32_MAX);
        set.append("graphs", claims);
        set.append("graphs", ev::op("g", "Neg", "neg", {"split:999999999"}, {9}));
        set.append("graph_execution_traces",
                   ev::trace(9.0, "g", "split", 70000, 4, ev::fullHealth(1, 4, 1, 0, 0, 0, 0, 3)));
        auto execution =
            ev::execution(9.0, "Huge", {}, {1}, 3, {ev::conciseHealth(-1, 1, 1, 0, 0)});
        execution.mutable_execution()->set_num_outputs(INT32_MAX);
        set.append("execution", execution);
        const auto result = test::runInChild(60, [&] {
            const auto s = LogdirReader(dir.path()).update();
            if (!test::findDiagnostic(*s, Severity::Warning,
                                      "claims 2147483647 outputs; it is read as having 65536"))
                return 1;
            if (!test::findDiagnostic(*s, Severity::Warning,
                                      "1 op inputs name an output slot above 65535"))
                return 2;
            const auto e = s->readExecution(s->executionCount() - 1);
            if (!e || e->numOutputs != 65536)
                return 3;
            (void)s->origin();
            (void)s->propagation();
            return renderText(buildReport(*s)).empty() ? 4 : 0;
        });
        CHECK(result.code == 0);
        CHECK(result.peakGrowthKiB < 100 * 1024);
    }
    SECTION("a nested message whose length claims more than its record holds")
    {
        // DebuggedGraph claiming 2^31 bytes and holding a graph id that claims 60 MB, in a record
        // of a dozen bytes: libprotobuf reserved 50 MB for the id before finding it missing.
        std::string graph;
        graph += '\x0a'; // graph_id
        appendVarint(graph, 60'000'000);
        graph += "abc";
        std::string event;
        event += '\x42'; // debugged_graph
        appendVarint(event, std::uint64_t{1} << 31);
        event += graph;
        std::string record;
        format::appendRecord(record, event);
        test::appendBytes(file("graphs"), record);
        // Refused before libprotobuf sees it (the ASan build's fuzz replay of the event-index
        // corpus counts the heap; the reservation never touched a page, so RSS cannot show it).
        CHECK_FALSE(wellFormedEvent(event));
        CHECK_FALSE(wellFormedEvent(event.substr(0, 3)));
        CHECK(wellFormedEvent(ev::graph("g", "loss").SerializeAsString()));
        CHECK(wellFormedEvent(ev::op("g", "Log", "Log", {"x:0"}, {1}).SerializeAsString()));
        CHECK(wellFormedEvent(""));
        const auto s = LogdirReader(dir.path()).update();
        CHECK(s->graphs().findGraph("g")); // the file's other graphs are read
        CHECK(test::findDiagnostic(*s, Severity::Error, "not a valid DebugEvent"));
    }
}

TEST_CASE("the memory limit stops reading with a clear diagnostic", "[hostile][sizes]")
{
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    std::string bytes;
    constexpr int kTraces = 200'000;
    for (int i = 0; i < kTraces; ++i)
        bytes += test::framed(ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, false)));
    set.appendBytes("graph_execution_traces", bytes);

    LogdirReader reader(dir.path(), {.threads = 2, .maxMemoryBytes = 2u << 20});
    const auto s = reader.update();
    CHECK(s->traceCount() > 1000);
    CHECK(s->traceCount() < kTraces);
    CHECK(s->indexBytes() < 2u << 20);
    CHECK(s->complete()); // nothing more to read until the limit is raised: callers must not loop
    const Diagnostic* d =
        test::findDiagnostic(*s, Severity::Error, "the index reached the memory limit of 2 MiB");
    REQUIRE(d != nullptr);
    CHECK_THAT(d->file, Catch::EndsWith(".graph_execution_traces"));
    CHECK(reader.update()->traceCount() == s->traceCount());

    const auto limited = test::runReport("--max-memory 1 " + test::shellQuoted(dir.path()));
    CHECK(limited.status == 3); // not everything was read
    CHECK_THAT(limited.output, Catch::Contains("memory limit of 1 MiB"));
    CHECK(
        test::runReport("--allow-partial --max-memory 1 " + test::shellQuoted(dir.path())).status ==
        0);
    const auto unlimited = test::runReport("--json " + test::shellQuoted(dir.path()));
    CHECK_THAT(unlimited.output, Catch::Contains("\"graph_execution_traces\": 200000"));
}

namespace {

// DebugEvent{wall_time, <member>: body}, framed.
std::string framedEvent(int member, const std::string& body, double wallTime)
{
    std::string event(1, '\x09');
    event.append(reinterpret_cast<const char*>(&wallTime), 8);
    appendBytesField(event, member, body);
    std::string out;
    format::appendRecord(out, event); // never parsed here: that is what would take the memory
    return out;
}

// Records of a few megabytes that expand tens of times in memory once decoded.
std::string manyEmptyInputNames(std::size_t n)
{
    std::string op;
    appendBytesField(op, 1, "AddN");
    appendBytesField(op, 2, "amplified");
    appendBytesField(op, 4, "g");
    op.reserve(op.size() + 2 * n);
    for (std::size_t i = 0; i < n; ++i)
        op += std::string_view("\x32\x00", 2); // input_names: ""
    return op;
}

std::string manyEmptyTensorProtos(std::size_t n)
{
    std::string execution;
    appendBytesField(execution, 1, "Amplified");
    execution += std::string_view("\x30\x04", 2); // FULL_HEALTH
    execution.reserve(execution.size() + 2 * n);
    for (std::size_t i = 0; i < n; ++i)
        execution += std::string_view("\x3a\x00", 2); // tensor_protos: {}
    return execution;
}

std::string manyTensorIds(std::size_t n)
{
    std::string execution;
    appendBytesField(execution, 1, "Amplified");
    appendBytesField(execution, 4, std::string(n, '\x01')); // input_tensor_ids, packed: 1, 1, …
    return execution;
}

} // namespace

// A small record that would expand tens of times once decoded is refused before it is decoded,
// with a diagnostic, and reading goes on with the next record; peak memory stays within the
// limit. Without the bound these records took 40-60 times their size (a GraphOpCreation with
// 6 M empty input names: ~400 MB from 12 MB).
TEST_CASE("records that expand in memory are refused, and reading goes on", "[hostile][sizes]")
{
#if defined(__SANITIZE_THREAD__)
    constexpr long kMarginMiB = 64;
#else
    constexpr long kMarginMiB = 16;
#endif
    constexpr std::uint64_t kLimit = 64u << 20;  // its share per record: 16 MiB
    constexpr std::size_t kElements = 6'000'000; // 12 MB on disk, under the 16 MiB record limit
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    std::string kind;
    SECTION("a GraphOpCreation with millions of empty input names")
    {
        kind = "graphs";
        set.appendBytes("graphs", framedEvent(7, manyEmptyInputNames(kElements), 2.0));
    }
    SECTION("an Execution with millions of empty tensor protos")
    {
        kind = "execution";
        set.appendBytes("execution", framedEvent(9, manyEmptyTensorProtos(kElements), 2.0));
    }
    SECTION("an Execution with millions of one-byte tensor ids")
    {
        kind = "execution";
        set.appendBytes("execution", framedEvent(9, manyTensorIds(2 * kElements), 2.0));
    }
    // After it, records that must still be read: an op, an execution, and a NaN in a trace.
    set.append("graphs", ev::op("g", "Log", "log", {"r:0"}, {2}));
    set.append("execution",
               ev::execution(3.0, "Log", {1}, {2}, 3, {ev::conciseHealth(-1, 4, 0, 0, 1)}));
    set.append("graph_execution_traces",
               ev::trace(4.0, "g", "log", 0, 4, ev::fullHealth(2, 4, 1, 0, 0, 0, 0, 3)));

    const auto result = test::runInChild(60, [&] {
        const auto s = LogdirReader(dir.path(), {.maxMemoryBytes = kLimit}).update();
        const Diagnostic* d = test::findDiagnostic(
            *s, Severity::Error, "would take more than 16 MiB in memory once decoded");
        if (!d || !d->file.ends_with("." + kind))
            return 1;
        if (s->graphs().findOp("g", "log") == kNoOp || s->executionCount() != 1 ||
            s->traceCount() != 1)
            return 2;
        for (std::uint64_t i = 0; i < s->executionCount(); ++i)
            if (!s->readExecution(i))
                return 3;
        return s->tensorBoardAlertCount() == 2 ? 0 : 4;
    });
    CHECK(result.code == 0);
    CHECK(result.signal == 0);
    // The limit plus a fixed margin: the record's own bytes are read (12 MB), never decoded.
    // ThreadSanitizer keeps shadow memory for every byte touched, which the peak counts too.
    CHECK(result.peakGrowthKiB < static_cast<long>((kLimit >> 10) + kMarginMiB * 1024));
    WARN(kind << ": peak memory growth " << result.peakGrowthKiB / 1024 << " MiB");

    // The report says so, exits 3 (not everything was read), and still shows the alerts.
    const auto report = test::runReport("--max-memory 64 " + test::shellQuoted(dir.path()));
    CHECK(report.status == 3);
    CHECK_THAT(report.output, Catch::Contains("once decoded"));
    CHECK_THAT(report.output, Catch::Contains("log"));
}

// The memory stop ends reading, not the report: what was read before it, alerts included, is
// reported, and the exit status says that reading was incomplete.
TEST_CASE("after the memory stop, the alerts read before it are reported", "[hostile][sizes]")
{
    test::TempDir dir;
    FileSetWriter set = test::runWithOneOp(dir.path());
    std::string bytes;
    for (int i = 0; i < 10; ++i)
        bytes += test::framed(ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, true)));
    for (int i = 10; i < 200'000; ++i)
        bytes += test::framed(ev::trace(i, "g", "r", 0, 2, ev::curtHealth(1, false)));
    set.appendBytes("graph_execution_traces", bytes);

    const auto s = LogdirReader(dir.path(), {.maxMemoryBytes = 1u << 20}).update();
    REQUIRE(test::findDiagnostic(*s, Severity::Error, "memory limit of 1 MiB"));
    CHECK(s->alertCount() == 10);
    const auto report = test::runReport("--max-memory 1 " + test::shellQuoted(dir.path()));
    CHECK(report.status == 3);
    CHECK_THAT(report.output, Catch::Contains("10 InfNanAlert"));
    const auto json = test::runReport("--json --max-memory 1 " + test::shellQuoted(dir.path()));
    CHECK_THAT(json.output, Catch::Contains("\"total\": 10"));
    CHECK(
        test::runReport("--allow-partial --max-memory 1 " + test::shellQuoted(dir.path())).status ==
        1); // alerts
}

// The reader skips the walk over a record's fields when a bound from its length alone is within
// the limits; the bound must cover the walk's count for any bytes, the most amplifying shapes
// included, or a record could take more than its share.
TEST_CASE("the bound from a record's length covers its decoded size", "[hostile][sizes]")
{
    const auto& type = *tfdbg::DebugEvent::descriptor();
    auto check = [&](const std::string& framed) {
        const auto payload = std::string_view(framed).substr(
            format::kRecordHeaderSize, framed.size() - format::kRecordOverhead);
        const auto exact = decodedBytes(type, payload, UINT64_MAX);
        REQUIRE(exact);
        REQUIRE(*exact <= decodedEventBytesBound(payload.size()));
    };
    for (const std::size_t n : {0, 1, 2, 100, 10'000}) {
        check(framedEvent(7, manyEmptyInputNames(n), 2.0));
        check(framedEvent(9, manyEmptyTensorProtos(n), 2.0));
        check(framedEvent(9, manyTensorIds(n), 2.0));
    }
    // Every field number of every type a DebugEvent holds, empty, twice over (repeated or not),
    // nested one level: whatever costs most per byte is in there somewhere.
    std::string everything;
    for (int member = 1; member <= 12; ++member) {
        std::string body;
        for (int field = 1; field < 16; ++field) {
            appendBytesField(body, field, {});
            body += static_cast<char>(field << 3); // the same number as a varint 0
            body += '\0';
        }
        appendBytesField(everything, member, body);
    }
    std::string framed;
    format::appendRecord(framed, everything);
    check(framed);
    // And random bytes: the walk counts malformed input as far as it goes.
    std::uint32_t seed = 12345;
    for (int i = 0; i < 2000; ++i) {
        std::string bytes(static_cast<std::size_t>(i % 300), '\0');
        for (auto& c : bytes) {
            seed = seed * 1664525u + 1013904223u;
            c = static_cast<char>(seed >> 24);
        }
        const auto exact = decodedBytes(type, bytes, UINT64_MAX);
        REQUIRE(exact);
        REQUIRE(*exact <= decodedEventBytesBound(bytes.size()));
    }
}
