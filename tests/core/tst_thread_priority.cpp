// SPDX-License-Identifier: GPL-3.0-or-later
// The reader's threads can yield to a program's interactive ones: the app's GUI thread must not
// wait for a core while its loader decodes on every other one.
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/threadpriority.hpp"
#include "nanscope/recorder.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace nanscope;
using namespace nanscope::core;

#if defined(__linux__)
namespace {

// The nice values of this process's threads, from /proc (field 19 of each task's stat; the
// command name before it, in parentheses, may hold spaces).
std::vector<int> threadNiceness()
{
    std::vector<int> values;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream in(task.path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(in)), {});
        const auto close = stat.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream fields(stat.substr(close + 2));
        std::string field;
        for (int i = 3; i <= 19 && fields >> field; ++i)
            if (i == 19)
                values.push_back(std::stoi(field));
    }
    return values;
}

int countAtLeast(const std::vector<int>& values, int niceness)
{
    int n = 0;
    for (int v : values)
        n += v >= niceness ? 1 : 0;
    return n;
}

// A trace file over a mebibyte is decoded on the pool's threads; a smaller one on the reader's.
void writeLogdir(const std::filesystem::path& dir, int traces)
{
    auto opened = Recorder::open({.dumpRoot = dir,
                                  .mode = TensorDebugMode::FullHealth,
                                  .circularBufferSize = -1,
                                  .closeAtExit = false});
    REQUIRE(opened.ok());
    Recorder& rec = **opened;
    auto graph = rec.declareGraph("g");
    auto x = rec.declareOp({.graph = *graph, .type = "Placeholder", .name = "x"});
    REQUIRE(x.ok());
    const float values[2] = {1.0f, 2.0f};
    const std::int64_t shape[1] = {2};
    for (int i = 0; i < traces; ++i)
        REQUIRE(rec.recordTrace(*x, 0, {.data = values, .shape = shape}).ok());
    REQUIRE(rec.close().ok());
}

} // namespace

TEST_CASE("a thread that yields to interactive ones runs ten nice levels lower", "[threads]")
{
    const int before = currentThreadNiceness();
    int inThread = 0;
    std::thread([&] {
        yieldToInteractiveThreads();
        inThread = currentThreadNiceness();
    }).join();
    CHECK(inThread == std::min(19, before + 10));
    CHECK(currentThreadNiceness() == before); // the caller's other threads keep theirs
}

TEST_CASE("an interactive thread asks for short slices, which its background threads give up",
          "[threads]")
{
    // In threads of their own: the test's main thread keeps its settings.
    std::thread([] {
        const int niceness = currentThreadNiceness();
        const std::uint64_t defaultSlice = currentThreadSliceNs();
        runAsInteractiveThread();
        CHECK(currentThreadNiceness() == niceness); // its share of the CPU is unchanged
        const std::uint64_t slice = currentThreadSliceNs();
        if (slice == 0 || slice == defaultSlice) {
            WARN("this kernel has no per-thread time slices");
            return;
        }
        CHECK(slice == 500'000);
        CHECK(slice < defaultSlice);
        std::uint64_t inherited = 0;
        std::uint64_t yielded = 0;
        int yieldedNiceness = 0;
        std::thread([&] {
            inherited = currentThreadSliceNs();
            yieldToInteractiveThreads();
            yielded = currentThreadSliceNs();
            yieldedNiceness = currentThreadNiceness();
        }).join();
        CHECK(inherited == slice);      // a thread inherits its creator's slice…
        CHECK(yielded == defaultSlice); // …and a background one gives it back
        CHECK(yieldedNiceness == std::min(19, niceness + 10));
    }).join();
}

std::uintmax_t traceFileBytes(const std::filesystem::path& dir)
{
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.path().extension() == ".graph_execution_traces")
            return entry.file_size();
    return 0;
}

TEST_CASE("the reader's decoding threads yield only when asked", "[reader][threads]")
{
    constexpr int kTraces = 20000;
    test::TempDir dir;
    writeLogdir(dir.path(), kTraces);
    REQUIRE(traceFileBytes(dir.path()) > (1u << 20));
    const int base = currentThreadNiceness();
    if (base + 10 > 19) {
        // Already niced past 9 (a nice'd CI job): lowered threads stop at 19, where ordinary
        // threads may already be, so the two cannot be told apart.
        WARN("this process runs at nice " << base << ": nothing to tell apart");
        return;
    }
    // Threads already lowered (by another test's pool, say) are counted before each reader.
    const int alreadyLow = countAtLeast(threadNiceness(), base + 10);
    for (const bool background : {false, true}) {
        INFO("backgroundThreads = " << background);
        LogdirReader reader(dir.path(), {.threads = 2, .backgroundThreads = background});
        CHECK(reader.update()->traceCount() == kTraces);
        // The pool's threads lower themselves as they start, which may be after the update
        // returns (a thread given no job may not have run yet): wait for them, up to 5 s.
        const int expected = background ? 2 : 0;
        int lowered = 0;
        for (int tries = 0; tries < 500; ++tries) {
            lowered = countAtLeast(threadNiceness(), base + 10) - alreadyLow;
            if (lowered >= expected)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        CHECK(lowered == expected);
        CHECK(currentThreadNiceness() == base);
    }
}

TEST_CASE("a small logdir is decoded without starting threads", "[reader][threads]")
{
    test::TempDir dir;
    writeLogdir(dir.path(), 100);
    const std::size_t before = threadNiceness().size();
    LogdirReader reader(dir.path(), {.threads = 2});
    CHECK(reader.update()->traceCount() == 100);
    CHECK(threadNiceness().size() == before);
}
#endif
