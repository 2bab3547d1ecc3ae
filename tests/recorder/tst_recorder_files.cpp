// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a logdir: the six files, their names and the metadata record.
#include "logdirfixture.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <vector>

using namespace nanscope;
using test::readEvents;

TEST_CASE("open creates the six files of one file set, named as TensorFlow names them", "[files]")
{
    test::TempDir dir;
    const auto root = dir.path() / "nested" / "logdir";
    auto recorder = Recorder::open({.dumpRoot = root, .hostName = "worker-0.example"});
    REQUIRE(recorder.ok());

    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(root))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    REQUIRE(names.size() == 6);
    const std::regex pattern(R"(tfdbg_events\.(\d{10})\.worker-0\.example\.([a-z_]+))");
    std::vector<std::string> suffixes;
    std::string stamp;
    for (const auto& name : names) {
        std::smatch m;
        INFO(name);
        REQUIRE(std::regex_match(name, m, pattern));
        if (stamp.empty())
            stamp = m[1];
        CHECK(m[1] == stamp);
        suffixes.push_back(m[2]);
    }
    CHECK(suffixes == std::vector<std::string>{"execution", "graph_execution_traces", "graphs",
                                               "metadata", "source_files", "stack_frames"});
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    CHECK(std::abs(std::stoll(stamp) - now) < 60);
    CHECK((*recorder)->filePrefix().filename().string() ==
          "tfdbg_events." + stamp + ".worker-0.example");
}

TEST_CASE("the metadata record is written and synced at open", "[files]")
{
    test::TempDir dir;
    auto recorder = Recorder::open({.dumpRoot = dir.path(), .runId = "run-1234"});
    REQUIRE(recorder.ok());
    // Read while the recorder is still open: nothing else has been flushed.
    const auto events = readEvents(dir.path(), "metadata");
    REQUIRE(events.size() == 1);
    const auto& m = events[0].debug_metadata();
    CHECK(events[0].has_debug_metadata());
    CHECK(m.file_version() == "debug.Event:1");
    CHECK(m.tfdbg_run_id() == "run-1234");
    CHECK(m.tensorflow_version() == std::string(recorderVersion()));
    CHECK(m.tensorflow_version().starts_with("NaNscope "));
    CHECK(events[0].wall_time() > 1.6e9);
    for (const char* suffix :
         {"source_files", "stack_frames", "graphs", "execution", "graph_execution_traces"})
        CHECK(std::filesystem::file_size(test::findFile(dir.path(), suffix)) == 0);
}

TEST_CASE("a run id is generated when none is given", "[files]")
{
    test::TempDir a, b;
    auto first = Recorder::open({.dumpRoot = a.path()});
    auto second = Recorder::open({.dumpRoot = b.path()});
    REQUIRE(first.ok());
    REQUIRE(second.ok());
    CHECK(std::regex_match((*first)->runId(), std::regex("[0-9a-f]{8}")));
    CHECK((*first)->runId() != (*second)->runId());
    CHECK(readEvents(a.path(), "metadata")[0].debug_metadata().tfdbg_run_id() == (*first)->runId());
}

