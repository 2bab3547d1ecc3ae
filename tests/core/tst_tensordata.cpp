// SPDX-License-Identifier: GPL-3.0-or-later
// Whole tensors read on demand (core::readTensorData): every numeric dtype family decoded element
// by element, the statistics and the first non-finite index, corrupt and truncated records as
// errors, and the .npy export.
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/snapshot.hpp"
#include "nanscope/core/tensordata.hpp"
#include "nanscope/core/tensornpy.hpp"
#include "nanscope/recorder.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

using namespace nanscope;
using namespace nanscope::core;
namespace ev = nanscope::test::events;
namespace fs = std::filesystem;

namespace {

constexpr int kFullTensor = 7;
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
tfdbg::TensorProto content(tfdbg::DataType dtype, const std::vector<T>& values,
                           std::vector<std::int64_t> shape = {})
{
    tfdbg::TensorProto t;
    t.set_dtype(dtype);
    if (shape.empty())
        shape = {static_cast<std::int64_t>(values.size())};
    for (const std::int64_t size : shape)
        t.mutable_tensor_shape()->add_dim()->set_size(size);
    t.set_tensor_content(
        std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
    return t;
}

ReadResult<TensorData> decode(const tfdbg::TensorProto& t)
{
    std::string bytes = t.SerializeAsString();
    const std::size_t size = bytes.size();
    return tensorDataFromProto(std::move(bytes), 0, size);
}

std::vector<double> allValues(const TensorData& tensor)
{
    std::vector<double> values(static_cast<std::size_t>(tensor.elementCount()));
    tensor.values(0, values);
    return values;
}

} // namespace

TEST_CASE("float16 and bfloat16 bit patterns decode to NaN, infinities and zeros",
          "[tensordata][dtype]")
{
    SECTION("float16 tensor_content")
    {
        // NaN, +inf, -inf, +0, 1.0, -0, the smallest subnormal
        const auto t = content<std::uint16_t>(tfdbg::DT_HALF,
                                              {0x7e00, 0x7c00, 0xfc00, 0x0000, 0x3c00, 0x8000, 1});
        const auto tensor = decode(t);
        REQUIRE(tensor);
        CHECK(tensor->dtype() == DType::Float16);
        const std::vector<double> v = allValues(*tensor);
        CHECK(std::isnan(v[0]));
        CHECK(v[1] == kInf);
        CHECK(v[2] == -kInf);
        CHECK(v[4] == 1.0);
        CHECK(v[6] == std::ldexp(1.0, -24));
        const TensorStats& s = tensor->stats();
        CHECK(s.nan == 1);
        CHECK(s.positiveInfinity == 1);
        CHECK(s.negativeInfinity == 1);
        CHECK(s.zero == 2);
        CHECK(s.finite == 4);
        CHECK(s.firstNonFinite == 0u);
        CHECK(s.max == 1.0);
        CHECK(s.min == 0.0);
    }
    SECTION("float16 in half_val, the last value repeated")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_HALF);
        t.mutable_tensor_shape()->add_dim()->set_size(4);
        t.add_half_val(0x3c00);
        t.add_half_val(0xfc00);
        const auto tensor = decode(t);
        REQUIRE(tensor);
        CHECK(allValues(*tensor) == std::vector<double>{1.0, -kInf, -kInf, -kInf});
        CHECK(tensor->stats().negativeInfinity == 3);
        CHECK(tensor->stats().firstNonFinite == 1u);
        CHECK(tensor->elementBytes().size() == 8);
    }
    SECTION("bfloat16, as PyTorch writes it")
    {
        const auto t = content<std::uint16_t>(tfdbg::DT_BFLOAT16,
                                              {0x3f80, 0x7fc0, 0x7f80, 0xff80, 0xc000}, {5, 1});
        const auto tensor = decode(t);
        REQUIRE(tensor);
        CHECK(tensor->shape() == std::vector<std::int64_t>{5, 1});
        const std::vector<double> v = allValues(*tensor);
        CHECK(v[0] == 1.0);
        CHECK(std::isnan(v[1]));
        CHECK(v[2] == kInf);
        CHECK(v[3] == -kInf);
        CHECK(v[4] == -2.0);
        CHECK(tensor->stats().nonFinite() == 3);
        CHECK(tensor->stats().firstNonFinite == 1u);
        CHECK(tensor->stats().mean == -0.5);
        CHECK(tensor->stats().maxMagnitude == 2.0);
    }
    SECTION("float8: e5m2 has infinities, e4m3fn only NaN")
    {
        const auto e5m2 =
            decode(content<std::uint8_t>(tfdbg::DT_FLOAT8_E5M2, {0x3c, 0x7c, 0xfc, 0x7e, 0x80}));
        REQUIRE(e5m2);
        CHECK(e5m2->stats().positiveInfinity == 1);
        CHECK(e5m2->stats().negativeInfinity == 1);
        CHECK(e5m2->stats().nan == 1);
        CHECK(e5m2->stats().zero == 1);
        CHECK(e5m2->value(0) == 1.0);
        const auto e4m3 =
            decode(content<std::uint8_t>(tfdbg::DT_FLOAT8_E4M3FN, {0x38, 0x7e, 0x7f, 0xff}));
        REQUIRE(e4m3);
        CHECK(e4m3->value(1) == 448.0);
        CHECK(e4m3->stats().nan == 2);
        CHECK(e4m3->stats().firstNonFinite == 2u);
    }
}

