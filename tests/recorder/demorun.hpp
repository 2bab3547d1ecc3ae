// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a demo program (nanscope-demo-mlp or its GPU twin) as a user would, and keeps what it
// printed, its exit status and the accuracy it reported at each step.
#pragma once

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace nanscope::test {

struct DemoRun
{
    int status = -1;
    std::string output;
    std::vector<double> accuracy; // by step
};

inline DemoRun runProgram(const std::string& program, const std::string& arguments)
{
    DemoRun run;
    const std::string command = program + " " + arguments + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe))
        run.output += buffer.data();
    const int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    const std::regex line(R"(Accuracy at step (\d+): ([0-9.]+))");
    for (std::sregex_iterator it(run.output.begin(), run.output.end(), line), end; it != end; ++it)
        run.accuracy.push_back(std::stod((*it)[2]));
    return run;
}

} // namespace nanscope::test
