// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <string>

namespace nanscope::test {

// A run whose selected tests all carry `tag` is not run when `reasonToSkip` gives a reason: it
// prints the reason and exits with kSkipped, which ctest reports as a skip, not a pass.
struct SkipRule
{
    std::string tag;
    std::function<std::string()> reasonToSkip;
};

// ctest's SKIP_RETURN_CODE for our tests (the Automake convention).
constexpr int kSkipped = 77;

// Runs Catch2 on the command line. Catch2's implementation lives in one object file shared by
// every test executable; each executable's main() calls this.
int runCatch(int argc, char** argv, const SkipRule* skip = nullptr);

} // namespace nanscope::test
