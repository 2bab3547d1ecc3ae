// Runs part of a test in a forked child: to bound its time (a hang becomes a failure, not a stuck
// test run) and to measure its peak memory apart from the rest of the test process.
#pragma once

#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace nanscope::test {

struct ChildResult
{
    int code = -1;    // exit status; -1 when killed (a timeout is SIGALRM)
    int signal = 0;   // the signal that ended it, if one did
    long peakKiB = 0; // the child's peak resident memory
    bool ok() const { return code == 0; }
};

// `body` returns the exit status (0: passed). The child is killed after `seconds`.
template <typename Body>
ChildResult runInChild(unsigned seconds, Body body)
{
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(seconds);
        _exit(body());
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    ChildResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    r.peakKiB = usage.ru_maxrss;
    return r;
}

} // namespace nanscope::test
