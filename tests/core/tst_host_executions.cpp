// SPDX-License-Identifier: GPL-3.0-or-later
// The executions of hosts other than the first: TensorFlow's reader never reads them, so they are
// indexed apart (Snapshot::hostExecution) and every TensorFlow-compatible figure stays as it was;
// truncated, corrupt and growing files of those hosts are read like the first host's.
#include "hostlogdirs.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/report.hpp"
#include "nanscope/recorder.hpp"
#include "tempdir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iterator>

using namespace nanscope;
using namespace nanscope::core;

namespace {

// host-a records Exp (finite) and Log (-inf); host-b records Sqrt, Div (NaN) and Add, each from
// its own call site, so that its stack frames are in its own files only.
void writeTwoHosts(const std::filesystem::path& dir)
{
    REQUIRE(test::writeTwoHostExecutions(dir));
}

std::filesystem::path executionFile(const Snapshot& s, std::size_t host)
{
    return s.layout().fileSets[host].file(kExecutionSuffix);
}

std::string readAll(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::filesystem::path& path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool hasDiagnostic(const Snapshot& s, Severity severity, const std::filesystem::path& file,
                   const std::string& fragment)
{
    const auto& d = s.diagnostics();
    return std::any_of(d.begin(), d.end(), [&](const Diagnostic& x) {
        return x.severity == severity && x.file == file.string() &&
               x.message.find(fragment) != std::string::npos;
    });
}

} // namespace

TEST_CASE("every host's executions are indexed, and TensorFlow's figures are the first host's",
          "[reader][multihost]")
{
    test::TempDir dir;
    writeTwoHosts(dir.path());
    const auto s = LogdirReader(dir.path()).update();
    INFO(s->diagnostics().size());
    // Only that host-b's source files, frames and graphs are not read (Info): its executions'
    // frames are not looked up among host-a's.
    for (const auto& d : s->diagnostics()) {
        INFO(d.file << ": " << d.message);
        CHECK(d.severity == Severity::Info);
        CHECK(d.file.find(".execution") == std::string::npos);
    }
    REQUIRE(s->layout().fileSets.size() == 2);
    REQUIRE(s->layout().fileSets[1].hostName == "host-b");

    // TensorFlow's answer: host-a's two executions and its one alert.
    CHECK(s->executionCount() == 2);
    CHECK(s->tensorBoardExecutionCount() == 2);
    REQUIRE(s->alertCount() == 1);
    CHECK(s->alert(0).event == EventRef{EventSource::Eager, 1});
    CHECK(s->tensorBoardFirstAlert()->event == EventRef{EventSource::Eager, 1});
    REQUIRE(s->origin());
    CHECK(s->origin()->event == EventRef{EventSource::Eager, 1});

    // Per host.
    CHECK(s->hostExecutionCount(0) == 2);
    CHECK(s->hostExecutionCount(1) == 3);
    CHECK(s->hostExecutionCount(2) == 0);
    CHECK(s->hostExecution(0, 1).opType == "Log");
    const char* opsOfB[] = {"Sqrt", "Div", "Add"};
    for (std::uint64_t i = 0; i < 3; ++i)
        CHECK(s->hostExecution(1, i).opType == opsOfB[i]);
    CHECK(!s->hostExecution(1, 0).health.nonFinite());
    CHECK(s->hostExecution(1, 1).health.has(health::NaN));
    // Recorded in this order: a's Exp, b's Sqrt, a's Log, b's Div.
    CHECK(s->hostExecution(0, 0).wallTime <= s->hostExecution(1, 0).wallTime);
    CHECK(s->hostExecution(1, 0).wallTime <= s->hostExecution(0, 1).wallTime);
    CHECK(s->hostExecution(0, 1).wallTime <= s->hostExecution(1, 1).wallTime);

    const auto div = s->readHostExecution(1, 1);
    REQUIRE(div);
    CHECK(div->opType == "Div");
    CHECK(div->hostName == "host-b");
    CHECK(div->wallTime == s->hostExecution(1, 1).wallTime);
    REQUIRE(div->outputHealth.size() == 1);
    CHECK(div->outputHealth[0].nan == 1);
    CHECK(s->readHostExecution(0, 1)->opType == s->readExecution(1)->opType);
    CHECK(!s->readHostExecution(1, 3));
    CHECK(!s->readHostExecution(2, 0));

    // The report: totals as TensorFlow's, and each host's own count.
    const Report r = buildReport(*s);
    CHECK(r.counts.executions == 2);
    CHECK(r.alertTotal == 1);
    REQUIRE(r.firstAlert);
    CHECK(r.firstAlert->opType == "Log");
    REQUIRE(r.hosts.size() == 2);
    CHECK(r.hosts[0].executions == 2);
    CHECK(r.hosts[1].executions == 3);
    const std::string text = renderText(r);
    CHECK(text.find("2 executions, ") != std::string::npos); // Counts:
    CHECK(text.find("host-b  (") != std::string::npos);
    // Host b's NaN (its div) is counted where alerts, read from host a only, cannot show it.
    CHECK(r.hosts[1].nonFiniteExecutions == 1);
    CHECK(text.find(", 3 executions, 1 with NaN or ±inf; alerts and origin are read from the "
                    "first host only)") != std::string::npos);
}

TEST_CASE("another host's truncated execution file is read up to its last whole record, and on "
          "when it grows",
          "[reader][multihost]")
{
    test::TempDir dir;
    writeTwoHosts(dir.path());
    LogdirReader reader(dir.path());
    const auto whole = LogdirReader(dir.path()).update();
    const std::filesystem::path fileB = executionFile(*whole, 1);
    const std::string bytes = readAll(fileB);
    const std::uint64_t wholeIndexBytes = whole->indexBytes();

    // Cut in the middle of the last record, as a writer that is still writing leaves it.
    const std::uint64_t lastOffset = whole->hostExecution(1, 2).offset;
    writeAll(fileB, std::string_view(bytes).substr(0, lastOffset + 7));
    auto s = reader.update();
    CHECK(s->hostExecutionCount(1) == 2);
    CHECK(s->executionCount() == 2);
    CHECK(s->alertCount() == 1);
    CHECK(hasDiagnostic(*s, Severity::Info, fileB, "incomplete record at the end"));
    CHECK(s->indexBytes() < wholeIndexBytes);

    // The writer finishes the record: the next update reads only what was appended.
    writeAll(fileB, bytes);
    s = reader.update();
    CHECK(s->hostExecutionCount(1) == 3);
    CHECK(s->hostExecution(1, 2).opType == "Add");
    CHECK(s->diagnostics() == whole->diagnostics());
    CHECK(s->indexBytes() == wholeIndexBytes);
    CHECK(s->executionCount() == 2);
}

TEST_CASE("another host's corrupt execution record is skipped with the first host's diagnostic",
          "[reader][multihost]")
{
    test::TempDir dir;
    writeTwoHosts(dir.path());
    const auto whole = LogdirReader(dir.path()).update();
    const std::filesystem::path fileB = executionFile(*whole, 1);
    std::string bytes = readAll(fileB);
    // A payload byte of Div's record (after its 12-byte header): its payload CRC fails.
    const std::uint64_t div = whole->hostExecution(1, 1).offset;
    bytes[div + 14] = static_cast<char>(bytes[div + 14] ^ 0x5a);
    writeAll(fileB, bytes);

    const auto s = LogdirReader(dir.path()).update();
    REQUIRE(s->hostExecutionCount(1) == 2);
    CHECK(s->hostExecution(1, 0).opType == "Sqrt");
    CHECK(s->hostExecution(1, 1).opType == "Add");
    CHECK(hasDiagnostic(*s, Severity::Error, fileB, "corrupt data: bytes " + std::to_string(div)));
    // TensorFlow's figures are untouched: it reads nothing of host-b's executions.
    CHECK(s->executionCount() == 2);
    CHECK(s->tensorBoardExecutionCount() == 2);
    CHECK(s->tensorBoardStops().empty());
    CHECK(s->alertCount() == 1);
}

TEST_CASE("other hosts' executions count against the memory limit", "[reader][multihost]")
{
    // host-a: one execution; host-b: many, read after it.
    constexpr std::uint64_t kMany = 2000;
    test::TempDir dir;
    {
        auto a = test::openHost(dir.path(), "many", "host-a", TensorDebugMode::CurtHealth);
        REQUIRE(a.ok());
        auto b = test::openSecondHost(dir.path(), "many", "host-b", TensorDebugMode::CurtHealth);
        REQUIRE(b.ok());
        const std::int64_t shape[1] = {1};
        const float value[1] = {1.0F};
        for (std::uint64_t i = 0; i <= kMany; ++i) {
            Recorder& r = i == 0 ? **a : **b;
            REQUIRE(r.recordExecution({.opType = "Exp",
                                       .outputIds = {r.newTensorId()},
                                       .outputs = {{.data = value, .shape = shape}}})
                        .ok());
        }
        REQUIRE((*b)->close().ok());
        REQUIRE((*a)->close().ok());
    }
    const auto read = [&](std::uint64_t limit) {
        return LogdirReader(dir.path(), {.maxMemoryBytes = limit}).update();
    };
    const auto whole = read(64ULL << 20);
    REQUIRE(whole->hostExecutionCount(1) == kMany);
    // The smallest limit that holds all of host-b's executions.
    std::uint64_t low = 0;
    std::uint64_t high = 64ULL << 20;
    while (high - low > 1) {
        const std::uint64_t mid = low + (high - low) / 2;
        (read(mid)->hostExecutionCount(1) == kMany ? high : low) = mid;
    }
    // At half of it, reading stops partway through host-b's file (its executions take most of
    // the index), with the first host's diagnostic; host-a's execution was read first.
    const auto s = read(high / 2);
    CHECK(s->executionCount() == 1);
    CHECK(s->hostExecutionCount(1) > 0);
    CHECK(s->hostExecutionCount(1) < kMany * 3 / 4);
    CHECK(hasDiagnostic(*s, Severity::Error, executionFile(*s, 1), "the memory limit of"));
    CHECK(s->indexBytes() < whole->indexBytes());
}
