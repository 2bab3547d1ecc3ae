// SPDX-License-Identifier: GPL-3.0-or-later
// Running part of a test in a forked child, for what changes process-wide state (limits, signal
// handlers) or must not take the test runner down with it.
#pragma once

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

namespace nanscope::test {

// Runs `body` in a child process and returns its exit status (or 128 + signal).
template <typename Body>
int inChild(Body body)
{
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0)
        _exit(body());
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace nanscope::test
