// SPDX-License-Identifier: GPL-3.0-or-later
// The recorder's own protobuf encoding (recorder/src/wire) against libprotobuf's: the same
// message, field for field, must give the same bytes, and every record of a logdir the recorder
// writes must be what libprotobuf writes after reading it back.
#include "logdirfixture.hpp"
#include "nanscope/format/recordfilereader.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"
#include "wire/messages.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

using namespace nanscope;

namespace {

const std::vector<std::string> kTexts = {"", "a", std::string(200, 'x'),
                                         "caf\xc3\xa9 \xe2\x88\x9e"};

// Every record of every file of the logdir, read back by libprotobuf and written again.
void checkCanonical(const std::filesystem::path& logdir)
{
    std::size_t records = 0;
    for (const auto& entry : std::filesystem::directory_iterator(logdir)) {
        format::RecordFileReader reader;
        REQUIRE(reader.open(entry.path()));
        std::string payload;
        while (reader.next(payload) == format::RecordStatus::Ok) {
            tfdbg::DebugEvent event;
            REQUIRE(event.ParseFromString(payload));
            INFO(entry.path().filename().string() << ": " << event.ShortDebugString());
            CHECK(event.SerializeAsString() == payload);
            ++records;
        }
    }
    CHECK(records > 10);
}

} // namespace

