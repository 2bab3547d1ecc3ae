// SPDX-License-Identifier: Apache-2.0
#include "opobserver.hpp"

#include "opframes.hpp"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <algorithm>
#include <atomic>
#include <c10/core/GradMode.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <cstring>
#include <exception>
#include <torch/csrc/autograd/anomaly_mode.h>
#include <unordered_map>

namespace nanscope::python {

// An op frame's start, kept for its end: RecordFunction gives the inputs only at the start.
struct OpObserver::Frame : at::ObserverContext
{
    const char* opType = nullptr;
    bool anomalyCheck = false;
    bool returnsValues = false; // the op's schema names results
    // Exceptions in flight as the op started: more at its end, and the op is failing (its frame
    // closes as the exception unwinds it), so it made nothing to record.
    int exceptionsInFlight = 0;
    std::int64_t sequence = -1;
    std::vector<at::Tensor> inputs;
};

namespace {

// The observer that records, or nullptr. Observers are never freed (see retire), so a callback
// that read this pointer can use it even while another thread detaches it.
std::atomic<OpObserver*> g_active{nullptr};

// What a thread knows between its frames.
struct ThreadState
{
    OpFrames frames;
    BackwardLinks backward;
    PyObject* moduleNames = nullptr; // borrowed from `namesOwner`
    const OpObserver* namesOwner = nullptr;
    // This thread's callback, while registered. One that a recording ended on another thread
    // could not remove (a thread-local callback goes only from its own thread) is replaced when
    // the thread observes again, so that no op is recorded twice.
    std::optional<std::uint64_t> callback;
};
thread_local ThreadState t_thread;

struct OpInfo
{
    std::string name;
    bool composite = false;     // decomposes into other ops
    bool anomalyCheck = false;  // what anomaly detection runs after each backward node
    bool returnsValues = false; // its schema names results, which a finished call hands over
};

// Ops by the address of their schema's name, which RecordFunction hands every call; checked
// against the text, since a name RecordFunction was given as a string may move.
const OpInfo& opInfo(const at::RecordFunction& fn)
{
    thread_local std::unordered_map<const char*, OpInfo> known;
    const char* name = fn.name();
    auto [it, inserted] = known.try_emplace(name);
    OpInfo& info = it->second;
    if (!inserted && info.name == name)
        return info;
    info = OpInfo{name};
    // A frame that names no registered op is no op of the program's.
    info.composite = true;
    if (const auto op = fn.operator_name())
        if (const auto handle = c10::Dispatcher::singleton().findOp(*op)) {
            info.composite =
                handle->hasKernelForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd);
            info.returnsValues = handle->hasSchema() && !handle->schema().returns().empty();
        }
    info.anomalyCheck = info.name == "aten::isnan" || info.name == "aten::any" ||
                        info.name == "aten::_local_scalar_dense";
    return info;
}

// The tensors in an op's inputs or outputs; not the wrapped numbers that torch makes of a Python
// scalar (0.1 * x), which a dispatch mode sees as the scalar.
void collectTensors(const c10::IValue& value, std::vector<at::Tensor>& out, int depth = 4)
{
    if (value.isTensor()) {
        const at::Tensor& t = value.toTensor();
        if (t.defined() && !t.unsafeGetTensorImpl()->is_wrapped_number())
            out.push_back(t);
    } else if (depth <= 0) {
        return;
    } else if (value.isTensorList()) {
        for (const at::Tensor& t : value.toTensorVector())
            if (t.defined())
                out.push_back(t);
    } else if (value.isList()) {
        for (const c10::IValue& element : value.toListRef())
            collectTensors(element, out, depth - 1);
    } else if (value.isTuple()) {
        for (const c10::IValue& element : value.toTupleRef().elements())
            collectTensors(element, out, depth - 1);
    }
}

c10::DispatchKeySet excludedKeys()
{
    return c10::impl::tls_local_dispatch_key_set().excluded_;
}

// The observer that records this thread's ops, or nullptr. A thread that observed for a
// recording since ended (from another thread, which could not remove this thread's callback)
// records nothing into a later one; autograd's threads, which inherit callbacks and never
// observe themselves, record into the active one.
OpObserver* observerOf(const ThreadState& thread)
{
    OpObserver* observer = g_active.load(std::memory_order_acquire);
    if (thread.namesOwner != nullptr && thread.namesOwner != observer)
        return nullptr;
    return observer;
}

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction& fn)
{
    ThreadState& thread = t_thread;
    OpObserver* observer = observerOf(thread);
    try {
        if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
            thread.frames.enterWrapper(excludedKeys());
            thread.backward.nodeStarts(
                observer ? observer->forwardOf(fn.forwardThreadId(), fn.seqNr()) : nullptr);
            return nullptr;
        }
        const OpInfo* info = nullptr;
        try {
            info = &opInfo(fn);
        } catch (const std::exception&) {
            // Not an op known to the dispatcher: a frame all the same, which onEnd closes.
        }
        const bool composite = info == nullptr || info->composite;
        if (thread.frames.enter(composite, excludedKeys()) != OpFrames::Kind::Op ||
            observer == nullptr)
            return nullptr;
        auto frame = std::make_unique<OpObserver::Frame>();
        frame->opType = info->name.c_str();
        frame->anomalyCheck = info->anomalyCheck;
        frame->returnsValues = info->returnsValues;
        frame->exceptionsInFlight = std::uncaught_exceptions();
        frame->sequence = fn.seqNr();
        for (const c10::IValue& input : fn.inputs())
            collectTensors(input, frame->inputs);
        return frame;
    } catch (const std::exception& e) {
        if (observer)
            observer->countSkipped(std::string("not recorded: ") + e.what());
        return nullptr;
    }
}

