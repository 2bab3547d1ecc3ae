// SPDX-License-Identifier: GPL-3.0-or-later
#include "logdirbuilder.hpp"

#include "nanscope/format/crc32c.hpp"
#include "nanscope/format/record.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>

namespace nanscope::test {

namespace fs = std::filesystem;

std::string readBytes(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& file, std::string_view bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void appendBytes(const fs::path& file, std::string_view bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::app);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string framed(const tfdbg::DebugEvent& event)
{
    std::string out;
    format::appendRecord(out, event.SerializeAsString());
    return out;
}

std::string recordHeader(std::uint64_t length)
{
    std::string h(format::kRecordHeaderSize, '\0');
    std::memcpy(h.data(), &length, 8);
    const std::uint32_t crc = format::maskCrc(format::crc32c(h.data(), 8));
    std::memcpy(h.data() + 8, &crc, 4);
    return h;
}

namespace events {

tfdbg::DebugEvent metadata(double wallTime, const std::string& runId, const std::string& version)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(wallTime);
    e.mutable_debug_metadata()->set_tensorflow_version(version);
    e.mutable_debug_metadata()->set_file_version("debug.Event:1");
    e.mutable_debug_metadata()->set_tfdbg_run_id(runId);
    return e;
}

tfdbg::DebugEvent sourceFile(const std::string& path, const std::string& host,
                             const std::vector<std::string>& lines)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(1.0);
    e.mutable_source_file()->set_file_path(path);
    e.mutable_source_file()->set_host_name(host);
    for (const auto& l : lines)
        e.mutable_source_file()->add_lines(l);
    return e;
}

tfdbg::DebugEvent stackFrame(const std::string& id, int fileIndex, int line,
                             const std::string& function)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(1.0);
    e.mutable_stack_frame_with_id()->set_id(id);
    auto* f = e.mutable_stack_frame_with_id()->mutable_file_line_col();
    f->set_file_index(fileIndex);
    f->set_line(line);
    f->set_func(function);
    return e;
}

tfdbg::DebugEvent graph(const std::string& id, const std::string& name, const std::string& outer)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(1.0);
    e.mutable_debugged_graph()->set_graph_id(id);
    e.mutable_debugged_graph()->set_graph_name(name);
    e.mutable_debugged_graph()->set_outer_context_id(outer);
    return e;
}

tfdbg::DebugEvent op(const std::string& graphId, const std::string& type, const std::string& name,
                     const std::vector<std::string>& inputs, const std::vector<int>& outputIds,
                     const std::vector<std::string>& frames)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(1.0);
    auto* c = e.mutable_graph_op_creation();
    c->set_op_type(type);
    c->set_op_name(name);
    c->set_graph_id(graphId);
    for (const auto& i : inputs)
        c->add_input_names(i);
    c->set_num_outputs(static_cast<int>(outputIds.size()));
    for (int id : outputIds)
        c->add_output_tensor_ids(id);
    c->mutable_code_location()->set_host_name("localhost");
    for (const auto& f : frames)
        c->mutable_code_location()->add_stack_frame_ids(f);
    return e;
}

tfdbg::DebugEvent device(int id, const std::string& name)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(1.0);
    e.mutable_debugged_device()->set_device_id(id);
    e.mutable_debugged_device()->set_device_name(name);
    return e;
}

tfdbg::DebugEvent trace(double wallTime, const std::string& graphId, const std::string& opName,
                        int slot, int mode, const tfdbg::TensorProto& tensor)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(wallTime);
    auto* t = e.mutable_graph_execution_trace();
    t->set_tfdbg_context_id(graphId);
    t->set_op_name(opName);
    t->set_output_slot(slot);
    t->set_tensor_debug_mode(static_cast<tfdbg::TensorDebugMode>(mode));
    *t->mutable_tensor_proto() = tensor;
    t->set_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
    return e;
}

tfdbg::DebugEvent execution(double wallTime, const std::string& opType,
                            const std::vector<std::int64_t>& inputs,
                            const std::vector<std::int64_t>& outputs, int mode,
                            const std::vector<tfdbg::TensorProto>& tensors,
                            const std::string& graphId, const std::vector<std::string>& frames)
{
    tfdbg::DebugEvent e;
    e.set_wall_time(wallTime);
    auto* x = e.mutable_execution();
    x->set_op_type(opType);
    x->set_num_outputs(static_cast<int>(outputs.size()));
    x->set_graph_id(graphId);
    for (auto i : inputs)
        x->add_input_tensor_ids(i);
    for (auto o : outputs)
        x->add_output_tensor_ids(o);
    x->set_tensor_debug_mode(static_cast<tfdbg::TensorDebugMode>(mode));
    for (const auto& t : tensors)
        *x->add_tensor_protos() = t;
    x->mutable_code_location()->set_host_name("localhost");
    for (const auto& f : frames)
        x->mutable_code_location()->add_stack_frame_ids(f);
    for (std::size_t i = 0; i < outputs.size(); ++i)
        x->add_output_tensor_device_ids(1);
    return e;
}

tfdbg::TensorProto summary(const std::vector<double>& values)
{
    tfdbg::TensorProto t;
    t.set_dtype(tfdbg::DT_DOUBLE);
    t.mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    std::string content(values.size() * 8, '\0');
    if (!values.empty())
        std::memcpy(content.data(), values.data(), content.size());
    t.set_tensor_content(content);
    return t;
}

