// SPDX-License-Identifier: GPL-3.0-or-later
// Starting, killing and waiting for the programs the crash tests observe.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace nanscope::test {

// Starts `argv[0]` with `argv`, stdout and stderr to /dev/null; throws when it cannot.
pid_t spawnQuiet(const std::vector<std::string>& argv);

struct ExitStatus
{
    bool exited = false; // with `code`; otherwise killed by `signal`
    int code = 0;
    int signal = 0;
};

ExitStatus waitFor(pid_t pid);

// Runs a program to its end.
inline ExitStatus runQuiet(const std::vector<std::string>& argv)
{
    return waitFor(spawnQuiet(argv));
}

} // namespace nanscope::test
