// SPDX-License-Identifier: Apache-2.0
// NaNscope's recorder: writes tfdbg2 logdirs that TensorFlow's reader, TensorBoard's Debugger V2
// and NaNscope open, from any C++ program.
//
//   auto recorder = nanscope::Recorder::open({.dumpRoot = "/tmp/logdir",
//                                             .mode = nanscope::TensorDebugMode::FullHealth});
//   auto graph = recorder->declareGraph("loss");
//   auto log = recorder->declareOp({.graph = *graph, .type = "Log", .name = "Log",
//                                   .inputs = {"probs:0"}});
//   recorder->recordTrace(*log, 0, {.data = p, .dtype = nanscope::DType::Float32, .shape = dims});
//
// Every method is thread-safe. Errors come back as Status values; the recorder never throws,
// never aborts the program, and keeps working after an I/O error where it can.
#pragma once

#include "nanscope/dtype.hpp"
#include "nanscope/export.h"
#include "nanscope/status.hpp"
#include "nanscope/tensordebugmode.hpp"
#include "nanscope/tensorview.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <source_location>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope {

// The version string written into every logdir's metadata record.
NANSCOPE_API std::string_view recorderVersion();

// Whether this build and this machine can record tensors in device memory: the build has CUDA
// and the process sees a usable CUDA device.
NANSCOPE_API bool deviceTensorsSupported();

struct NonFiniteStop; // below: where a recording stopped

struct RecorderOptions
{
    std::filesystem::path dumpRoot; // created (with parents) if missing
    TensorDebugMode mode = TensorDebugMode::NoTensor;
    // TensorFlow's semantics: > 0 keeps only the last N executions and the last N graph
    // execution traces, written at flush() and close(); <= 0 writes every event as it comes.
    int circularBufferSize = 1000;
    // Only ops whose type matches from its start are summarised (TensorFlow's op_regex), in
    // ECMAScript syntax. Refused at open, because a backtracking engine could hang the program on
    // them: a repeat of a repeat ("a++", "x*{2}", as Python's re refuses it), an unbounded repeat
    // of a group holding one ("(a+)+"), counts over 1000 or nesting to over 100,000 atoms
    // ("(a{500}){500}"), and backreferences past \99.
    // Whatever the filter, in the modes that read values (the health modes, FULL_TENSOR) the
    // outputs of ops that allocate without writing (aten::empty, aten::empty_like,
    // aten::new_empty, aten::resize_ and their kin, TensorFlow's Empty) are never summarised:
    // their bits are no value. Their executions and traces are recorded as those of an op the
    // filter leaves out.
    std::string opTypeRegex;
    // Only tensors of these types are summarised; empty means every type the mode supports.
    std::vector<DType> tensorDtypes;
    // Shared by every host of one run; empty: 8 random hex digits. A dump root that already
    // holds another run is refused (AlreadyExists): TensorFlow's reader cannot read it.
    //
    // A run on several hosts is written as TensorFlow writes it, the only layout its reader
    // reads: the first host to open (the earliest metadata) declares the graphs and ops and
    // records the executions; every host records its own graph execution traces, with the
    // OpHandles of the first host's ops. TensorFlow's reader reads only the first host's graphs,
    // executions, stack frames and source files.
    std::string runId;
    std::string hostName; // empty: this machine's host name
    // In write-through mode, the longest time an event waits in memory before it is written.
    std::chrono::milliseconds flushInterval{100};
    // Also capture the full native call stack (symbolised, demangled) of every op creation
    // and execution, in addition to the caller's file, line and function.
    bool captureNativeStacks = false;
    // Source files larger than this are recorded without their text.
    std::size_t maxSourceFileBytes = 8u << 20;
    // Flush and close this recorder when the program exits normally.
    bool closeAtExit = true;
    // Opt-in: when the program crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT — abort() and
    // failed assertions included), write the events this recorder holds in memory — the
    // circular buffers' last events too — before the program dies. The handler is installed for
    // the whole process when the first such recorder opens; it then calls the handler that was
    // installed before it (or the default action), so core dumps, exit statuses and the
    // program's own crash handling are unchanged. A handler the program installs later replaces
    // it. It only writes records already serialised, never blocks (a file another thread is
    // writing at that moment is skipped, with the files that may refer to it), checks each
    // record's CRCs before writing it, and allocates nothing. Events waiting for device
    // summaries, and a crash on a thread whose stack overflowed (the handler needs an alternate
    // signal stack, sigaltstack(), on that thread), are not covered.
    bool flushOnCrash = false;

