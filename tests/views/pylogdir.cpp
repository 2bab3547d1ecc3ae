// SPDX-License-Identifier: GPL-3.0-or-later
#include "pylogdir.hpp"

#include "nanscope/format/record.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <cstring>
#include <fstream>
#include <vector>

namespace nanscope::test {
namespace {

constexpr int kFullHealth = 4;
constexpr double kSize = 4;

class Writer
{
public:
    explicit Writer(const std::string& dir) : m_prefix(dir + "/tfdbg_events.1700000000.localhost")
    {}

    bool append(const char* suffix, const tfdbg::DebugEvent& event)
    {
        std::string bytes;
        format::appendRecord(bytes, event.SerializeAsString());
        std::ofstream out(m_prefix + "." + suffix, std::ios::binary | std::ios::app);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return static_cast<bool>(out);
    }

private:
    std::string m_prefix;
};

tfdbg::DebugEvent withTime(double wallTime)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(wallTime);
    return e;
}

tfdbg::TensorProto fullHealth(double id, double negInf, double posInf, double nan, double negative,
                              double zero, double positive)
{
    const std::vector<double> values{id,     -1,  1,        2,    kSize,   negInf,
                                     posInf, nan, negative, zero, positive};
    tfdbg::TensorProto t;
    t.set_dtype(tfdbg::DT_DOUBLE);
    t.mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    std::string content(values.size() * sizeof(double), '\0');
    std::memcpy(content.data(), values.data(), content.size());
    t.set_tensor_content(content);
    return t;
}

} // namespace

std::uint64_t PyLogdir::trace(int step, Trace which)
{
    std::uint64_t index = static_cast<std::uint64_t>(step) * TracesPerStep + which;
    if (step > kFillerStep || (step == kFillerStep && which != Probs))
        index += kFillers;
    return index;
}