void onEnd(const at::RecordFunction& fn, at::ObserverContext* context)
{
    ThreadState& thread = t_thread;
    if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
        thread.frames.leave();
        thread.backward.nodeEnds();
        return;
    }
    const bool isOp = thread.frames.leave() == OpFrames::Kind::Op;
    auto* frame = static_cast<OpObserver::Frame*>(context);
    OpObserver* observer = observerOf(thread);
    if (!isOp || frame == nullptr || observer == nullptr)
        return;
    if (frame->anomalyCheck && torch::autograd::AnomalyMode::is_enabled())
        return;
    // A failing op: its frame closes as the exception unwinds it, or, where the exception
    // count did not show it (seen with torch 2.11 from pip), without the results that only a
    // finished call hands to RecordFunction.
    if (std::uncaught_exceptions() > frame->exceptionsInFlight ||
        (frame->returnsValues && fn.outputs().empty()))
        return;
    try {
        observer->record(*frame, fn.outputs(), thread.backward);
    } catch (const std::exception& e) {
        observer->countSkipped(std::string("not recorded: ") + e.what());
    }
}

// Observers are never freed: a callback on another thread may still hold one (g_active).
void retire(OpObserver* observer)
{
    static std::mutex mutex;
    static std::vector<OpObserver*> retired;
    const std::lock_guard lock(mutex);
    retired.push_back(observer);
}

} // namespace

OpObserver::OpObserver(Recorder& recorder, StackCache& stacks, const StackOptions& stackOptions,
                       AtenDescribeOptions describe)
    : m_recorder(&recorder), m_stacks(stacks), m_stackOptions(stackOptions),
      m_describe(std::move(describe)), m_ids([&recorder] { return recorder.newTensorId(); })
{
    if (!m_describe.readValues)
        m_deferred = std::make_unique<DeferredRecords>(recorder);
    g_active.store(this, std::memory_order_release);
}

OpObserver::~OpObserver() = default;

std::uint64_t OpObserver::observeThisThread(PyObject* moduleNames)
{
    Py_INCREF(moduleNames);
    m_moduleNames.push_back(moduleNames);
    t_thread.moduleNames = moduleNames;
    t_thread.namesOwner = this;
    if (t_thread.callback)
        at::removeCallback(*t_thread.callback);
    auto callback = at::RecordFunctionCallback(&onStart, &onEnd)
                        .needsInputs(true)
                        .needsOutputs(true)
                        .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION});
    t_thread.callback = at::addThreadLocalCallback(callback);
    return *t_thread.callback;
}

void OpObserver::stopObserving(std::uint64_t handle)
{
    at::removeCallback(handle);
    if (t_thread.callback == handle)
        t_thread.callback.reset();
}

void OpObserver::forgetActive()
{
    g_active.store(nullptr, std::memory_order_release);
}

void OpObserver::detach()
{
    OpObserver* self = this;
    g_active.compare_exchange_strong(self, nullptr, std::memory_order_acq_rel);
    const std::unique_lock lock(m_recording); // records in flight end first
    if (m_deferred) {
        for (const auto& [reason, n] : m_deferred->failures())
            m_skipped[reason] += n; // no other thread records now
        m_deferred.reset();         // writes what is queued
    }
    m_recorder = nullptr;
    m_ids.clear();
    m_forwards.clear();
    m_unwritten.clear();
}

void OpObserver::drain()
{
    const std::shared_lock lock(m_recording);
    if (m_deferred)
        m_deferred->drain();
}

void OpObserver::releaseModuleNames()
{
    for (PyObject* names : m_moduleNames)
        Py_DECREF(names);
    m_moduleNames.clear();
    retire(this);
}

std::map<std::string, std::uint64_t> OpObserver::skipped() const
{
    const std::lock_guard lock(m_skippedMutex);
    return m_skipped;
}

void OpObserver::countSkipped(const std::string& reason)
{
    const std::lock_guard lock(m_skippedMutex);
    ++m_skipped[reason];
}

