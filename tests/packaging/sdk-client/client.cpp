// SPDX-License-Identifier: GPL-3.0-or-later
// Records log(x) of a tensor with a zero in it through NaNscope's C++ API: the logdir has one
// -inf alert on the op "Log". Prints the recorder's version.
//   usage: client_cpp LOGDIR
#include <cmath>
#include <cstdio>
#include <nanscope/recorder.hpp>
#include <nanscope/version.hpp>
#include <string_view>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: client_cpp LOGDIR\n");
        return 2;
    }
    if (nanscope::recorderVersion() != std::string_view("NaNscope " NANSCOPE_VERSION)) {
        std::fprintf(stderr, "the library is not the headers' version\n");
        return 1;
    }
    auto recorder = nanscope::Recorder::open({.dumpRoot = argv[1],
                                              .mode = nanscope::TensorDebugMode::FullHealth,
                                              .circularBufferSize = -1});
    if (!recorder) {
        std::fprintf(stderr, "%s\n", recorder.status().message().c_str());
        return 1;
    }
    auto graph = (*recorder)->declareGraph("sdk_client");
    // Inputs name ops declared before them, as TensorFlow creates ops.
    auto input = (*recorder)->declareOp({.graph = *graph, .type = "Placeholder", .name = "x"});
    auto op =
        (*recorder)->declareOp({.graph = *graph, .type = "Log", .name = "Log", .inputs = {"x:0"}});
    if (!graph || !input || !op) {
        std::fprintf(stderr, "declaring failed\n");
        return 1;
    }
    const float x[4] = {1.0f, 0.5f, 0.0f, 2.0f};
    float y[4];
    for (int i = 0; i < 4; ++i)
        y[i] = std::log(x[i]);
    const std::int64_t shape[] = {4};
    const auto status = (*recorder)->recordTrace(
        *op, 0, {.data = y, .dtype = nanscope::DType::Float32, .shape = shape});
    if (!status.ok() || !(*recorder)->close().ok()) {
        std::fprintf(stderr, "recording failed: %s\n", status.message().c_str());
        return 1;
    }
    std::printf("%s\n", std::string(nanscope::recorderVersion()).c_str());
    return 0;
}