tfdbg::TensorProto fullHealth(double id, double size, double negInf, double posInf, double nan,
                              double negative, double zero, double positive)
{
    return summary({id, -1, 1, 2, size, negInf, posInf, nan, negative, zero, positive});
}

tfdbg::TensorProto conciseHealth(double id, double size, double negInf, double posInf, double nan)
{
    return summary({id, size, negInf, posInf, nan});
}

tfdbg::TensorProto curtHealth(double id, bool nonFinite)
{
    return summary({id, nonFinite ? 1.0 : 0.0});
}

tfdbg::TensorProto noTensor()
{
    tfdbg::TensorProto t;
    t.set_dtype(tfdbg::DT_FLOAT);
    t.mutable_tensor_shape()->add_dim()->set_size(0);
    return t;
}

tfdbg::TensorProto floatContent(const std::vector<float>& values)
{
    tfdbg::TensorProto t;
    t.set_dtype(tfdbg::DT_FLOAT);
    t.mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    std::string content(values.size() * 4, '\0');
    if (!values.empty())
        std::memcpy(content.data(), values.data(), content.size());
    t.set_tensor_content(content);
    return t;
}

tfdbg::TensorProto floatTyped(const std::vector<float>& values, std::int64_t elements)
{
    tfdbg::TensorProto t;
    t.set_dtype(tfdbg::DT_FLOAT);
    t.mutable_tensor_shape()->add_dim()->set_size(elements);
    for (float v : values)
        t.add_float_val(v);
    return t;
}

} // namespace events

FileSetWriter::FileSetWriter(fs::path dir, std::string host, std::int64_t time)
{
    char stamp[16];
    std::snprintf(stamp, sizeof stamp, "%010lld", static_cast<long long>(time));
    m_prefix = dir / ("tfdbg_events." + std::string(stamp) + "." + host);
}

fs::path FileSetWriter::file(std::string_view suffix) const
{
    fs::path p = m_prefix;
    p += "." + std::string(suffix);
    return p;
}

void FileSetWriter::createAll() const
{
    for (const char* suffix : {"metadata", "source_files", "stack_frames", "graphs", "execution",
                               "graph_execution_traces"})
        appendBytes(suffix, {});
}

void FileSetWriter::append(std::string_view suffix, const tfdbg::DebugEvent& event) const
{
    appendBytes(suffix, framed(event));
}

void FileSetWriter::appendBytes(std::string_view suffix, std::string_view bytes) const
{
    test::appendBytes(file(suffix), bytes);
}

void FileSetWriter::writeMetadata(double wallTime, const std::string& runId) const
{
    writeBytes(file("metadata"), framed(events::metadata(wallTime, runId)));
}

FileSetWriter emptyRun(const fs::path& dir)
{
    FileSetWriter set(dir);
    set.createAll();
    set.writeMetadata(1.0, "run");
    return set;
}

FileSetWriter runWithOneOp(const fs::path& dir)
{
    FileSetWriter set = emptyRun(dir);
    set.append("graphs", events::graph("g", "f"));
    set.append("graphs", events::op("g", "Relu", "r", {}, {1}));
    return set;
}

void writeSmallLogdir(const fs::path& dir)
{
    using namespace events;
    FileSetWriter set(dir);
    set.createAll();
    set.writeMetadata(1700000000.0, "run1");
    set.append("source_files", sourceFile("/home/user/train.py", "localhost",
                                          {"import tensorflow as tf", "x = load()",
                                           "y = tf.math.log(x)", "z = y * w", ""}));
    set.append("stack_frames", stackFrame("f-main", 0, 2, "<module>"));
    set.append("stack_frames", stackFrame("f-log", 0, 3, "<module>"));
    set.append("stack_frames", stackFrame("f-mul", 0, 4, "<module>"));
    set.append("graphs", graph("g", "loss"));
    set.append("graphs", op("g", "Placeholder", "x", {}, {1}, {"f-main"}));
    set.append("graphs", op("g", "Placeholder", "y", {}, {2}, {"f-main"}));
    set.append("graphs", op("g", "Log", "Log", {"x:0"}, {3}, {"f-main", "f-log"}));
    set.append("graphs", op("g", "Mul", "Mul", {"Log", "y:0"}, {4}, {"f-main", "f-mul"}));
    set.append("graphs", device(1, "/job:localhost/replica:0/task:0/device:CPU:0"));
    const int full = 4;
    set.append("graph_execution_traces",
               trace(10.0, "g", "x", 0, full, fullHealth(1, 4, 0, 0, 0, 0, 1, 3)));
    set.append("graph_execution_traces",
               trace(10.1, "g", "y", 0, full, fullHealth(2, 4, 0, 0, 0, 1, 0, 3)));
    set.append("graph_execution_traces",
               trace(10.2, "g", "Log", 0, full, fullHealth(3, 4, 1, 0, 0, 2, 0, 1)));
    set.append("graph_execution_traces",
               trace(10.3, "g", "Mul", 0, full, fullHealth(4, 4, 0, 0, 1, 1, 0, 2)));
    const int concise = 3;
    set.append("execution",
               execution(9.0, "Cast", {1}, {2}, concise, {conciseHealth(-1, 4, 0, 0, 0)}));
    set.append("execution", execution(11.0, "__inference_loss_7", {2}, {3}, concise,
                                      {conciseHealth(-1, 1, 0, 0, 1)}, "g"));
}

} // namespace nanscope::test