    // Stop at the first non-finite value the program did not make on purpose. The values set
    // aside are those of NaNscope's analysis, decided as the ops come: the outputs of ops that
    // write the program's constants (masked_fill, where, full, Fill, Select … from finite
    // inputs), of ops matching `expectedNonFinite` or the dump root's nanscope_expected.txt,
    // what ops carry on from them unchanged, and infinities until an op turns them into NaN
    // or takes them out of the record (item()): a −∞ that softmax absorbs is a mask, one that
    // becomes NaN is the origin. The first NaN (or, in CURT_HEALTH, which does not tell NaN
    // from ∞, the first non-finite value) that none of these explains stops the recording:
    // everything recorded up to it is written and synced, `onNonFiniteStop` is called, and
    // that recording call and every later one return ErrorCode::NonFinite with the stop's
    // message, recording nothing more. Needs a mode that reads values (CURT_HEALTH,
    // CONCISE_HEALTH, FULL_HEALTH, FULL_TENSOR); ops and dtypes the filters leave out are not
    // watched.
    bool stopAtFirstNonFinite = false;
    // OP[:KINDS] patterns (nanscope/intendedvalues.hpp): "aten::log:-inf", "Select*:nan".
    std::vector<std::string> expectedNonFinite;
    // Device tensors are summarised asynchronously, so a stop is noticed when their counts are
    // back: at most this many events (executions or traces) recorded after the one that made
    // the value, since a recording call waits for the summaries of older ones. 0 is strict: each
    // recording call waits for its own summaries (a synchronisation per op).
    int stopLagEvents = 64;
    // Called once, on the thread that noticed the stop, after the files were synced.
    std::function<void(const NonFiniteStop&)> onNonFiniteStop;
};

class Recorder;

// Where in the program an op was created or executed. Converts implicitly from
// std::source_location, so that the recorder's default arguments name the caller.
struct NANSCOPE_API CodeLocation
{
    CodeLocation(std::source_location where); // NOLINT(google-explicit-constructor)
    CodeLocation(std::string file, int line, std::string function);

    std::string file;     // made absolute by the recorder
    int line = 0;         // 1-based; 0 when unknown
    std::string function; // "ns::Class::method", without return type or parameters
};

// A graph declared with Recorder::declareGraph (a tfdbg2 DebuggedGraph).
struct GraphHandle
{
    std::string id; // the debugger graph id (a UUID string)
    std::string name;
};

namespace detail {
struct OpState;
}

// An op declared with Recorder::declareOp (a tfdbg2 GraphOpCreation).
class NANSCOPE_API OpHandle
{
public:
    OpHandle() = default;
    bool valid() const { return m_state != nullptr; }
    const std::string& graphId() const;
    const std::string& name() const;
    const std::string& type() const;
    int numOutputs() const;
    // The symbolic id of each output (tfdbg2's output_tensor_ids), unique across graphs.
    const std::vector<std::int32_t>& outputTensorIds() const;

private:
    friend class Recorder;
    explicit OpHandle(std::shared_ptr<const detail::OpState> state) : m_state(std::move(state)) {}
    std::shared_ptr<const detail::OpState> m_state;
};

