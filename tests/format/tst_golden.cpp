// SPDX-License-Identifier: GPL-3.0-or-later
// The golden bytes of the format contract's Appendix A, produced through our own .proto files.
#include "nanscope/format/record.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <catch2/catch.hpp>
#include <string>

using namespace nanscope;

namespace {

std::string hex(const std::string& bytes)
{
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

std::string serialize(const tfdbg::DebugEvent& e)
{
    std::string s;
    REQUIRE(e.SerializeToString(&s));
    return s;
}

const char* kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";

} // namespace

TEST_CASE("empty record and a 24-byte header (A.1)", "[golden]")
{
    std::string framed;
    format::appendRecord(framed, "");
    CHECK(hex(framed) == "0000000000000000" // length 0
                         "29039807"         // masked CRC of the length
                         "d8ea82a2");       // masked CRC of no bytes
    std::string header;
    format::appendRecord(header, std::string(24, 'p'));
    CHECK(hex(header.substr(0, 12)) == "1800000000000000a37f4b22");
}

TEST_CASE("metadata record (A.2)", "[golden]")
{
    tfdbg::DebugEvent e;
    e.set_wall_time(1.5);
    auto* m = e.mutable_debug_metadata();
    m->set_tensorflow_version("2.x");
    m->set_file_version("debug.Event:1");
    m->set_tfdbg_run_id("abcd1234");
    const std::string payload = serialize(e);
    CHECK(hex(payload) == "09000000000000f83f1a1e0a03322e78120d64656275672e4576656e743a31"
                          "1a086162636431323334");
    std::string framed;
    format::appendRecord(framed, payload);
    REQUIRE(framed.size() == 57);
    CHECK(hex(framed.substr(0, 12)) == "290000000000000037ff5f00");
    CHECK(hex(framed.substr(53)) == "ad345af6");
}

TEST_CASE("NO_TENSOR graph execution trace (A.3)", "[golden]")
{
    tfdbg::DebugEvent e;
    e.set_wall_time(1700000000.25);
    auto* t = e.mutable_graph_execution_trace();
    t->set_tfdbg_context_id("G");
    t->set_op_name("Log");
    t->set_tensor_debug_mode(tfdbg::NO_TENSOR);
    t->mutable_tensor_proto()->set_dtype(tfdbg::DT_FLOAT);
    t->mutable_tensor_proto()->mutable_tensor_shape()->add_dim();
    t->set_device_name(kCpu);
    std::string expected = "0900001040fc54d941" // wall_time
                           "5240"               // graph_execution_trace, 64 bytes
                           "0a0147"             // tfdbg_context_id "G"
                           "12034c6f67"         // op_name "Log"
                           "2001"               // tensor_debug_mode NO_TENSOR
                           "2a06080112021200"   // float32 tensor of shape [0]
                           "322c";              // device_name, 44 bytes
    for (const char* c = kCpu; *c; ++c) {
        static const char* digits = "0123456789abcdef";
        expected += digits[static_cast<unsigned char>(*c) >> 4];
        expected += digits[*c & 15];
    }
    CHECK(hex(serialize(e)) == expected);
}

TEST_CASE("CONCISE_HEALTH summary tensor (A.3)", "[golden]")
{
    tfdbg::TensorProto p;
    p.set_dtype(tfdbg::DT_DOUBLE);
    p.mutable_tensor_shape()->add_dim()->set_size(5);
    const double v[5] = {7, 1000, 1, 0, 0};
    p.set_tensor_content(std::string(reinterpret_cast<const char*>(v), sizeof v));
    std::string s;
    REQUIRE(p.SerializeToString(&s));
    CHECK(hex(s) == "08021204120208052228"
                    "0000000000001c40"
                    "0000000000408f40"
                    "000000000000f03f"
                    "0000000000000000"
                    "0000000000000000");
}

TEST_CASE("stack frame with a proto2 file index of zero (A.4)", "[golden]")
{
    tfdbg::DebugEvent e;
    e.set_wall_time(1.0);
    auto* f = e.mutable_stack_frame_with_id();
    f->set_id("ab");
    f->mutable_file_line_col()->set_file_index(0);
    f->mutable_file_line_col()->set_line(216);
    f->mutable_file_line_col()->set_func("loss");
    CHECK(hex(serialize(e)) == "09000000000000f03f"
                               "3211"
                               "0a026162" // id "ab"
                               "120b"     // file_line_col
                               "0800"     // file_index 0, present (proto2)
                               "10d801"   // line 216
                               "22046c6f7373");
}

TEST_CASE("debugged device and execution (A.4)", "[golden]")
{
    tfdbg::DebugEvent d;
    d.set_wall_time(1.0);
    d.mutable_debugged_device()->set_device_name("/d:CPU:0");
    d.mutable_debugged_device()->set_device_id(1);
    CHECK(hex(serialize(d)) == "09000000000000f03f620c0a082f643a4350553a301001");

    tfdbg::Execution x;
    x.set_op_type("Log");
    x.set_num_outputs(1);
    x.add_input_tensor_ids(5);
    x.add_output_tensor_ids(7);
    x.set_tensor_debug_mode(tfdbg::CONCISE_HEALTH);
    x.add_tensor_protos();
    x.add_output_tensor_device_ids(1);
    std::string s;
    REQUIRE(x.SerializeToString(&s));
    CHECK(hex(s) == "0a034c6f67" // op_type "Log"
                    "1001"       // num_outputs
                    "220105"     // input_tensor_ids [5]
                    "2a0107"     // output_tensor_ids [7]
                    "3003"       // CONCISE_HEALTH
                    "3a00"       // one empty TensorProto
                    "4a0101");   // output_tensor_device_ids [1]
}