TEST_CASE("integers and bool decode exactly, with no non-finite values", "[tensordata][dtype]")
{
    SECTION("int8 and uint8 content")
    {
        const auto i8 = decode(content<std::int8_t>(tfdbg::DT_INT8, {-128, 0, 127}));
        REQUIRE(i8);
        CHECK(allValues(*i8) == std::vector<double>{-128, 0, 127});
        CHECK(i8->isIntegral());
        CHECK(i8->stats().zero == 1);
        CHECK_FALSE(i8->stats().firstNonFinite);
        const auto u8 = decode(content<std::uint8_t>(tfdbg::DT_UINT8, {255, 1}));
        REQUIRE(u8);
        CHECK(u8->integer(0) == 255);
    }
    SECTION("64-bit integers beyond 2^53 stay exact")
    {
        const std::int64_t big = (std::int64_t{1} << 60) + 1;
        const auto i64 = decode(content<std::int64_t>(tfdbg::DT_INT64, {big, -big}));
        REQUIRE(i64);
        CHECK(i64->integer(0) == big);
        CHECK(i64->integer(1) == -big);
        const std::uint64_t huge = std::numeric_limits<std::uint64_t>::max();
        const auto u64 = decode(content<std::uint64_t>(tfdbg::DT_UINT64, {huge, 7}));
        REQUIRE(u64);
        CHECK(u64->unsignedInteger(0) == huge);
        CHECK(u64->unsignedInteger(1) == 7);
    }
    SECTION("int32 in int_val and int64 in int64_val, filled")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_INT32);
        t.mutable_tensor_shape()->add_dim()->set_size(2);
        t.mutable_tensor_shape()->add_dim()->set_size(2);
        t.add_int_val(-5);
        t.add_int_val(9);
        const auto i32 = decode(t);
        REQUIRE(i32);
        CHECK(allValues(*i32) == std::vector<double>{-5, 9, 9, 9});
        tfdbg::TensorProto s;
        s.set_dtype(tfdbg::DT_INT16);
        s.add_int_val(-300); // a scalar: no dimensions
        const auto i16 = decode(s);
        REQUIRE(i16);
        CHECK(i16->shape().empty());
        CHECK(i16->elementCount() == 1);
        CHECK(i16->value(0) == -300);
    }
    SECTION("bool, any non-zero byte is true")
    {
        const auto b = decode(content<std::uint8_t>(tfdbg::DT_BOOL, {0, 1, 2}));
        REQUIRE(b);
        CHECK(allValues(*b) == std::vector<double>{0, 1, 1});
        CHECK(b->stats().zero == 1);
        CHECK(b->stats().mean == Approx(2.0 / 3));
    }
    SECTION("float64 in double_val")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_DOUBLE);
        t.mutable_tensor_shape()->add_dim()->set_size(3);
        t.add_double_val(0.5);
        t.add_double_val(std::nan(""));
        const auto tensor = decode(t);
        REQUIRE(tensor);
        CHECK(tensor->stats().nan == 2);
        CHECK(tensor->stats().firstNonFinite == 1u);
    }
}

