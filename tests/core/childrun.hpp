// SPDX-License-Identifier: GPL-3.0-or-later
// Runs part of a test in a forked child: to bound its time (a hang becomes a failure, not a stuck
// test run) and to measure how much memory it took, apart from the rest of the test process.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace nanscope::test {

struct ChildResult
{
    int code = -1;          // exit status; -1 when killed (a timeout is SIGALRM)
    int signal = 0;         // the signal that ended it, if one did
    long peakGrowthKiB = 0; // how far its peak resident memory rose above what it started with
    bool ok() const { return code == 0; }
};

inline long residentKiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return 0;
}

// `body` returns the exit status (0: passed). The child is killed after `seconds`.
template <typename Body>
ChildResult runInChild(unsigned seconds, Body body)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return {};
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        close(pipefd[0]);
        alarm(seconds);
        // A forked child starts with its parent's pages resident (sanitizers' shadow memory
        // included): only the rise above that is the body's.
        const long before = residentKiB();
        const int code = body();
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        const long growth = usage.ru_maxrss - before;
        (void)!write(pipefd[1], &growth, sizeof growth);
        _exit(code);
    }
    close(pipefd[1]);
    ChildResult r;
    if (read(pipefd[0], &r.peakGrowthKiB, sizeof r.peakGrowthKiB) != sizeof r.peakGrowthKiB)
        r.peakGrowthKiB = -1;
    close(pipefd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return r;
}

} // namespace nanscope::test