struct OpSpec
{
    GraphHandle graph;
    std::string type; // "MatMul"
    std::string name; // unique within its graph: "dense/MatMul"
    // Data inputs as "op_name:slot" ("x" is written as "x:0"), each naming an output of an op
    // declared before in the same graph, as TensorFlow creates ops; control inputs ("^x") and
    // op names holding a ':' are refused, since TensorFlow's reader cannot split them.
    std::vector<std::string> inputs;
    int numOutputs = 1;
    std::string device; // optional; tfdbg2 readers ignore it
};

// One graph tensor for Recorder::recordTraces.
struct TraceSpec
{
    OpHandle op;
    int slot = 0; // the output slot of `op`
    TensorView tensor;
};

// A call stack registered once with Recorder::internStack and named by id from then on: how a
// recorder for an interpreter passes the stack of every op without sending its frames again.
struct StackId
{
    std::uint32_t index = 0;
};

// What a framework knows about an eager op beyond TensorFlow's fields; written where
// TensorFlow's readers skip it. Empty fields are not written.
struct FrameworkContext
{
    // The module the op ran in, outermost first, joined by '.' ("MLP.layers.3.attn").
    std::string modulePath;
    // For an op of a backward pass, the forward op it differentiates, where the framework tells.
    std::string forwardOpType;
    std::string forwardModulePath;
    std::vector<CodeLocation> forwardStack; // outermost first
    std::optional<StackId> forwardStackId;  // instead of forwardStack, when it was interned

    bool empty() const
    {
        return modulePath.empty() && forwardOpType.empty() && forwardModulePath.empty() &&
               forwardStack.empty() && !forwardStackId;
    }
};

// An op that RecorderOptions::stopAtFirstNonFinite names.
struct NonFiniteOp
{
    std::string opType;
    std::string opName;     // graph ops only
    std::string modulePath; // eager ops whose framework context names one
    std::string kinds; // what it made: "nan", "-inf", "inf,nan" …; "non-finite" in CURT_HEALTH
    std::vector<CodeLocation> stack; // outermost first
};

// Why a recording stopped at its first non-finite value.
struct NonFiniteStop
{
    // The op that made the first non-finite value that is not intended.
    NonFiniteOp origin;
    // When the origin made infinities (or loss scaling's overflow): the op that turned them into
    // NaN, took them out of the record or used them after the loss scaler caught them, where the
    // stop came.
    std::optional<NonFiniteOp> stoppedAt;
    // What stoppedAt did with the value: "turned into nan", "took out of the record", "read
    // after the loss scaler had caught it …"; empty without stoppedAt.
    std::string stoppedHow;
    // Events recorded after the one that stopped, before the stop was noticed (device summaries).
    std::uint64_t eventsLate = 0;
    std::filesystem::path logdir;
    std::string message; // one paragraph naming all of the above
};

struct ExecutionSpec
{
    std::string opType;                  // op type, or a function name for a graph call
    const GraphHandle* graph = nullptr;  // the called graph, for a function call
    std::vector<std::int64_t> inputIds;  // eager tensor ids (Recorder::newTensorId)
    std::vector<std::int64_t> outputIds; // one per output
    std::vector<TensorView> outputs;     // one per output; values summarised per mode
    std::string device = "/job:localhost/replica:0/task:0/device:CPU:0";
    FrameworkContext context;
};

class NANSCOPE_API Recorder
{
public:
    // Creates the logdir's six files and writes the metadata record.
    static Result<std::unique_ptr<Recorder>> open(RecorderOptions options);

    ~Recorder(); // closes
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    const RecorderOptions& options() const;
    const std::string& runId() const;
    // The path of the file set without its suffix: <dumpRoot>/tfdbg_events.<time>.<host>
    const std::filesystem::path& filePrefix() const;

    // Declares a graph inside `outer` (or at the outermost level). Outer graphs must be
    // declared first. `name` may be empty (TensorFlow's unnamed outermost graph).
    Result<GraphHandle> declareGraph(std::string_view name, const GraphHandle* outer = nullptr);