TEST_CASE("a TensorProto of every value kind is serialised as libprotobuf does", "[wire]")
{
    const std::vector<double> doubles = {0.0, -0.0, 1.5, -INFINITY, NAN, 1e300};
    const std::vector<std::int32_t> ints = {
        0, 1, -1, 127, 128, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()};
    for (const int variant : {0, 1, 2, 3}) {
        detail::wire::TensorProto mine;
        tfdbg::TensorProto theirs;
        if (variant == 0) { // NO_TENSOR's placeholder: a shape with one dimension of size 0
            mine.set_dtype(DType::Float32);
            mine.mutable_tensor_shape()->add_dim();
            theirs.set_dtype(tfdbg::DT_FLOAT);
            theirs.mutable_tensor_shape()->add_dim();
        } else if (variant == 1) { // a summary: doubles as content
            mine.set_dtype(DType::Float64);
            mine.mutable_tensor_shape()->add_dim()->set_size(6);
            mine.set_tensor_content(doubles.data(), doubles.size() * sizeof(double));
            theirs.set_dtype(tfdbg::DT_DOUBLE);
            theirs.mutable_tensor_shape()->add_dim()->set_size(6);
            theirs.set_tensor_content(doubles.data(), doubles.size() * sizeof(double));
        } else if (variant == 2) { // typed values of every repeated field
            for (const std::int32_t v : ints) {
                mine.add_int_val(v);
                theirs.add_int_val(v);
                mine.add_half_val(v & 0xffff);
                theirs.add_half_val(v & 0xffff);
                mine.add_int64_val(std::int64_t{v} * 3'000'000'000LL);
                theirs.add_int64_val(std::int64_t{v} * 3'000'000'000LL);
                mine.add_uint32_val(static_cast<std::uint32_t>(v));
                theirs.add_uint32_val(static_cast<std::uint32_t>(v));
                mine.add_uint64_val(~static_cast<std::uint64_t>(v));
                theirs.add_uint64_val(~static_cast<std::uint64_t>(v));
                mine.add_bool_val(v % 2 != 0);
                theirs.add_bool_val(v % 2 != 0);
            }
            for (const double d : doubles) {
                mine.add_float_val(static_cast<float>(d));
                theirs.add_float_val(static_cast<float>(d));
                mine.add_double_val(d);
                theirs.add_double_val(d);
                mine.add_scomplex_val(static_cast<float>(d));
                theirs.add_scomplex_val(static_cast<float>(d));
                mine.add_dcomplex_val(d);
                theirs.add_dcomplex_val(d);
            }
            mine.set_dtype(DType::Int64);
            theirs.set_dtype(tfdbg::DT_INT64);
            for (const std::int64_t d : {0LL, -1LL, 5LL, 1LL << 40}) {
                mine.mutable_tensor_shape()->add_dim()->set_size(d);
                theirs.mutable_tensor_shape()->add_dim()->set_size(d);
            }
        } // variant 3: nothing set at all
        INFO("variant " << variant);
        CHECK(mine.SerializeAsString() == theirs.SerializeAsString());
        CHECK(mine.ByteSizeLong() == theirs.ByteSizeLong());
    }
}

TEST_CASE("a reused TensorProto serialises as a fresh one, and a copy as its original", "[wire]")
{
    // A payload kept from call to call: a full tensor's typed values and shape, then cleared, then
    // a summary.
    detail::wire::TensorProto mine;
    mine.set_dtype(DType::Int32);
    mine.mutable_tensor_shape()->add_dim()->set_size(3);
    mine.mutable_tensor_shape()->add_dim()->set_size(7);
    for (int i = 0; i < 21; ++i)
        mine.add_int_val(i * 1000);
    const std::string big(10'000, 'b');
    mine.set_tensor_content(big.data(), big.size());
    const detail::wire::TensorProto copy = mine;
    CHECK(copy.SerializeAsString() == mine.SerializeAsString());
    CHECK(copy.ByteSizeLong() == mine.ByteSizeLong());

    mine.Clear();
    CHECK(mine.SerializeAsString().empty());
    CHECK(mine.ByteSizeLong() == 0);
    CHECK(mine.tensor_content().empty());
    CHECK(copy.ByteSizeLong() > big.size()); // the copy is its own

    const std::vector<double> summary = {1.0, 2.0, 0.0, 1000.0};
    for (int reuse = 0; reuse < 2; ++reuse) {
        mine.Clear();
        mine.set_dtype(DType::Float64);
        mine.mutable_tensor_shape()->add_dim()->set_size(4);
        mine.set_tensor_content(summary.data(), summary.size() * sizeof(double));
        tfdbg::TensorProto theirs;
        theirs.set_dtype(tfdbg::DT_DOUBLE);
        theirs.mutable_tensor_shape()->add_dim()->set_size(4);
        theirs.set_tensor_content(summary.data(), summary.size() * sizeof(double));
        INFO("reuse " << reuse);
        CHECK(mine.SerializeAsString() == theirs.SerializeAsString());
    }
}

TEST_CASE("the events of every kind are serialised as libprotobuf does", "[wire]")
{
    for (const std::string& text : kTexts) {
        for (const std::int32_t number : {0, 1, -1, 300, std::numeric_limits<int>::min()}) {
            INFO("text \"" << text << "\", number " << number);
            std::vector<std::pair<detail::wire::DebugEvent, tfdbg::DebugEvent>> pairs(9);
            for (auto& [mine, theirs] : pairs) {
                mine.set_wall_time(number == 0 ? -0.0 : number * 1.25);
                theirs.set_wall_time(number == 0 ? -0.0 : number * 1.25);
            }
            {
                auto& [mine, theirs] = pairs[0];
                auto* m = mine.mutable_debug_metadata();
                auto* t = theirs.mutable_debug_metadata();
                m->set_tensorflow_version(text);
                t->set_tensorflow_version(text);
                m->set_file_version("debug.Event:1");
                t->set_file_version("debug.Event:1");
                m->set_tfdbg_run_id(text);
                t->set_tfdbg_run_id(text);
                mine.mutable_nanscope_recorder_losses()->set_records_dropped(
                    static_cast<std::uint64_t>(number));
                theirs.mutable_nanscope_recorder_losses()->set_records_dropped(
                    static_cast<std::uint64_t>(number));
                mine.mutable_nanscope_recorder_losses()->add_stopped_files(text);
                theirs.mutable_nanscope_recorder_losses()->add_stopped_files(text);
                mine.mutable_nanscope_recorder_losses()->set_first_error(text);
                theirs.mutable_nanscope_recorder_losses()->set_first_error(text);
            }
            {
                auto& [mine, theirs] = pairs[1];
                auto* m = mine.mutable_source_file();
                auto* t = theirs.mutable_source_file();
                m->set_file_path(text);
                t->set_file_path(text);
                m->set_host_name("host");
                t->set_host_name("host");
                for (const auto& line : kTexts) {
                    m->add_lines(line);
                    t->add_lines(line);
                }
            }
            {
                auto& [mine, theirs] = pairs[2];
                auto* m = mine.mutable_stack_frame_with_id();
                auto* t = theirs.mutable_stack_frame_with_id();
                m->set_id(text);
                t->set_id(text);
                m->mutable_file_line_col()->set_file_index(number);
                t->mutable_file_line_col()->set_file_index(number);
                m->mutable_file_line_col()->set_line(number);
                t->mutable_file_line_col()->set_line(number);
                m->mutable_file_line_col()->set_func(text);
                t->mutable_file_line_col()->set_func(text);
            }
            {
                auto& [mine, theirs] = pairs[3];
                auto* m = mine.mutable_graph_op_creation();
                auto* t = theirs.mutable_graph_op_creation();
                m->set_op_type(text);
                t->set_op_type(text);
                m->set_op_name("dense/MatMul");
                t->set_op_name("dense/MatMul");
                m->set_graph_name(text);
                t->set_graph_name(text);
                m->set_graph_id("g");
                t->set_graph_id("g");
                m->set_device_name(text);
                t->set_device_name(text);
                m->add_input_names(text);
                t->add_input_names(text);
                m->set_num_outputs(number);
                t->set_num_outputs(number);
                m->mutable_code_location()->set_host_name(text);
                t->mutable_code_location()->set_host_name(text);
                m->mutable_code_location()->add_stack_frame_ids(text);
                t->mutable_code_location()->add_stack_frame_ids(text);
                m->add_output_tensor_ids(number);
                t->add_output_tensor_ids(number);
            }
            {
                auto& [mine, theirs] = pairs[4];
                auto* m = mine.mutable_debugged_graph();
                auto* t = theirs.mutable_debugged_graph();
                m->set_graph_id(text);
                t->set_graph_id(text);
                m->set_graph_name("loss");
                t->set_graph_name("loss");
                m->set_outer_context_id(text);
                t->set_outer_context_id(text);
            }
            {
                auto& [mine, theirs] = pairs[5];
                auto* m = mine.mutable_execution();
                auto* t = theirs.mutable_execution();
                m->set_op_type(text);
                t->set_op_type(text);
                m->set_num_outputs(number);
                t->set_num_outputs(number);
                m->set_graph_id(text);
                t->set_graph_id(text);
                for (const std::int64_t id : {std::int64_t{number}, std::int64_t{1} << 50}) {
                    m->add_input_tensor_ids(id);
                    t->add_input_tensor_ids(id);
                    m->add_output_tensor_ids(-id);
                    t->add_output_tensor_ids(-id);
                }
                m->set_tensor_debug_mode(TensorDebugMode::FullHealth);
                t->set_tensor_debug_mode(tfdbg::FULL_HEALTH);
                m->add_tensor_protos(); // TensorFlow's empty placeholder
                t->add_tensor_protos();
                m->add_tensor_protos()->set_dtype(DType::BFloat16);
                t->add_tensor_protos()->set_dtype(tfdbg::DT_BFLOAT16);
                m->mutable_code_location()->set_host_name("host");
                t->mutable_code_location()->set_host_name("host");
                m->add_output_tensor_device_ids(number);
                t->add_output_tensor_device_ids(number);
                if (!text.empty()) {
                    m->mutable_framework_context()->set_module_path(text);
                    t->mutable_framework_context()->set_module_path(text);
                    m->mutable_framework_context()->set_forward_op_type(text);
                    t->mutable_framework_context()->set_forward_op_type(text);
                    m->mutable_framework_context()->set_forward_module_path(text);
                    t->mutable_framework_context()->set_forward_module_path(text);
                    m->mutable_framework_context()->mutable_forward_code_location();
                    t->mutable_framework_context()->mutable_forward_code_location();
                }
            }
            {
                auto& [mine, theirs] = pairs[6];
                auto* m = mine.mutable_graph_execution_trace();
                auto* t = theirs.mutable_graph_execution_trace();
                m->set_tfdbg_context_id(text);
                t->set_tfdbg_context_id(text);
                m->set_op_name(text);
                t->set_op_name(text);
                m->set_output_slot(number);
                t->set_output_slot(number);
                m->set_tensor_debug_mode(TensorDebugMode::CurtHealth);
                t->set_tensor_debug_mode(tfdbg::CURT_HEALTH);
                m->mutable_tensor_proto();
                t->mutable_tensor_proto();
                m->set_device_name(text);
                t->set_device_name(text);
            }
            {
                auto& [mine, theirs] = pairs[7];
                mine.mutable_debugged_device()->set_device_name(text);
                theirs.mutable_debugged_device()->set_device_name(text);
                mine.mutable_debugged_device()->set_device_id(number);
                theirs.mutable_debugged_device()->set_device_id(number);
            }
            // pairs[8]: a wall time alone.
            for (std::size_t i = 0; i < pairs.size(); ++i) {
                INFO("event " << i);
                CHECK(pairs[i].first.SerializeAsString() == pairs[i].second.SerializeAsString());
            }
        }
    }
}

TEST_CASE("a trace framed from its frame and payload is the framed event, byte for byte, and its "
          "size is known beforehand",
          "[wire]")
{
    using namespace detail::wire;
    const std::vector<double> summary = {3.0, 1.0, 0.0, -INFINITY, NAN};
    const float values[3] = {1.0f, -2.0f, NAN};
    for (const std::string& text : kTexts) {
        for (const std::int32_t slot : {0, 3, 300}) {
            for (const TensorDebugMode mode :
                 {TensorDebugMode::NoTensor, TensorDebugMode::FullHealth,
                  TensorDebugMode::FullTensor, static_cast<TensorDebugMode>(0)}) {
                for (const int variant : {0, 1, 2, 3}) {
                    TensorProto payload;
                    if (variant == 0) {
                        payload.set_dtype(DType::Float32);
                        payload.mutable_tensor_shape()->add_dim();
                    } else if (variant == 1) {
                        payload.set_dtype(DType::Float64);
                        payload.mutable_tensor_shape()->add_dim()->set_size(5);
                        payload.set_tensor_content(summary.data(), summary.size() * 8);
                    } else if (variant == 2) {
                        payload.set_dtype(DType::Float32);
                        payload.mutable_tensor_shape()->add_dim()->set_size(3);
                        payload.borrow_tensor_content(values, sizeof values);
                    } // variant 3: an empty payload
                    for (const double wallTime : {0.0, 1.7e9 + 0.25}) {
                        DebugEvent event;
                        event.set_wall_time(wallTime);
                        auto* trace = event.mutable_graph_execution_trace();
                        trace->set_tfdbg_context_id(text);
                        trace->set_op_name(text + "/op");
                        trace->set_output_slot(slot);
                        trace->set_tensor_debug_mode(mode);
                        *trace->mutable_tensor_proto() = payload;
                        trace->set_device_name(text);
                        const TraceFrame frame =
                            makeTraceFrame(text, text + "/op", slot, mode, text);
                        std::string record = "left over from an earlier record";
                        frameTrace(wallTime, frame, payload, record);
                        INFO("text " << text.size() << " slot " << slot << " mode "
                                     << static_cast<int>(mode) << " variant " << variant);
                        CHECK(record == framedEvent(event));
                        CHECK(framedTraceSize(wallTime, frame, payload) == record.size());
                    }
                }
            }
        }
    }
}

TEST_CASE("every record the recorder writes is libprotobuf's serialisation", "[wire]")
{
    const float values[6] = {1.0f, -2.0f, 0.0f, -INFINITY, NAN, 3.0f};
    const std::int64_t shape[2] = {2, 3};
    const std::int32_t ints[3] = {-5, 0, 7};
    const std::int64_t intShape[1] = {3};
    for (const auto mode :
         {TensorDebugMode::NoTensor, TensorDebugMode::CurtHealth, TensorDebugMode::ConciseHealth,
          TensorDebugMode::FullHealth, TensorDebugMode::Shape, TensorDebugMode::FullTensor}) {
        INFO("mode " << static_cast<int>(mode));
        test::TempDir dir;
        auto recorder = Recorder::open({.dumpRoot = dir.path(), .mode = mode});
        REQUIRE(recorder.ok());
        auto& rec = **recorder;
        auto graph = rec.declareGraph("loss");
        REQUIRE(graph.ok());
        auto op = rec.declareOp({.graph = *graph, .type = "Log", .name = "loss/Log"});
        REQUIRE(op.ok());
        for (int step = 0; step < 3; ++step) {
            const TensorView logits{.data = values, .dtype = DType::Float32, .shape = shape};
            REQUIRE(rec.recordTrace(*op, 0, logits).ok());
            ExecutionSpec spec{.opType = "aten::log", .inputIds = {1, 2}, .outputIds = {3, 4}};
            spec.outputs = {{.data = values, .dtype = DType::Float32, .shape = shape},
                            {.data = ints, .dtype = DType::Int32, .shape = intShape}};
            spec.context.modulePath = "MLP.hidden";
            REQUIRE(rec.recordExecution(spec).ok());
        }
        REQUIRE(rec.close().ok());
        checkCanonical(dir.path());
    }
}

TEST_CASE("a metadata record's run id is read as protobuf reads it, and never past its bytes",
          "[wire]")
{
    tfdbg::DebugEvent event;
    event.set_wall_time(12.5);
    event.mutable_debug_metadata()->set_tensorflow_version("2.15");
    event.mutable_debug_metadata()->set_tfdbg_run_id("run-1");
    const std::string bytes = event.SerializeAsString();
    CHECK(detail::wire::metadataRunId(bytes) == "run-1");
    CHECK(detail::wire::metadataRunId("") == "");
    tfdbg::DebugEvent other;
    other.mutable_execution()->set_op_type("x");
    CHECK(detail::wire::metadataRunId(other.SerializeAsString()) == "");
    // Every truncation is either read as protobuf reads it or refused.
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const std::string cut = bytes.substr(0, n);
        tfdbg::DebugEvent parsed;
        const bool ok = parsed.ParseFromString(cut);
        const auto id = detail::wire::metadataRunId(cut);
        INFO("first " << n << " bytes");
        CHECK(id.has_value() == ok);
        if (ok && id)
            CHECK(*id == parsed.debug_metadata().tfdbg_run_id());
    }
}
