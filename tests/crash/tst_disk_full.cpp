// SPDX-License-Identifier: GPL-3.0-or-later
// A full disk while recording. Needs a small file system of its own: as root, a child process
// enters a private mount namespace and mounts a 256 KiB tmpfs there (nothing outside sees it;
// it goes away with the child). Elsewhere it prints why and exits with 77, which ctest reports
// as skipped.
//
// Checked: the recorder reports ENOSPC, every call returns and the program goes on; the logdir
// then reads back without an error and without a torn record, and holds a prefix of what was
// recorded, with no gap: after the failed write nothing more is written to the files (later
// records are dropped and counted), even once space is freed.
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace nanscope;
namespace fs = std::filesystem;

namespace {

constexpr int kSkip = 77;

int fail(const std::string& why)
{
    std::fprintf(stderr, "FAILED: %s\n", why.c_str());
    return 1;
}

// Everything here runs in the child, inside its mount namespace, on the tmpfs at `mountPoint`.
int recordOnFullDisk(const fs::path& mountPoint)
{
    // Most of the space taken first, by another file, so that the logdir fills it soon.
    const fs::path filler = mountPoint / "filler";
    std::ofstream(filler, std::ios::binary) << std::string(160 * 1024, 'x');
    const fs::path root = mountPoint / "logdir";
    auto opened = Recorder::open({.dumpRoot = root,
                                  .mode = TensorDebugMode::FullTensor,
                                  .circularBufferSize = -1,
                                  .flushInterval = std::chrono::milliseconds(2)});
    if (!opened)
        return fail("cannot open the recorder: " + opened.status().message());
    auto& rec = **opened;
    auto graph = rec.declareGraph("g");
    auto op = rec.declareOp({.graph = *graph, .type = "Big", .name = "big"});
    if (!graph || !op)
        return fail("cannot declare the op");
    std::vector<float> values(1000, 1.5f); // about 4 KB per trace
    const std::int64_t shape[1] = {1000};
    int refused = 0;
    for (int i = 0; i < 100; ++i) {
        values[0] = static_cast<float>(i); // which trace it is, to find gaps
        const Status s = rec.recordTrace(*op, 0, {.data = values.data(), .shape = shape});
        const Status f = rec.flush();
        for (const Status* x : {&s, &f}) {
            if (x->ok())
                continue;
            if (x->code() != ErrorCode::IoError ||
                x->message().find("No space left") == std::string::npos)
                return fail("unexpected error: " + x->message());
            ++refused;
        }
    }
    if (refused == 0)
        return fail("the disk never filled up");
    if (rec.firstError().ok() || rec.stats().recordsDropped == 0)
        return fail("the error was not kept in firstError() and stats()");

    auto check = [&](const char* when, std::uint64_t minTraces) {
        const auto s = core::LogdirReader(root).update();
        bool noted = false;
        for (const auto& d : s->diagnostics()) {
            // The one error expected: the recorder's note that it lost records.
            if (d.severity == core::Severity::Error &&
                d.message.find("the recorder that wrote this file set lost ") !=
                    std::string::npos) {
                noted = true;
                continue;
            }
            if (d.severity != core::Severity::Warning ||
                d.message.find("incomplete") != std::string::npos)
                return fail(std::string(when) + ": " + d.file + ": " + d.message);
        }
        // On a full disk the note itself may not fit (the metadata file then takes no more).
        std::printf("%s: the loss %s noted in the metadata file\n", when, noted ? "is" : "is not");
        if (s->traceCount() < minTraces)
            return fail(std::string(when) + ": only " + std::to_string(s->traceCount()) +
                        " traces");
        for (std::uint64_t k = 0; k < s->traceCount(); ++k) {
            const auto t = s->readTrace(k);
            if (!t || !t->fullTensor || t->fullTensor->values.empty() ||
                t->fullTensor->values[0] != static_cast<double>(k))
                return fail(std::string(when) + ": trace " + std::to_string(k) + " is not the " +
                            std::to_string(k) + "th recorded: a gap");
        }
        std::printf("%s: %llu traces read back, %d calls refused\n", when,
                    static_cast<unsigned long long>(s->traceCount()), refused);
        return 0;
    };
    if (const int e = check("disk full", 1))
        return e;
    const auto before = core::LogdirReader(root).update()->traceCount();

    // Space again: nothing is written after the gap; the calls still return, and count drops.
    fs::remove(filler);
    const std::uint64_t dropped = rec.stats().recordsDropped;
    for (int i = 0; i < 10; ++i) {
        values[0] = static_cast<float>(100 + i);
        (void)rec.recordTrace(*op, 0, {.data = values.data(), .shape = shape});
    }
    (void)rec.close();
    if (rec.stats().recordsDropped < dropped + 10)
        return fail("records after the gap were not counted as dropped");
    if (const int e = check("space freed", before))
        return e;
    if (core::LogdirReader(root).update()->traceCount() != before)
        return fail("records were written after the gap");
    return 0;
}

} // namespace

int main()
{
    if (geteuid() != 0) {
        std::printf("skipped: mounting a small tmpfs needs root\n");
        return kSkip;
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        if (unshare(CLONE_NEWNS) != 0) {
            std::printf("skipped: no private mount namespace (%s)\n", std::strerror(errno));
            _exit(kSkip);
        }
        // Keep the mount below out of the parent's namespace.
        if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
            std::printf("skipped: cannot make the mounts private (%s)\n", std::strerror(errno));
            _exit(kSkip);
        }
        char pattern[] = "/tmp/nanscope-full-disk-XXXXXX";
        if (mkdtemp(pattern) == nullptr)
            _exit(fail("mkdtemp"));
        if (mount("tmpfs", pattern, "tmpfs", MS_NOSUID | MS_NODEV, "size=256k") != 0) {
            std::printf("skipped: cannot mount a tmpfs (%s)\n", std::strerror(errno));
            rmdir(pattern);
            _exit(kSkip);
        }
        const int result = recordOnFullDisk(pattern);
        umount(pattern);
        rmdir(pattern);
        std::fflush(nullptr);
        _exit(result);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status))
        return fail("the child died of signal " + std::to_string(WTERMSIG(status)));
    return WEXITSTATUS(status);
}