TEST_CASE("tensors whose bytes do not match their claims are errors, never allocations",
          "[tensordata][robustness]")
{
    SECTION("content of the wrong size")
    {
        auto t = content<float>(tfdbg::DT_FLOAT, {1, 2, 3});
        t.mutable_tensor_shape()->mutable_dim(0)->set_size(4);
        const auto tensor = decode(t);
        CHECK_FALSE(tensor);
        CHECK_THAT(tensor.error, Catch::Contains("12 bytes"));
    }
    SECTION("a typed field claiming 2^40 elements")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_FLOAT);
        t.mutable_tensor_shape()->add_dim()->set_size(std::int64_t{1} << 40);
        t.add_float_val(1.0F);
        const auto tensor = decode(t);
        CHECK_FALSE(tensor);
        CHECK_THAT(tensor.error, Catch::Contains("far more than its record holds"));
    }
    SECTION("more typed values than the shape")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_INT32);
        t.mutable_tensor_shape()->add_dim()->set_size(1);
        t.add_int_val(1);
        t.add_int_val(2);
        CHECK_FALSE(decode(t));
    }
    SECTION("strings and complex values have no numbers to show")
    {
        tfdbg::TensorProto t;
        t.set_dtype(tfdbg::DT_STRING);
        t.add_string_val()->assign(1, 'x');
        const auto tensor = decode(t);
        CHECK_FALSE(tensor);
        CHECK_THAT(tensor.error, Catch::Contains("string"));
    }
    SECTION("bytes that are no TensorProto")
    {
        CHECK_FALSE(tensorDataFromProto(std::string("\x0a\xff\xff\xff", 4), 0, 4));
        CHECK_FALSE(tensorDataFromProto("abc", 2, 5)); // outside the buffer
    }
}

TEST_CASE("a trace's and an execution's tensors are read from the logdir", "[tensordata]")
{
    test::TempDir dir;
    std::vector<float> values(24, 1.5F);
    values[9] = std::numeric_limits<float>::quiet_NaN(); // [2, 1]
    values[17] = -std::numeric_limits<float>::infinity();
    const std::vector<float> finite(3, 2.0F);
    {
        auto recorder = Recorder::open({.dumpRoot = dir.path(),
                                        .mode = TensorDebugMode::FullTensor,
                                        .circularBufferSize = -1});
        REQUIRE(recorder);
        auto graph = (*recorder)->declareGraph("g");
        auto op = (*recorder)->declareOp({.graph = *graph, .type = "Log", .name = "Log"});
        REQUIRE(op);
        const std::int64_t shape[] = {6, 4};
        const TensorView tensor{.data = values.data(), .dtype = DType::Float32, .shape = shape};
        REQUIRE((*recorder)->recordTrace(*op, 0, tensor).ok());
        const std::int64_t shape3[] = {3};
        const TensorView small{.data = finite.data(), .dtype = DType::Float32, .shape = shape3};
        const std::int64_t a = (*recorder)->newTensorId();
        const std::int64_t b = (*recorder)->newTensorId();
        REQUIRE((*recorder)
                    ->recordExecution(
                        {.opType = "Split", .outputIds = {a, b}, .outputs = {small, tensor}})
                    .ok());
        REQUIRE((*recorder)->close().ok());
    }
    LogdirReader reader(dir.path());
    const auto snapshot = reader.update();
    REQUIRE(snapshot->traceCount() == 1);
    REQUIRE(snapshot->executionCount() == 1);

    const auto trace = readTensorData(*snapshot, {EventSource::Graph, 0});
    REQUIRE(trace);
    CHECK(trace->dtype() == DType::Float32);
    CHECK(trace->shape() == std::vector<std::int64_t>{6, 4});
    CHECK(trace->stats().firstNonFinite == 9u);
    CHECK(trace->coordinates(9) == std::vector<std::int64_t>{2, 1});
    const std::int64_t at[] = {4, 1};
    CHECK(trace->flatIndex(at) == 17);
    CHECK(trace->stats().finite == 22);
    CHECK(trace->stats().mean == 1.5);
    std::vector<double> page(4);
    trace->values(16, page);
    CHECK(page[0] == 1.5);
    CHECK(page[1] == -kInf);

    const EventRef execution{EventSource::Eager, 0};
    CHECK(firstNonFiniteSlot(*snapshot, execution) == 1);
    CHECK(firstNonFiniteSlot(*snapshot, {EventSource::Graph, 0}) == 0);
    const auto output0 = readTensorData(*snapshot, execution, 0);
    REQUIRE(output0);
    CHECK(output0->elementCount() == 3);
    CHECK_FALSE(output0->stats().firstNonFinite);
    const auto output1 = readTensorData(*snapshot, execution, 1);
    REQUIRE(output1);
    CHECK(output1->stats().nonFinite() == 2);
    const auto output2 = readTensorData(*snapshot, execution, 2);
    CHECK_FALSE(output2);
    CHECK_THAT(output2.error, Catch::Contains("has 2 output tensors"));

    SECTION("a stop flag abandons the pass")
    {
        const std::atomic_bool stop{true};
        CHECK_FALSE(readTensorData(*snapshot, {EventSource::Graph, 0}, 0, &stop));
    }
    SECTION("a record truncated after it was indexed is an error")
    {
        const fs::path file = snapshot->layout().fileSets[0].file(kTracesSuffix);
        fs::resize_file(file, fs::file_size(file) - 7);
        const auto cut = readTensorData(*snapshot, {EventSource::Graph, 0});
        CHECK_FALSE(cut);
        CHECK_FALSE(cut.error.empty());
    }
    SECTION("a record corrupted after it was indexed is an error")
    {
        const fs::path file = snapshot->layout().fileSets[0].file(kExecutionSuffix);
        std::string bytes = test::readBytes(file);
        bytes[bytes.size() - 30] ^= 0x40;
        test::writeBytes(file, bytes);
        const auto bad = readTensorData(*snapshot, execution, 1);
        CHECK_FALSE(bad);
        CHECK_FALSE(bad.error.empty());
    }
}

