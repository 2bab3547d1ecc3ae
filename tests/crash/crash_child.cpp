// SPDX-License-Identifier: GPL-3.0-or-later
// A program that records, then crashes: for the tests of RecorderOptions::flushOnCrash.
//   nanscope_crash_child DUMP_ROOT abort|segv|exit FLUSH_ON_CRASH(0|1) [OWN_HANDLER(0|1)]
// It records 50 FULL_HEALTH traces and 5 executions with a circular buffer (so nothing reaches
// the files before a flush), then calls abort(), writes through a null pointer, or returns
// without closing the recorder (closeAtExit off). With OWN_HANDLER it first installs its own
// handler for SIGABRT and SIGSEGV, which writes DUMP_ROOT/own-handler-ran and exits with 42, as
// a program with its own crash reporting would.
#include "nanscope/recorder.hpp"

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace {

char g_marker[4096];

void ownHandler(int)
{
    const int fd = ::open(g_marker, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0)
        ::close(fd);
    _exit(42);
}

// Read at run time, so that the compiler cannot see the store below is to null and drop it.
volatile std::uintptr_t g_nowhere = 0;

// A real invalid store. The sanitizers' checks are off here: UndefinedBehaviorSanitizer would
// otherwise report the null pointer and exit before the kernel raises SIGSEGV.
__attribute__((no_sanitize("address", "undefined"), noinline)) void storeThroughNull()
{
    *reinterpret_cast<volatile int*>(g_nowhere) = 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 4)
        return 2;
    const std::string root = argv[1];
    const std::string mode = argv[2];
    const bool flushOnCrash = std::strcmp(argv[3], "1") == 0;
    if (argc > 4 && std::strcmp(argv[4], "1") == 0) {
        std::snprintf(g_marker, sizeof g_marker, "%s/own-handler-ran", root.c_str());
        std::signal(SIGABRT, ownHandler);
        std::signal(SIGSEGV, ownHandler);
    }
    auto opened = nanscope::Recorder::open({.dumpRoot = root,
                                            .mode = nanscope::TensorDebugMode::FullHealth,
                                            .circularBufferSize = 1000,
                                            .closeAtExit = false,
                                            .flushOnCrash = flushOnCrash});
    if (!opened)
        return 3;
    auto& recorder = **opened;
    auto graph = recorder.declareGraph("g");
    auto op = recorder.declareOp({.graph = *graph, .type = "Log", .name = "Log"});
    if (!graph || !op)
        return 4;
    const float values[4] = {1.0f, 0.0f, -2.0f, 3.0f};
    const std::int64_t shape[1] = {4};
    for (int i = 0; i < 50; ++i)
        if (!recorder.recordTrace(*op, 0, {.data = values, .shape = shape}).ok())
            return 5;
    for (int i = 0; i < 5; ++i) {
        const std::int64_t out = recorder.newTensorId();
        if (!recorder
                 .recordExecution({.opType = "Exp",
                                   .outputIds = {out},
                                   .outputs = {{.data = values, .shape = shape}}})
                 .ok())
            return 6;
    }
    if (mode == "abort")
        std::abort();
    if (mode == "segv")
        storeThroughNull();
    // "exit": a normal end without close; the buffered events are lost by design.
    opened.value().release();
    return 0;
}
