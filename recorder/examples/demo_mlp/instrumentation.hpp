// SPDX-License-Identifier: Apache-2.0
// Records the demo the way TensorFlow's dumping callback records a Python program: the graphs
// of its tf.functions with their ops, a trace for each graph tensor computed, and an execution
// for each eager op or function call. Everything is a no-op when recording is off.
#pragma once

#include "nanscope/recorder.hpp"
#include "tensor.hpp"

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nanscope::demo {

template <typename T>
constexpr DType dtypeOf();
template <>
constexpr DType dtypeOf<float>()
{
    return DType::Float32;
}
template <>
constexpr DType dtypeOf<std::int32_t>()
{
    return DType::Int32;
}
template <>
constexpr DType dtypeOf<std::int64_t>()
{
    return DType::Int64;
}
template <>
constexpr DType dtypeOf<std::uint8_t>()
{
    return DType::UInt8;
}
template <>
constexpr DType dtypeOf<Bool>()
{
    return DType::Bool;
}

template <typename T>
TensorView view(const Tensor<T>& t)
{
    return {.data = t.data(), .dtype = dtypeOf<T>(), .shape = t.shape};
}

// A tensor that view() describes to the recorder (found by argument-dependent lookup, so that
// the GPU demo's device tensors qualify too).
template <typename T>
concept Viewable = std::same_as<decltype(view(std::declval<const T&>())), TensorView>;

// What binds a forwarding reference `T&&` as a temporary: a named tensor makes T a reference.
template <typename T>
concept ViewableTemporary = Viewable<T> && !std::is_reference_v<T>;

// A scalar resource handle (a variable's VarHandleOp output): it has no values to record.
inline TensorView resourceView()
{
    return {.data = nullptr, .dtype = DType::Resource, .shape = {}};
}

// Thrown when the recording stopped at its first non-finite value
// (--stop_at_first_nonfinite): the program ends there, with the stop's message.
class StoppedAtNonFinite : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The recorder of one run, or none; prints the first recording error once and carries on, but
// throws StoppedAtNonFinite when the recording stopped at a non-finite value.
class Instrumentation
{
public:
    Instrumentation() = default;
    // `program` names the demo in the message of the first recording error.
    explicit Instrumentation(std::unique_ptr<Recorder> recorder,
                             std::string program = "nanscope-demo-mlp");
    ~Instrumentation();
    Instrumentation(const Instrumentation&) = delete;
    Instrumentation& operator=(const Instrumentation&) = delete;

    bool enabled() const { return m_recorder != nullptr; }
    Recorder* recorder() const { return m_recorder.get(); }

    // The device that ops and executions name (the recorder's CPU default when empty).
    void setDeviceName(std::string name) { m_deviceName = std::move(name); }
    const std::string& deviceName() const { return m_deviceName; }

    // False (after reporting it if it is the first error) when `status` is an error.
    bool check(const Status& status);

    // A TensorFlow uid: an eager tensor id, also used as the suffix of function names.
    std::int64_t newUid();

    // TensorFlow's unnamed outermost graph, declared on first use; null when off or failed.
    const GraphHandle* outermostGraph();

    // Records one eager op execution or function call (`graph` set) and returns the eager ids
    // of its outputs, one per element of `outputs` (zeros when off).
    std::vector<std::int64_t> execute(std::string_view opType, const GraphHandle* graph,
                                      std::vector<std::int64_t> inputIds,
                                      std::vector<TensorView> outputs,
                                      std::source_location where = std::source_location::current());

    // Flushes and closes the logdir; its path when recording was on, nullopt otherwise.
    std::optional<std::string> close();

private:
    std::unique_ptr<Recorder> m_recorder;
    std::string m_program = "nanscope-demo-mlp";
    std::string m_deviceName;
    std::optional<GraphHandle> m_outermost;
    bool m_outermostFailed = false;
    bool m_reported = false;
    std::int64_t m_offUids = 0;
};

struct OpDef
{
    std::string type;
    std::string name;                // unique in its graph
    std::vector<std::string> inputs; // "op_name[:slot]" of ops of the same graph
    int numOutputs = 1;
};

// The graph of one traced tf.function. Each op is declared the first time its line runs, with
// that line as its creation stack, and every run of the line records a trace of its outputs,
// except for the op types TensorFlow does not instrument (Identity, StatefulPartitionedCall …).
// Resource Placeholders are only declared: a handle has no values to trace.
class FunctionGraph
{
public:
    enum class Kind {
        Inference, // a forward function: graph "name", calls "__inference_name_<uid>"
        Backward,  // a gradient function: graph and calls "__backward_name_<uid>"
    };

    FunctionGraph(Instrumentation& instrumentation, std::string name, Kind kind,
                  FunctionGraph* outer = nullptr);

    void declare(const OpDef& def, std::source_location where = std::source_location::current());

    // Declares the op if needed and records `value` as its output 0; returns `value`. Any
    // tensor the recorder can view will do: host tensors here, device tensors in the GPU demo,
    // so that the model's functions are written once for both (mlp_gradients.hpp).
    template <Viewable T>
    const T& op(const OpDef& def, const T& value,
                std::source_location where = std::source_location::current())
    {
        if (m_instrumentation.enabled()) {
            declare(def, where);
            trace(def.name, 0, view(value));
        }
        return value;
    }

    // A temporary is moved into the result (a named tensor takes the overload above).
    template <ViewableTemporary T>
    T op(const OpDef& def, T&& value, std::source_location where = std::source_location::current())
    {
        op(def, static_cast<const T&>(value), where);
        return std::forward<T>(value);
    }

    // The same for an op with several outputs, e.g. a nested function call: `value` describes
    // them with a views() method that returns one TensorView per output.
    template <typename R>
    requires requires(const R& r) { r.views(); }
    R op(const OpDef& def, R&& value, std::source_location where = std::source_location::current())
    {
        if (m_instrumentation.enabled()) {
            declare(def, where);
            int slot = 0;
            for (const TensorView& output : value.views())
                trace(def.name, slot++, output);
        }
        return std::forward<R>(value);
    }

    // Records output `slot` of an op declared earlier; ops of the types TensorFlow does not
    // instrument (Identity, StatefulPartitionedCall …) are skipped.
    void trace(const std::string& opName, int slot, const TensorView& value);

    // The graph, declared on first use; null when off or failed.
    const GraphHandle* handle();
    // The eager op type of a call of this function.
    const std::string& callName();

    // Records an eager call of this function; returns the ids of its outputs.
    std::vector<std::int64_t> call(std::vector<std::int64_t> inputIds,
                                   std::vector<TensorView> outputs,
                                   std::source_location where = std::source_location::current());

private:
    Instrumentation& m_instrumentation;
    std::string m_name;
    Kind m_kind;
    FunctionGraph* m_outer;
    std::optional<GraphHandle> m_graph;
    bool m_graphFailed = false;
    std::string m_callName;
    std::unordered_map<std::string, OpHandle> m_ops; // invalid handles for failed declarations
};

} // namespace nanscope::demo
