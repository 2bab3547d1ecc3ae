// SPDX-License-Identifier: Apache-2.0
// The C interface: a thin layer over nanscope::Recorder that turns Status into codes and keeps
// graph and op handles alive for as long as their recorder.
#include "nanscope/recorder.h"
#include "nanscope/recorder.hpp"

#include <deque>
#include <mutex>
#include <new>
#include <string>

struct nanscope_graph
{
    nanscope::GraphHandle handle;
};

struct nanscope_op
{
    nanscope::OpHandle handle;
};

struct nanscope_recorder
{
    std::unique_ptr<nanscope::Recorder> recorder;
    std::mutex mutex; // guards the two deques; the recorder is thread-safe on its own
    std::deque<nanscope_graph> graphs;
    std::deque<nanscope_op> ops;
};

namespace {

thread_local std::string lastError;

int fail(int code, std::string message)
{
    lastError = std::move(message);
    return code;
}

int report(const nanscope::Status& status)
{
    if (status.ok())
        return NANSCOPE_OK;
    return fail(static_cast<int>(status.code()), status.message());
}

std::string text(const char* s)
{
    return s ? std::string(s) : std::string();
}

nanscope::TensorView view(const nanscope_tensor& t)
{
    nanscope::TensorView v;
    v.data = t.data;
    v.dtype = static_cast<nanscope::DType>(t.dtype);
    v.shape = std::span<const std::int64_t>(t.shape, t.shape ? t.rank : 0);
    return v;
}

nanscope::CodeLocation location(const nanscope_location& where)
{
    return {text(where.file), where.line, text(where.function)};
}

} // namespace

