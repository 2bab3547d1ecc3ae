// SPDX-License-Identifier: GPL-3.0-or-later
// Runs nanscope-report and captures what it prints.
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>

namespace nanscope::test {

struct ReportRun
{
    int status = -1; // exit status; -1 when it did not exit (a crash)
    std::string output;
};

// `arguments` are passed to the shell as they are; stderr is captured with stdout.
inline ReportRun runReport(const std::string& arguments)
{
    // Appended in place: GCC 12 reports a false -Warray-bounds inside libstdc++ for
    // std::string(literal) + " " + ... once <string> comes from a precompiled header.
    std::string command = NANSCOPE_REPORT_EXE;
    command.append(" ").append(arguments).append(" 2>&1");
    ReportRun result;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return result;
    std::array<char, 4096> buffer{};
    std::size_t n;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        result.output.append(buffer.data(), n);
    const int status = ::pclose(pipe);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

inline std::string shellQuoted(const std::filesystem::path& p)
{
    return "'" + p.string() + "'";
}

} // namespace nanscope::test