TEST_CASE("bad options are refused with a clear error", "[files][errors]")
{
    test::TempDir dir;
    SECTION("an empty dump root")
    {
        auto r = Recorder::open({});
        REQUIRE_FALSE(r.ok());
        CHECK(r.status().code() == ErrorCode::InvalidArgument);
    }
    SECTION("the dump root is a file")
    {
        const auto file = dir.path() / "plain-file";
        std::ofstream(file) << "not a directory";
        auto r = Recorder::open({.dumpRoot = file});
        REQUIRE_FALSE(r.ok());
        CHECK(r.status().code() == ErrorCode::IoError);
        CHECK(r.status().message().find("not a directory") != std::string::npos);
        CHECK(std::filesystem::file_size(file) == 15); // untouched
    }
    SECTION("a component of the dump root is a file")
    {
        std::ofstream(dir.path() / "f") << "x";
        auto r = Recorder::open({.dumpRoot = dir.path() / "f" / "logdir"});
        REQUIRE_FALSE(r.ok());
        CHECK(r.status().code() == ErrorCode::IoError);
    }
    SECTION("an unknown mode")
    {
        auto r = Recorder::open({.dumpRoot = dir.path(), .mode = TensorDebugMode(6)});
        REQUIRE_FALSE(r.ok());
        CHECK(r.status().code() == ErrorCode::InvalidArgument);
        CHECK(r.status().message().find("mode 6") != std::string::npos);
    }
    SECTION("an invalid op type regex")
    {
        auto r = Recorder::open({.dumpRoot = dir.path(), .opTypeRegex = "Mat(Mul"});
        REQUIRE_FALSE(r.ok());
        CHECK(r.status().message().find("Mat(Mul") != std::string::npos);
    }
    SECTION("an op type regex that repeats a repeat (exponential matching in std::regex)")
    {
        // The pattern a fuzzer found hanging an op declaration, and the smaller forms of it.
        for (const std::string pattern :
             {"\x1d\x1d+++=+++", "a++", "x*{2}", "(ab)*+", "a*??", "b{2}{3}", "c?*"}) {
            auto r = Recorder::open({.dumpRoot = dir.path(), .opTypeRegex = pattern});
            INFO(pattern);
            REQUIRE_FALSE(r.ok());
            CHECK(r.status().code() == ErrorCode::InvalidArgument);
            CHECK(r.status().message().find("repeats a repeat") != std::string::npos);
        }
        // Lazy quantifiers, quantifiers inside a class and escaped ones are not, nor are counts
        // within the limits, bounded repeats of a group holding a repeat, or small backreferences.
        int runs = 0;
        for (const std::string pattern :
             {"Mat.+?Mul", "[+*]+", "\\++", "(Log|Softmax)$", "a{2,3}?", "[^*]*", "\\d{2}",
              "x{1000}", "(a{300}){300}", "(a+)?", "(.*Conv){2}", "(a)\\1", "(?:Mat)+Mul", "\\0",
              "z9999999999999999999999"}) {
            INFO(pattern);
            const auto root = dir.path() / ("run" + std::to_string(runs++));
            auto r = Recorder::open({.dumpRoot = root, .opTypeRegex = pattern});
            CHECK(r.ok());
        }
    }
    SECTION("an op type regex that a backtracking engine would choke on")
    {
        struct Refused
        {
            std::string pattern;
            std::string reason;
        };
        // ";{" and 21 nines is the fuzzer's find: libstdc++'s compiler overflowed a signed long
        // reading the count (undefined behaviour) before it could say the brace is not closed.
        const std::string digits19(19, '9');
        int refused = 0;
        for (const auto& [pattern, reason] : std::vector<Refused>{
                 {"(a+)+", "repeats without bound a group that holds a repeat without bound"},
                 {"((Mat.*)Mul)*", "repeats without bound a group that holds a repeat"},
                 {"(x*){3,}", "repeats without bound a group"},
                 {"x{1001}", "repeats an atom more than 1000 times"},
                 {"a{" + digits19 + "}", "repeats an atom more than 1000 times"},
                 {"a{2," + digits19 + "}", "repeats an atom more than 1000 times"},
                 {";{" + std::string(21, '9'), "repeats an atom more than 1000 times"},
                 {"a{5000", "repeats an atom more than 1000 times"},
                 {"(a{500}){500}", "expands its counts to more than 100000 atoms"},
                 {"(((a){50}){50}){50}", "expands its counts to more than 100000 atoms"},
                 {"(a)\\100", "refers to group 100"},
                 {"\\" + digits19, "refers to group " + digits19},
             }) {
            INFO(pattern);
            const auto root = dir.path() / ("refused" + std::to_string(refused++));
            auto r = Recorder::open({.dumpRoot = root, .opTypeRegex = pattern});
            REQUIRE_FALSE(r.ok());
            CHECK(r.status().code() == ErrorCode::InvalidArgument);
            CHECK(r.status().message().find(reason) != std::string::npos);
            CHECK_FALSE(std::filesystem::exists(root)); // refused before anything is written
        }
    }
    SECTION("an unknown dtype in the filter")
    {
        auto r = Recorder::open({.dumpRoot = dir.path(), .tensorDtypes = {DType(77)}});
        REQUIRE_FALSE(r.ok());
        CHECK(r.status().code() == ErrorCode::InvalidArgument);
    }
    SECTION("a host name that would escape the dump root")
    {
        auto r = Recorder::open({.dumpRoot = dir.path(), .hostName = "../evil"});
        REQUIRE_FALSE(r.ok());
        CHECK(r.status().code() == ErrorCode::InvalidArgument);
    }
    SECTION("a negative flush interval")
    {
        auto r = Recorder::open(
            {.dumpRoot = dir.path(), .flushInterval = std::chrono::milliseconds(-5)});
        REQUIRE_FALSE(r.ok());
    }
}

TEST_CASE("debug modes parse and print as TensorFlow spells them", "[files]")
{
    for (auto mode :
         {TensorDebugMode::NoTensor, TensorDebugMode::CurtHealth, TensorDebugMode::ConciseHealth,
          TensorDebugMode::FullHealth, TensorDebugMode::Shape, TensorDebugMode::FullTensor})
        CHECK(parseTensorDebugMode(toString(mode)) == mode);
    CHECK(parseTensorDebugMode("full_health") == TensorDebugMode::FullHealth);
    CHECK_FALSE(parseTensorDebugMode("FULL_NUMERICS").has_value());
    CHECK_FALSE(parseTensorDebugMode("").has_value());
    CHECK(toString(TensorDebugMode::ConciseHealth) == "CONCISE_HEALTH");
}