PyLogdir::PyLogdir()
{
    if (!m_dir.isValid())
        return;
    Writer w(m_dir.path().toStdString());
    bool ok = true;

    auto metadata = withTime(1700000000.0);
    metadata.mutable_debug_metadata()->set_tensorflow_version("2.15.0");
    metadata.mutable_debug_metadata()->set_file_version("debug.Event:1");
    metadata.mutable_debug_metadata()->set_tfdbg_run_id("pyrun");
    ok = ok && w.append("metadata", metadata);

    const auto source = [&](const std::string& path, const std::vector<std::string>& lines) {
        auto e = withTime(1.0);
        e.mutable_source_file()->set_file_path(path);
        e.mutable_source_file()->set_host_name("worker-0");
        for (const auto& line : lines)
            e.mutable_source_file()->add_lines(line);
        return w.append("source_files", e);
    };
    ok = ok &&
         source(kTrainPy,
                {"import tensorflow as tf", "", "", "def compute_loss(probs, labels):",
                 "    # The tutorial's bug: the log of an unclipped probability.",
                 "    neg = -labels", "    log = tf.math.log(probs)",
                 "    return tf.reduce_mean(neg * log)", "", "loss = compute_loss(probs, labels)"});
    ok = ok &&
         source(kMathOps,
                {"def log(x, name=None):", "    \"\"\"Computes the natural logarithm of x.\"\"\"",
                 "    return gen_math_ops.log(x, name)"});

    const auto frame = [&](const std::string& id, int file, int line, const std::string& func) {
        auto e = withTime(1.0);
        e.mutable_stack_frame_with_id()->set_id(id);
        auto* location = e.mutable_stack_frame_with_id()->mutable_file_line_col();
        location->set_file_index(file);
        location->set_line(line);
        location->set_func(func);
        return w.append("stack_frames", e);
    };
    ok = ok && frame("main", 0, 10, "<module>");
    ok = ok && frame("loss", 0, kLogLine, "compute_loss");
    ok = ok && frame("mul", 0, kMarkupLine, "compute_loss");
    ok = ok && frame("tf", 1, kFrameworkLine, "log");

    auto graph = withTime(1.0);
    graph.mutable_debugged_graph()->set_graph_id("g-loss");
    graph.mutable_debugged_graph()->set_graph_name("loss");
    ok = ok && w.append("graphs", graph);
    int nextTensorId = 1;
    const auto op = [&](const std::string& type, const std::string& name,
                        const std::vector<std::string>& inputs,
                        const std::vector<std::string>& frames) {
        auto e = withTime(1.0);
        auto* c = e.mutable_graph_op_creation();
        c->set_op_type(type);
        c->set_op_name(name);
        c->set_graph_id("g-loss");
        c->set_graph_name("loss");
        for (const auto& input : inputs)
            c->add_input_names(input);
        c->set_num_outputs(1);
        c->add_output_tensor_ids(nextTensorId++);
        c->mutable_code_location()->set_host_name("worker-0");
        for (const auto& f : frames)
            c->mutable_code_location()->add_stack_frame_ids(f);
        return w.append("graphs", e);
    };
    ok = ok && op("Placeholder", "probs", {}, {"main"});
    ok = ok && op("Placeholder", "labels", {}, {"main"});
    ok = ok && op("Identity", "ident", {"probs:0"}, {"main", "loss"});
    ok = ok && op("Log", "Log", {"probs:0"}, {"main", "loss", "tf"});
    ok = ok && op("Neg", "Neg", {"labels"}, {"main", "loss"});
    ok = ok && op("Mul", kMarkupName, {"Neg:0", "Log:0"}, {"main", "mul", "tf"});
    ok = ok && op("Sqrt", "Sqrt", {"ident:0"}, {"main", "loss"});
    ok = ok && op("Const", "filler", {}, {"main"});

    double time = 1700000001.0;
    const auto trace = [&](const std::string& name, const tfdbg::TensorProto& tensor) {
        auto e = withTime(time += 0.001);
        auto* t = e.mutable_graph_execution_trace();
        t->set_tfdbg_context_id("g-loss");
        t->set_op_name(name);
        t->set_output_slot(0);
        t->set_tensor_debug_mode(static_cast<tfdbg::TensorDebugMode>(kFullHealth));
        *t->mutable_tensor_proto() = tensor;
        t->set_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
        return w.append("graph_execution_traces", e);
    };
    for (int step = 0; step < kSteps; ++step) {
        const bool bad = step >= 1;
        ok = ok && trace("probs", fullHealth(1, 0, 0, 0, 0, bad ? 1 : 0, bad ? 3 : 4));
        if (step == kFillerStep)
            for (int i = 0; i < kFillers && ok; ++i)
                ok = trace("filler", fullHealth(8, 0, 0, 0, 0, 0, 4));
        ok = ok && trace("labels", fullHealth(2, 0, 0, 0, 0, 2, 2));
        ok = ok && trace("Neg", fullHealth(5, 0, 0, 0, 2, 2, 0));
        ok = ok && trace("Log", fullHealth(4, bad ? 1 : 0, 0, 0, bad ? 3 : 4, 0, 0));
        ok = ok && trace(kMarkupName, fullHealth(6, 0, bad ? 1 : 0, 0, 0, 0, bad ? 3 : 4));
        ok = ok && trace("Sqrt", fullHealth(7, 0, 0, 0, 0, bad ? 1 : 0, bad ? 3 : 4));
    }

    auto execution = withTime(time += 0.001);
    auto* x = execution.mutable_execution();
    x->set_op_type("__inference_train_step_42");
    x->set_graph_id("g-loss");
    x->set_num_outputs(0);
    x->set_tensor_debug_mode(static_cast<tfdbg::TensorDebugMode>(kFullHealth));
    x->mutable_code_location()->set_host_name("worker-0");
    x->mutable_code_location()->add_stack_frame_ids("main");
    ok = ok && w.append("execution", execution);
    m_ok = ok;
}

} // namespace nanscope::test