TEST_CASE("a tensor of another mode has no values to read", "[tensordata]")
{
    test::TempDir dir;
    const test::FileSetWriter set = test::runWithOneOp(dir.path());
    set.append("graph_execution_traces", ev::trace(1.0, "g", "r", 0, 2, ev::curtHealth(1, true)));
    set.append("graph_execution_traces",
               ev::trace(2.0, "g", "r", 0, kFullTensor,
                         content<std::uint16_t>(tfdbg::DT_BFLOAT16, {0x7fc0})));
    LogdirReader reader(dir.path());
    const auto snapshot = reader.update();
    REQUIRE(snapshot->traceCount() == 2);
    const auto curt = readTensorData(*snapshot, {EventSource::Graph, 0});
    CHECK_FALSE(curt);
    CHECK_THAT(curt.error, Catch::Contains("CURT_HEALTH"));
    const auto full = readTensorData(*snapshot, {EventSource::Graph, 1});
    REQUIRE(full);
    CHECK(full->stats().nan == 1);
    CHECK_FALSE(readTensorData(*snapshot, {EventSource::Graph, 2}));
}

TEST_CASE("a tensor exported as .npy has NumPy's header and its bytes", "[tensordata][npy]")
{
    const auto npy = [](const TensorData& tensor) {
        std::string out;
        REQUIRE(writeNpy(tensor, [&out](std::string_view piece) {
            out += piece;
            return true;
        }));
        return out;
    };
    SECTION("float32 of shape (2, 3)")
    {
        const std::vector<float> values{1, 2, 3, 4, NAN, -INFINITY};
        const auto tensor = decode(content<float>(tfdbg::DT_FLOAT, values, {2, 3}));
        REQUIRE(tensor);
        const std::string file = npy(*tensor);
        REQUIRE(file.size() > 10);
        CHECK(file.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
        const std::size_t headerLength =
            static_cast<unsigned char>(file[8]) | (static_cast<std::size_t>(file[9]) << 8);
        CHECK((10 + headerLength) % 64 == 0);
        const std::string header = file.substr(10, headerLength);
        CHECK(header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
        CHECK(header.back() == '\n');
        REQUIRE(file.size() == 10 + headerLength + values.size() * 4);
        CHECK(std::memcmp(file.data() + 10 + headerLength, values.data(), values.size() * 4) == 0);
    }
    SECTION("bfloat16 as float32, said so; bool as 0 and 1; scalars and vectors")
    {
        const NpyType type = npyTypeOf(DType::BFloat16);
        CHECK(type.descr == "<f4");
        CHECK(type.converted);
        const auto bf = decode(content<std::uint16_t>(tfdbg::DT_BFLOAT16, {0x3f80, 0xff80}));
        REQUIRE(bf);
        const std::string file = npy(*bf);
        CHECK_THAT(file, Catch::Contains("'shape': (2,), }"));
        const float expected[] = {1.0F, -INFINITY};
        CHECK(file.substr(file.size() - 8) ==
              std::string(reinterpret_cast<const char*>(expected), 8));
        const auto b = decode(content<std::uint8_t>(tfdbg::DT_BOOL, {0, 5}));
        REQUIRE(b);
        const std::string bools = npy(*b);
        CHECK_THAT(bools, Catch::Contains("'descr': '|b1'"));
        CHECK(bools.substr(bools.size() - 2) == std::string("\x00\x01", 2));
        tfdbg::TensorProto scalar;
        scalar.set_dtype(tfdbg::DT_INT64);
        scalar.add_int64_val(-3);
        const auto s = decode(scalar);
        REQUIRE(s);
        CHECK_THAT(npy(*s), Catch::Contains("'descr': '<i8', 'fortran_order': False, 'shape': ()"));
        CHECK_FALSE(npyTypeOf(DType::Int16).converted);
        CHECK(npyTypeOf(DType::QUInt8).descr == "|u1");
        CHECK(npyTypeOf(DType::String).descr.empty());
    }
}
