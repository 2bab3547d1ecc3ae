// SPDX-License-Identifier: GPL-3.0-or-later
// A saved index's private copy: byte for byte the file it was taken from, in memory or in unnamed
// files of the spill directory (a large one in two halves copied at once, mapped side by side),
// and unchanged when the file is rewritten after the copy.
#include "privatecopy.hpp"
#include "tempdir.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <unistd.h>
#include <utility>

using namespace nanscope;
using namespace nanscope::core;

namespace {

// Bytes that differ from page to page and within each, so that a misplaced page shows.
std::string patterned(std::size_t size)
{
    std::string bytes(size, '\0');
    std::uint64_t x = 0x9e3779b97f4a7c15u;
    for (std::size_t i = 0; i < size; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes[i] = static_cast<char>(x & 0xffu);
    }
    return bytes;
}

void write(const std::filesystem::path& file, const std::string& bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string copied(const PrivateCopy& copy)
{
    const auto bytes = copy.bytes();
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// A private copy of `file`, whose size is taken to be `size`: into files of `spill`, or in memory.
std::shared_ptr<const PrivateCopy> copyOf(const std::filesystem::path& file, std::size_t size,
                                          const std::filesystem::path& spill, bool toFile,
                                          std::string& why)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        why = "cannot open the file";
        return nullptr;
    }
    auto copy = PrivateCopy::of(fd, size, spill, toFile ? 0 : UINT64_MAX, why);
    ::close(fd);
    return copy;
}

} // namespace

TEST_CASE("a private copy holds the file's bytes, wherever it is made", "[indexcache][spill]")
{
    test::TempDir dir;
    test::TempDir spill;
    const std::filesystem::path file = dir.path() / "index";
    // Small and large (past the size copied in two halves), neither a whole number of pages.
    for (const std::size_t size : {std::size_t{5'000}, (std::size_t{65} << 20) + 4'321}) {
        const std::string original = patterned(size);
        write(file, original);
        for (const bool toFile : {false, true}) {
            INFO("size " << size << (toFile ? ", into files" : ", in memory"));
            std::string why;
            const auto copy = copyOf(file, size, spill.path(), toFile, why);
            REQUIRE(copy);
            CHECK(why.empty());
            CHECK(copy->fileBacked() == toFile);
            CHECK(copy->bytes().size() == size);
            CHECK(copied(*copy) == original);
            // The file rewritten in place afterwards: the copy keeps what it read, and read()
            // gives it too, across the halves of a large one.
            write(file, std::string(size, 'x'));
            CHECK(copied(*copy) == original);
            const std::size_t around = std::min<std::size_t>(size / 2, 5'000);
            for (const auto& [offset, length] :
                 {std::pair{std::size_t{0}, size}, std::pair{size / 2 - around, 2 * around},
                  std::pair{size - 1, std::size_t{1}}}) {
                INFO("read " << length << " bytes at " << offset);
                std::string out(length, '\0');
                CHECK(copy->read(offset, std::as_writable_bytes(std::span(out))));
                CHECK(out == original.substr(offset, length));
            }
            std::byte past{};
            CHECK_FALSE(copy->read(size, {&past, 1}));
            CHECK_FALSE(copy->read(size - 1, {&past, 2}));
            write(file, original);
        }
    }
    // The unnamed files leave nothing behind in the spill directory.
    CHECK(std::filesystem::is_empty(spill.path()));
}

TEST_CASE("a private copy of a file shorter than its size holds what was there", "[indexcache]")
{
    test::TempDir dir;
    test::TempDir spill;
    const std::filesystem::path file = dir.path() / "index";
    // As if the file was cut short between its size being looked at and the copy: the end falls
    // in the first half of a large copy, or in the second.
    const std::size_t claimed = std::size_t{140} << 20;
    for (const std::size_t size : {std::size_t{50} << 20, (std::size_t{100} << 20) + 77}) {
        const std::string original = patterned(size);
        write(file, original);
        for (const bool toFile : {false, true}) {
            INFO("size " << size << (toFile ? ", into files" : ", in memory"));
            std::string why;
            const auto copy = copyOf(file, claimed, spill.path(), toFile, why);
            REQUIRE(copy);
            CHECK(copied(*copy) == original);
        }
    }
}