    // Declares an op; `where` becomes its creation stack (with the native stack when enabled).
    Result<OpHandle> declareOp(const OpSpec& spec,
                               const CodeLocation& where = std::source_location::current());

    // Records one computation of output `slot` of `op` inside its graph. Tensors that the mode,
    // the op-type filter or the dtype filter exclude are skipped (an Ok status).
    //
    // A tensor in device memory (TensorView::space == MemorySpace::Device) is read on its stream
    // by builds with CUDA: the summary kernel is enqueued on that stream during the call, so
    // later work on the stream may overwrite or free the tensor. The trace is written when the
    // counts are back, in the order of the calls, by a background thread that looks every
    // millisecond while any wait (flush() and close() wait for them); the call itself only
    // launches and queues. FULL_TENSOR copies the values to the host and waits for the copy.
    // Without CUDA, or without a usable device, device tensors are refused with
    // ErrorCode::Unsupported.
    Status recordTrace(const OpHandle& op, int slot, const TensorView& tensor);

    // Records several graph tensors as recordTrace would, one after the other, but all or
    // nothing: when one cannot be recorded its error is returned and none is. The device tensors
    // among them are summarised together by one kernel launch, so recording a whole training
    // step's tensors costs one launch and one copy back.
    Status recordTraces(std::span<const TraceSpec> traces);

    // Records one eager op execution or function call. Outputs in device memory are read as in
    // recordTrace, all of them by one kernel launch.
    Status recordExecution(const ExecutionSpec& spec,
                           const CodeLocation& where = std::source_location::current());
    // The same with the whole call stack, outermost first, as an interpreter knows it (the
    // frames of a Python program, as TensorFlow records them). Every frame's source file is
    // recorded once; the native stack option does not apply.
    Status recordExecution(const ExecutionSpec& spec, std::span<const CodeLocation> stack);
    // The same with a stack interned before: the per-op cost of a stack is then a lookup.
    Status recordExecution(const ExecutionSpec& spec, StackId stack);

    // Registers a whole call stack, outermost first, writing its frames and source files now.
    // At most kMaxInternedStacks are kept (Unsupported beyond: pass the frames themselves then),
    // so that a program whose stacks never repeat cannot grow the recorder without bound.
    static constexpr std::size_t kMaxInternedStacks = std::size_t{1} << 16;
    Result<StackId> internStack(std::span<const CodeLocation> stack);

    // A fresh eager tensor id (process-wide, increasing).
    std::int64_t newTensorId();

    // The id of a device name (1, 2, … in first-seen order); writes a DebuggedDevice record the
    // first time a name is seen.
    Result<std::int32_t> registerDevice(std::string_view deviceName);

    // Writes everything held in memory (draining the circular buffers) and syncs the files.
    Status flush();
    // Flushes and closes the files; later calls return ErrorCode::Closed.
    Status close();

    // The first I/O error met since the recorder was opened (Ok if none).
    Status firstError() const;

    // Where the recording stopped (RecorderOptions::stopAtFirstNonFinite), once it has.
    std::optional<NonFiniteStop> nonFiniteStop() const;

    // Counters, for tests and benchmarks.
    struct Stats
    {
        std::uint64_t tracesRecorded = 0; // accepted by recordTrace (before circular buffering)
        std::uint64_t tracesSkipped = 0;  // excluded by mode or filters
        std::uint64_t executionsRecorded = 0;
        std::uint64_t bytesWritten = 0;   // reached the files
        std::uint64_t recordsDropped = 0; // lost to I/O errors
    };
    Stats stats() const;

    struct Impl;

private:
    explicit Recorder(std::unique_ptr<Impl> impl);
    Status recordExecution(const ExecutionSpec& spec, std::span<const CodeLocation> stack,
                           bool callerOnly, const StackId* interned);
    std::unique_ptr<Impl> m_impl;
};

} // namespace nanscope
