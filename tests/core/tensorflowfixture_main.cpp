// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-tf-fixture KIND DIR: writes a TensorFlow-shaped logdir (see tensorflowlogdir.hpp) for
// looking at the app, the report or TensorFlow's own reader on it by hand.
#include "tensorflowlogdir.hpp"

#include <filesystem>
#include <iostream>

int main(int argc, char** argv)
{
    nanscope::test::TensorFlowStack stack{};
    if (argc != 3 || !nanscope::test::parseTensorFlowStack(argv[1], stack)) {
        std::cerr << "usage: nanscope-tf-fixture tutorial|tutorial-frozen-runpy|keras|"
                     "installed-package|framework-only DIR\n";
        return 2;
    }
    std::error_code ec;
    std::filesystem::create_directories(argv[2], ec);
    if (ec) {
        std::cerr << "nanscope-tf-fixture: cannot create " << argv[2] << ": " << ec.message()
                  << "\n";
        return 1;
    }
    const auto user = nanscope::test::writeTensorFlowLogdir(argv[2], stack);
    std::cout << "user frame: " << (user.file.empty() ? "(none)" : user.file) << ":" << user.line
              << " " << user.function << "\n";
    return 0;
}