extern "C" {

void nanscope_options_init(nanscope_options* options)
{
    if (options == nullptr)
        return;
    *options = nanscope_options{};
    options->tensor_debug_mode = NANSCOPE_NO_TENSOR;
    options->circular_buffer_size = 1000;
    options->flush_interval_ms = 100;
}

void nanscope_stop_options_init(nanscope_stop_options* options)
{
    if (options == nullptr)
        return;
    *options = nanscope_stop_options{};
    options->stop_lag_events = nanscope::RecorderOptions{}.stopLagEvents;
}

int nanscope_open(const nanscope_options* options, nanscope_recorder** out)
{
    return nanscope_open_stopping(options, nullptr, out);
}

int nanscope_open_stopping(const nanscope_options* options, const nanscope_stop_options* stop,
                           nanscope_recorder** out)
{
    if (options == nullptr || out == nullptr || options->dump_root == nullptr)
        return fail(NANSCOPE_INVALID_ARGUMENT, "nanscope_open needs options with a dump_root");
    *out = nullptr;
    nanscope::RecorderOptions o;
    if (stop != nullptr) {
        o.stopAtFirstNonFinite = true;
        if (stop->expected_nonfinite == nullptr && stop->num_expected_nonfinite > 0)
            return fail(NANSCOPE_INVALID_ARGUMENT,
                        "num_expected_nonfinite is not 0 but expected_nonfinite is NULL");
        for (std::size_t i = 0; i < stop->num_expected_nonfinite; ++i)
            o.expectedNonFinite.push_back(text(stop->expected_nonfinite[i]));
        o.stopLagEvents = stop->stop_lag_events;
        if (stop->on_stop != nullptr)
            o.onNonFiniteStop = [callback = stop->on_stop,
                                 data = stop->user_data](const nanscope::NonFiniteStop& s) {
                callback(s.message.c_str(), data);
            };
    }
    o.dumpRoot = options->dump_root;
    o.mode = static_cast<nanscope::TensorDebugMode>(options->tensor_debug_mode);
    o.circularBufferSize = options->circular_buffer_size;
    o.opTypeRegex = text(options->op_type_regex);
    if (options->tensor_dtypes != nullptr)
        for (std::size_t i = 0; i < options->num_tensor_dtypes; ++i)
            o.tensorDtypes.push_back(static_cast<nanscope::DType>(options->tensor_dtypes[i]));
    o.runId = text(options->run_id);
    o.hostName = text(options->host_name);
    o.flushInterval = std::chrono::milliseconds(options->flush_interval_ms);
    o.captureNativeStacks = options->capture_native_stacks != 0;
    auto recorder = nanscope::Recorder::open(std::move(o));
    if (!recorder)
        return report(recorder.status());
    auto* handle = new (std::nothrow) nanscope_recorder;
    if (handle == nullptr)
        return fail(NANSCOPE_IO_ERROR, "out of memory");
    handle->recorder = std::move(*recorder);
    *out = handle;
    return NANSCOPE_OK;
}

int nanscope_close(nanscope_recorder* recorder)
{
    if (recorder == nullptr)
        return fail(NANSCOPE_INVALID_ARGUMENT, "nanscope_close needs a recorder");
    const int code = report(recorder->recorder->close());
    delete recorder;
    return code;
}

int nanscope_flush(nanscope_recorder* recorder)
{
    if (recorder == nullptr)
        return fail(NANSCOPE_INVALID_ARGUMENT, "nanscope_flush needs a recorder");
    return report(recorder->recorder->flush());
}

int nanscope_declare_graph(nanscope_recorder* recorder, const char* name,
                           const nanscope_graph* outer, const nanscope_graph** out)
{
    if (recorder == nullptr || out == nullptr)
        return fail(NANSCOPE_INVALID_ARGUMENT, "nanscope_declare_graph needs a recorder and out");
    auto graph = recorder->recorder->declareGraph(text(name), outer ? &outer->handle : nullptr);
    if (!graph)
        return report(graph.status());
    std::lock_guard lock(recorder->mutex);
    recorder->graphs.push_back({std::move(*graph)});
    *out = &recorder->graphs.back();
    return NANSCOPE_OK;
}

const char* nanscope_graph_id(const nanscope_graph* graph)
{
    return graph ? graph->handle.id.c_str() : "";
}

int nanscope_declare_op(nanscope_recorder* recorder, const nanscope_graph* graph,
                        const char* op_type, const char* op_name, const char* const* inputs,
                        size_t num_inputs, int num_outputs, nanscope_location where,
                        const nanscope_op** out)
{
    if (recorder == nullptr || graph == nullptr || out == nullptr)
        return fail(NANSCOPE_INVALID_ARGUMENT,
                    "nanscope_declare_op needs a recorder, a graph and out");
    if (inputs == nullptr && num_inputs > 0)
        return fail(NANSCOPE_INVALID_ARGUMENT, "nanscope_declare_op: inputs is NULL");
    nanscope::OpSpec spec;
    spec.graph = graph->handle;
    spec.type = text(op_type);
    spec.name = text(op_name);
    for (std::size_t i = 0; i < num_inputs; ++i)
        spec.inputs.push_back(text(inputs[i]));
    spec.numOutputs = num_outputs;
    auto op = recorder->recorder->declareOp(spec, location(where));
    if (!op)
        return report(op.status());
    std::lock_guard lock(recorder->mutex);
    recorder->ops.push_back({std::move(*op)});
    *out = &recorder->ops.back();
    return NANSCOPE_OK;
}

int32_t nanscope_op_output_tensor_id(const nanscope_op* op, int slot)
{
    if (op == nullptr || slot < 0 || slot >= op->handle.numOutputs())
        return -1;
    return op->handle.outputTensorIds()[static_cast<std::size_t>(slot)];
}

int nanscope_record_trace(nanscope_recorder* recorder, const nanscope_op* op, int slot,
                          nanscope_tensor tensor)
{
    if (recorder == nullptr || op == nullptr)
        return fail(NANSCOPE_INVALID_ARGUMENT, "nanscope_record_trace needs a recorder and an op");
    return report(recorder->recorder->recordTrace(op->handle, slot, view(tensor)));
}

int nanscope_record_execution(nanscope_recorder* recorder, const char* op_type,
                              const nanscope_graph* graph, const int64_t* input_ids,
                              size_t num_inputs, const int64_t* output_ids,
                              const nanscope_tensor* outputs, size_t num_outputs,
                              nanscope_location where)
{
    if (recorder == nullptr)
        return fail(NANSCOPE_INVALID_ARGUMENT, "nanscope_record_execution needs a recorder");
    if ((input_ids == nullptr && num_inputs > 0) ||
        ((output_ids == nullptr || outputs == nullptr) && num_outputs > 0))
        return fail(NANSCOPE_INVALID_ARGUMENT, "nanscope_record_execution: NULL arrays");
    nanscope::ExecutionSpec spec;
    spec.opType = text(op_type);
    spec.graph = graph ? &graph->handle : nullptr;
    spec.inputIds.assign(input_ids, input_ids + num_inputs);
    spec.outputIds.assign(output_ids, output_ids + num_outputs);
    for (std::size_t i = 0; i < num_outputs; ++i)
        spec.outputs.push_back(view(outputs[i]));
    return report(recorder->recorder->recordExecution(spec, location(where)));
}

int64_t nanscope_new_tensor_id(nanscope_recorder* recorder)
{
    return recorder ? recorder->recorder->newTensorId() : -1;
}

const char* nanscope_last_error(void)
{
    return lastError.c_str();
}

const char* nanscope_version(void)
{
    static const std::string version(nanscope::recorderVersion());
    return version.c_str();
}

} // extern "C"
