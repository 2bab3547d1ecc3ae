// SPDX-License-Identifier: GPL-3.0-or-later
// The C interface numbers element types itself (a C header cannot include dtype.hpp): each of
// its numbers must be dtype.hpp's for the same type, which has a name and a size.
#include "nanscope/dtype.hpp"
#include "nanscope/recorder.h"

#include <catch2/catch.hpp>
#include <set>
#include <utility>

using namespace nanscope;

TEST_CASE("the C interface's dtype numbers are dtype.hpp's", "[c][dtype]")
{
    const std::pair<int, DType> pairs[] = {
        {NANSCOPE_FLOAT32, DType::Float32},   {NANSCOPE_FLOAT64, DType::Float64},
        {NANSCOPE_INT32, DType::Int32},       {NANSCOPE_UINT8, DType::UInt8},
        {NANSCOPE_INT16, DType::Int16},       {NANSCOPE_INT8, DType::Int8},
        {NANSCOPE_INT64, DType::Int64},       {NANSCOPE_BOOL, DType::Bool},
        {NANSCOPE_BFLOAT16, DType::BFloat16}, {NANSCOPE_UINT16, DType::UInt16},
        {NANSCOPE_FLOAT16, DType::Float16},   {NANSCOPE_UINT32, DType::UInt32},
        {NANSCOPE_UINT64, DType::UInt64},
    };
    std::set<int> numbers;
    for (const auto& [number, dtype] : pairs) {
        INFO(dtypeName(dtype));
        CHECK(number == static_cast<int>(dtype));
        CHECK(dtypeName(dtype) != "unknown");
        CHECK(elementSize(dtype) > 0);
        numbers.insert(number);
    }
    CHECK(numbers.size() == std::size(pairs));
}
