// SPDX-License-Identifier: GPL-3.0-or-later
#include "cachelogdir.hpp"

#include "fuzzinput.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/format/record.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace nanscope::fuzz {
namespace {

namespace fs = std::filesystem;

std::string framed(const tfdbg::DebugEvent& event)
{
    std::string out;
    format::appendRecord(out, event.SerializeAsString());
    return out;
}

tfdbg::DebugEvent at(double wallTime)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(wallTime);
    return e;
}

tfdbg::TensorProto fullHealth(double nan)
{
    tfdbg::TensorProto t;
    t.set_dtype(tfdbg::DT_DOUBLE);
    const std::vector<double> values{1, -1, 1, 2, 4, 0, 0, nan, 1, 1, 2 - nan};
    t.mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    std::string content(values.size() * 8, '\0');
    std::memcpy(content.data(), values.data(), content.size());
    t.set_tensor_content(content);
    return t;
}

std::string metadata(double wallTime)
{
    auto e = at(wallTime);
    e.mutable_debug_metadata()->set_tensorflow_version("2.15.0");
    e.mutable_debug_metadata()->set_file_version("debug.Event:1");
    e.mutable_debug_metadata()->set_tfdbg_run_id("run");
    return framed(e);
}

std::string trace(double wallTime, const char* op, const char* device, double nan)
{
    auto e = at(wallTime);
    auto* t = e.mutable_graph_execution_trace();
    t->set_tfdbg_context_id("g");
    t->set_op_name(op);
    t->set_tensor_debug_mode(tfdbg::FULL_HEALTH);
    t->set_device_name(device);
    *t->mutable_tensor_proto() = fullHealth(nan);
    return framed(e);
}

std::string execution(double wallTime, const char* type, double nan)
{
    auto e = at(wallTime);
    auto* x = e.mutable_execution();
    x->set_op_type(type);
    x->set_num_outputs(2);
    x->set_graph_id(nan > 0 ? "g" : "");
    x->add_input_tensor_ids(3);
    x->add_output_tensor_ids(4);
    x->add_output_tensor_ids(5);
    x->set_tensor_debug_mode(tfdbg::FULL_HEALTH);
    *x->add_tensor_protos() = fullHealth(0);
    *x->add_tensor_protos() = fullHealth(nan);
    x->mutable_code_location()->set_host_name("localhost");
    x->mutable_code_location()->add_stack_frame_ids("f1");
    return framed(e);
}

} // namespace

std::shared_ptr<core::MemoryFileSystem> indexCacheLogdir(const fs::path& dir)
{
    auto files = std::make_shared<core::MemoryFileSystem>();
    const std::string main = (dir / "tfdbg_events.1700000000.localhost.").string();
    const std::string other = (dir / "tfdbg_events.1700000001.worker-1.").string();

    auto source = at(1);
    source.mutable_source_file()->set_file_path("/home/user/train.py");
    source.mutable_source_file()->set_host_name("localhost");
    source.mutable_source_file()->add_lines("loss = tf.math.log(x)");
    auto frame = at(1);
    frame.mutable_stack_frame_with_id()->set_id("f1");
    frame.mutable_stack_frame_with_id()->mutable_file_line_col()->set_line(1);
    auto graph = at(1);
    graph.mutable_debugged_graph()->set_graph_id("g");
    graph.mutable_debugged_graph()->set_graph_name("train_step");
    std::string graphs = framed(graph);
    for (const char* name : {"x", "log", "mul"}) {
        auto op = at(1);
        auto* c = op.mutable_graph_op_creation();
        c->set_graph_id("g");
        c->set_op_type(name);
        c->set_op_name(name);
        if (std::strcmp(name, "x") != 0)
            c->add_input_names("x:0");
        c->add_output_tensor_ids(1);
        c->mutable_code_location()->add_stack_frame_ids("f1");
        graphs += framed(op);
    }
    graphs += framed(at(1)) + "not a record"; // a record of no kind, then a torn one

    files->add(main + "metadata", metadata(1));
    files->add(main + "source_files", framed(source));
    files->add(main + "stack_frames", framed(frame));
    files->add(main + "graphs", graphs);
    files->add(main + "execution", execution(2, "Log", 0) + execution(3, "__inference_g", 1));
    files->add(main + "graph_execution_traces",
               trace(4, "x", "/device:CPU:0", 0) + trace(5, "log", "/device:GPU:0", 1) +
                   trace(6, "undeclared", "/device:GPU:0", 2) + trace(7, "mul", "", 3));
    files->add(other + "metadata", metadata(2));
    files->add(other + "execution", execution(8, "Exp", 1));
    files->add(other + "graph_execution_traces", trace(9, "mul", "/device:CPU:0", 1));
    return files;
}

std::string savedIndexOfCacheLogdir()
{
    const fs::path cache = scratchDirectory() / "seed-index";
    fs::remove_all(cache);
    core::ReaderOptions options;
    options.discovery.fileSystem = indexCacheLogdir(kCacheLogdirPath);
    options.indexCache.directory = cache;
    options.indexCache.minLogdirBytes = 0;
    options.maxMemoryBytes = kCacheLogdirMemoryLimit;
    core::LogdirReader reader(kCacheLogdirPath, options);
    reader.update();
    if (!reader.saveIndex())
        return {};
    for (const auto& entry : fs::directory_iterator(cache)) {
        if (entry.path().extension() != ".nsidx") // not its trust record (.checked) beside it
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    return {};
}

} // namespace nanscope::fuzz
