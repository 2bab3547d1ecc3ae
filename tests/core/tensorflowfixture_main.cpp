// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-tf-fixture KIND DIR [--traces N]: writes a TensorFlow-shaped logdir (see
// tensorflowlogdir.hpp) for looking at the app, the report or TensorFlow's own reader on it by
// hand; with --traces, the same program run long enough to write N traces (and N/2 executions),
// for timing.
#include "tensorflowlogdir.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    nanscope::test::TensorFlowStack stack{};
    const bool large = argc == 5 && std::string(argv[3]) == "--traces";
    const std::uint64_t traces = large ? std::strtoull(argv[4], nullptr, 10) : 0;
    if ((argc != 3 && !large) || (large && traces == 0) ||
        !nanscope::test::parseTensorFlowStack(argv[1], stack)) {
        std::cerr << "usage: nanscope-tf-fixture tutorial|tutorial-frozen-runpy|keras|"
                     "installed-package|framework-only DIR [--traces N]\n";
        return 2;
    }
    std::error_code ec;
    std::filesystem::create_directories(argv[2], ec);
    if (ec) {
        std::cerr << "nanscope-tf-fixture: cannot create " << argv[2] << ": " << ec.message()
                  << "\n";
        return 1;
    }
    if (large) {
        nanscope::test::writeLargeTensorFlowLogdir(argv[2], stack, traces);
        return 0;
    }
    const auto user = nanscope::test::writeTensorFlowLogdir(argv[2], stack);
    std::cout << "user frame: " << (user.file.empty() ? "(none)" : user.file) << ":" << user.line
              << " " << user.function << "\n";
    return 0;
}
