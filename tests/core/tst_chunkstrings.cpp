// SPDX-License-Identifier: GPL-3.0-or-later
// A chunk's strings numbered on the thread that decodes it, and interned once each, and only
// when used, by the thread that stitches it.
#include "chunkstrings.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using nanscope::core::ChunkStringIds;
using nanscope::core::ChunkStrings;
using nanscope::core::StringPool;

TEST_CASE("a chunk's strings are numbered by first appearance, each kind apart", "[strings]")
{
    // Texts in a buffer of their own, as records' strings lie in their chunk's bytes.
    const std::string buffer = "MatMulAddMatMul";
    const std::string_view matMul(buffer.data(), 6), add(buffer.data() + 6, 3),
        matMulAgain(buffer.data() + 9, 6);
    ChunkStrings strings;
    CHECK(strings.number(0, matMul) == 0);
    CHECK(strings.number(0, add) == 1);
    CHECK(strings.number(0, matMulAgain) == 0); // the same text elsewhere in the buffer
    CHECK(strings.number(0, add) == 1);
    CHECK(strings.number(1, add) == 0); // another kind counts from 0
    CHECK(strings.number(0, "") == 2);
    CHECK(strings.count(0) == 3);
    CHECK(strings.count(1) == 1);
    CHECK(strings.count(2) == 0);
    CHECK(strings.text(0, 1) == "Add");

    strings.clear();
    CHECK(strings.count(0) == 0);
    CHECK(strings.number(0, add) == 0);
    CHECK(strings.number(0, add) == 0); // the repeat after a clear is not the old last one
    CHECK(strings.number(0, matMul) == 1);
}

TEST_CASE("a chunk's strings go into the pool once each, and only when a record uses them",
          "[strings]")
{
    StringPool pool;
    const std::uint32_t known = pool.intern("Add");
    ChunkStrings strings;
    const std::vector<std::string> ops = {"Log", "Add", "Exp", "Log"};
    std::vector<std::uint32_t> numbers;
    for (const std::string& op : ops)
        numbers.push_back(strings.number(0, op));
    ChunkStringIds ids;
    ids.reset(strings);
    const std::uint32_t log = ids.id(pool, 0, numbers[0]);
    CHECK(pool.strings()[log] == "Log");
    CHECK(ids.id(pool, 0, numbers[1]) == known);
    CHECK(ids.id(pool, 0, numbers[3]) == log);
    CHECK(pool.strings().size() == 3); // "", "Add", "Log": "Exp" was never used

    // The next chunk's numbers start again; its ids are its own.
    ChunkStrings next;
    const std::uint32_t exp = next.number(0, "Exp");
    ids.reset(next);
    CHECK(pool.strings()[ids.id(pool, 0, exp)] == "Exp");
    CHECK(pool.strings().size() == 4);
}
