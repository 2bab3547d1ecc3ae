// SPDX-License-Identifier: GPL-3.0-or-later
// Without a usable device (a build without CUDA, or a machine without a GPU) every device
// operation is refused with a reason, and nothing is read.
#include "nanscope/gpu/device.hpp"
#include "nanscope/gpu/summarybatch.hpp"
#include "requiredevice.hpp"

#include <array>
#include <catch2/catch.hpp>

using namespace nanscope;

TEST_CASE("the build says whether it has CUDA", "[nodevice]")
{
    CHECK(gpu::builtWithCuda() == (NANSCOPE_TEST_BUILT_WITH_CUDA != 0));
    if (!gpu::builtWithCuda())
        CHECK_FALSE(gpu::available());
    CHECK(gpu::available() == gpu::deviceStatus().ok());
    CHECK_FALSE(gpu::deviceDescription().empty());
}

TEST_CASE("without a device every device operation is refused with a reason", "[nodevice]")
{
    NANSCOPE_REQUIRE_NO_DEVICE();
    const Status status = gpu::deviceStatus();
    CHECK(status.code() == ErrorCode::Unsupported);
    INFO(status.message());
    CHECK(status.message().find(gpu::builtWithCuda() ? "no usable CUDA device"
                                                     : "no CUDA support") != std::string::npos);
    CHECK(gpu::deviceDescription().find(status.message()) != std::string::npos);

    // Adding checks only the arguments; submitting needs the device.
    const float values[3] = {1.0f, 2.0f, 3.0f};
    gpu::SummaryBatch batch;
    CHECK(batch.space() == MemorySpace::Device);
    REQUIRE(batch.add({.data = values, .count = 3}).ok());
    const Status submitted = batch.submit();
    CHECK(submitted.code() == ErrorCode::Unsupported);
    CHECK(submitted.message() == status.message());
    CHECK(batch.ready().status().code() == ErrorCode::InvalidArgument); // nothing was started

    // Even a batch that would read nothing: a device batch always needs the device.
    gpu::SummaryBatch empty;
    CHECK(empty.submit().code() == ErrorCode::Unsupported);

    std::array<double, 11> out{};
    CHECK(gpu::summarize({.data = values, .count = 3}, TensorDebugMode::FullHealth, {}, -1.0, out)
              .code() == ErrorCode::Unsupported);
    float copy[3] = {};
    CHECK(gpu::copyToHost(copy, values, sizeof values, nullptr).code() == ErrorCode::Unsupported);
    CHECK(copy[0] == 0.0f);
}