void OpObserver::profilePhases(bool on)
{
    const std::lock_guard lock(m_skippedMutex);
    m_phases.setEnabled(on);
    m_profiling = on;
}

PhaseTimes OpObserver::phaseTimes() const
{
    const std::lock_guard lock(m_skippedMutex);
    return m_phases;
}

void OpObserver::write(ExecutionSpec spec,
                       std::vector<std::unique_ptr<DescribedAtenTensor>> described,
                       const StackCache::Captured& stack)
{
    const auto now = [&](const ExecutionSpec& execution) {
        const Status status =
            stack.id ? m_recorder->recordExecution(execution, *stack.id)
                     : m_recorder->recordExecution(execution,
                                                   std::span<const CodeLocation>(stack.frames));
        if (!status.ok())
            countSkipped("not recorded: " + status.message());
    };
    if (!m_deferred) {
        now(spec);
        return;
    }
    DeferredRecords::Record record{std::move(spec), std::move(described), stack.id,
                                   stack.id ? std::vector<CodeLocation>{} : stack.frames};
    if (!m_deferred->tryPush(record))
        now(record.spec); // the queue is full
}

StackCache::Captured OpObserver::captureStack(std::string& modulePath)
{
    const PyGILState_STATE gil = PyGILState_Ensure();
    StackCache::Captured stack = m_stacks.capture(*m_recorder, m_stackOptions);
    if (t_thread.namesOwner == this)
        modulePath = modulePathAt(t_thread.moduleNames, stack.moduleCalls);
    PyGILState_Release(gil);
    return stack;
}

void OpObserver::record(const Frame& frame, const std::vector<c10::IValue>& outputs,
                        BackwardLinks& backward)
{
    const std::shared_lock lock(m_recording);
    if (m_recorder == nullptr)
        return;
    PhaseTimes phases;
    phases.setEnabled(m_profiling.load(std::memory_order_relaxed));
    phases.begin();
    std::vector<at::Tensor> results;
    for (const c10::IValue& output : outputs)
        collectTensors(output, results);
    phases.lap(Phase::FindTensors);

    ExecutionSpec spec;
    spec.opType = frame.opType;
    m_ids.idsOf(frame.inputs, spec.inputIds);
    m_ids.idsOf(results, spec.outputIds);
    phases.lap(Phase::TensorIds);
    const bool unwritten = m_unwritten.noteOp(spec.opType, spec.inputIds, spec.outputIds);
    std::vector<std::unique_ptr<DescribedAtenTensor>> described;
    described.reserve(results.size());
    bool onDevice = false;
    for (const at::Tensor& t : results) {
        described.push_back(describeAtenTensor(t, m_describe));
        if (unwritten)
            described.back()->view.dtype = DType::Invalid; // no values: see UnwrittenTensors
        if (!described.back()->skipReason.empty())
            countSkipped(described.back()->skipReason);
        onDevice = onDevice || described.back()->view.space == MemorySpace::Device;
        spec.outputs.push_back(described.back()->view);
    }
    if (onDevice)
        spec.device = "/job:localhost/replica:0/task:0/device:GPU:0";
    phases.lap(Phase::Describe);

    StackCache::Captured stack = captureStack(spec.context.modulePath);
    phases.lap(Phase::Stack);
    const ForwardOp* backwardOf = backward.forwardOf(spec.opType, stack.id);
    if (backwardOf) {
        spec.context.forwardOpType = backwardOf->opType;
        spec.context.forwardModulePath = backwardOf->modulePath;
        spec.context.forwardStackId = backwardOf->stackId;
        if (!backwardOf->stackId)
            spec.context.forwardStack = backwardOf->stack;
        if (spec.context.modulePath.empty())
            spec.context.modulePath = backwardOf->modulePath;
    }
    // Only an op with an input that requires grad made an autograd node, which its backward
    // ops will name.
    const bool linked = !backwardOf && frame.sequence >= 0 && c10::GradMode::is_enabled() &&
                        std::any_of(frame.inputs.begin(), frame.inputs.end(),
                                    [](const at::Tensor& t) { return t.requires_grad(); });
    std::shared_ptr<ForwardOp> forward;
    if (linked) {
        forward = std::make_shared<ForwardOp>();
        forward->opType = frame.opType;
        forward->modulePath = spec.context.modulePath;
        forward->stackId = stack.id;
        if (!stack.id)
            forward->stack = stack.frames;
    }
    phases.lap(Phase::Context);
    write(std::move(spec), std::move(described), stack);
    phases.lap(Phase::Write);
    if (forward)
        m_forwards.remember(at::RecordFunction::currentThreadId(), frame.sequence,
                            std::move(forward));
    if (phases.enabled()) {
        phases.lap(Phase::Forward);
        const std::lock_guard totals(m_skippedMutex);
        m_phases.add(phases);
    }
}

} // namespace nanscope::python
