// SPDX-License-Identifier: GPL-3.0-or-later
// Two recorders that choose one file set name (one host name, one second, one dump root: the
// ranks of a job started together) never share a file: the second is refused, through the C++
// and the C interfaces alike, and the first records on undisturbed.
#include "logdirfixture.hpp"
#include "nanscope/recorder.h"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace nanscope;
using test::readEvents;

namespace {

RecorderOptions sameNameOptions(const std::filesystem::path& root)
{
    return {.dumpRoot = root,
            .mode = TensorDebugMode::NoTensor,
            .circularBufferSize = -1,
            .runId = "job",
            .hostName = "node-a"};
}

int fileCount(const std::filesystem::path& root)
{
    int files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(root))
        ++files;
    return files;
}

} // namespace

// Each case opens a first recorder, then a second of the same name; a second boundary between
// the two gives them distinct names (12 files), and the case tries again.
TEST_CASE("a second recorder of the same name in the same second is refused", "[files]")
{
    test::TempDir dir;
    const auto root = dir.path() / "dump";
    for (int attempt = 0; attempt < 20; ++attempt) {
        std::filesystem::remove_all(root);
        auto first = Recorder::open(sameNameOptions(root));
        REQUIRE(first.ok());
        auto second = Recorder::open(sameNameOptions(root));
        if (second.ok()) {
            CHECK(fileCount(root) == 12);
            continue;
        }
        CHECK(second.status().code() == ErrorCode::AlreadyExists);
        CHECK(second.status().message().find("another recorder") != std::string::npos);
        CHECK(fileCount(root) == 6);
        // The first one's files are whole and its records its own.
        REQUIRE((*first)->recordExecution({.opType = "aten::log"}).ok());
        REQUIRE((*first)->close().ok());
        CHECK(readEvents(root, "execution").size() == 1);
        CHECK(readEvents(root, "metadata").size() == 1);
        return;
    }
    FAIL("two opens never fell in one second");
}

TEST_CASE("the C interface refuses the same clash with NANSCOPE_ALREADY_EXISTS", "[files][c]")
{
    test::TempDir dir;
    const auto root = dir.path() / "dump";
    const std::string rootText = root.string();
    for (int attempt = 0; attempt < 20; ++attempt) {
        std::filesystem::remove_all(root);
        auto first = Recorder::open(sameNameOptions(root));
        REQUIRE(first.ok());
        nanscope_options options;
        nanscope_options_init(&options);
        options.dump_root = rootText.c_str();
        options.run_id = "job";
        options.host_name = "node-a";
        nanscope_recorder* second = nullptr;
        const int code = nanscope_open(&options, &second);
        if (code == NANSCOPE_OK) {
            CHECK(nanscope_close(second) == NANSCOPE_OK);
            continue;
        }
        CHECK(code == NANSCOPE_ALREADY_EXISTS);
        CHECK(second == nullptr);
        CHECK(fileCount(root) == 6);
        REQUIRE((*first)->close().ok());
        CHECK(readEvents(root, "metadata").size() == 1);
        return;
    }
    FAIL("two opens never fell in one second");
}
