// SPDX-License-Identifier: GPL-3.0-or-later
// The plain Catch2 main, shared by the test executables that need no set-up of their own.
#include "catch_session.hpp"

#include <cstdio>

int main(int argc, char** argv)
{
    const int status = nanscope::test::runCatch(argc, argv);
    // Work after the run keeps main() on the stack: a tail call would leave it out of the native
    // stacks that the recorder's tests expect to reach main().
    std::fflush(stdout);
    return status;
}
