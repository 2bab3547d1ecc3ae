// SPDX-License-Identifier: Apache-2.0
// _nanscope: the recorder for Python frameworks. One call per op does everything per-op in C++:
// finding the tensors, their ids, their memory, the Python stack and the summaries. The Python
// package (nanscope.torch) only hooks the framework and calls it.
#include "forwardops.hpp"
#include "nanscope/recorder.hpp"
#include "phasetimes.hpp"
#include "pystack.hpp"
#include "tensorids.hpp"
#include "tensorwalk.hpp"
#ifdef NANSCOPE_TORCH_OBSERVER
#include "opobserver.hpp"
#endif

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <regex>
#include <string>
#include <vector>

namespace py = pybind11;

namespace nanscope::python {
namespace {

// The error a Status becomes in Python.
[[noreturn]] void raise(const Status& status)
{
    switch (status.code()) {
    case ErrorCode::InvalidArgument:
        throw py::value_error(status.message());
    case ErrorCode::AlreadyExists:
        PyErr_SetString(PyExc_FileExistsError, status.message().c_str());
        throw py::error_already_set();
    case ErrorCode::IoError:
        PyErr_SetString(PyExc_OSError, status.message().c_str());
        throw py::error_already_set();
    default:
        throw std::runtime_error(status.message());
    }
}

TorchVocabulary g_torch;
StackOptions g_stack;
// Raised by record() when the recording stopped at its first non-finite value; nanscope.torch
// turns it into NonFiniteError with the stop's description (PyRecorder::nonFiniteStop).
PyObject* g_stopSignal = nullptr;

py::object describeOp(const NonFiniteOp& op)
{
    py::list stack;
    for (const CodeLocation& frame : op.stack)
        stack.append(py::make_tuple(frame.file, frame.line, frame.function));
    py::dict d;
    d["op_type"] = op.opType;
    d["op_name"] = op.opName;
    d["module_path"] = op.modulePath;
    d["kinds"] = op.kinds;
    d["stack"] = stack;
    return d;
}

class PyRecorder
{
public:
    PyRecorder(const std::string& dumpRoot, const std::string& mode, int circularBufferSize,
               const std::string& opRegex, const std::vector<int>& dtypes, const std::string& runId,
               const std::string& hostName, bool stopAtFirstNonFinite,
               const std::vector<std::string>& expectedNonFinite, int stopLagEvents)
    {
        RecorderOptions options;
        options.stopAtFirstNonFinite = stopAtFirstNonFinite;
        options.expectedNonFinite = expectedNonFinite;
        options.stopLagEvents = stopLagEvents;
        options.dumpRoot = dumpRoot;
        options.runId = runId;       // empty: a random one
        options.hostName = hostName; // empty: this machine's
        const auto parsed = parseTensorDebugMode(mode);
        if (!parsed)
            throw py::value_error("unknown tensor_debug_mode \"" + mode +
                                  "\": use NO_TENSOR, CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH, "
                                  "SHAPE or FULL_TENSOR");
        options.mode = *parsed;
        options.circularBufferSize = circularBufferSize;
        options.opTypeRegex = opRegex;
        for (const int d : dtypes)
            options.tensorDtypes.push_back(static_cast<DType>(d));
        // Python programs end through the interpreter's own exit, which the package hooks.
        options.closeAtExit = true;
        auto recorder = Recorder::open(std::move(options));
        if (!recorder)
            raise(recorder.status());
        m_recorder = std::move(*recorder);
        m_readValues = *parsed != TensorDebugMode::NoTensor && *parsed != TensorDebugMode::Shape;
        m_deviceSupported = deviceTensorsSupported();
        m_orderMatters = *parsed == TensorDebugMode::FullTensor;
        m_ids = std::make_unique<TensorIds>([this] { return m_recorder->newTensorId(); });
    }

    ~PyRecorder()
    {
        try {
            stopObserver();
        } catch (...) { // NOLINT(bugprone-empty-catch): nothing to report to at destruction
        }
        m_ids.reset();
    }

    // Records one op. `moduleNames` is the thread's stack of module paths (a list of str), of
    // which the entry at the current module-call depth names the op's module. Returns the
    // forward op's description when `wantForward` (for the autograd hooks), else None.
    py::object record(const std::string& opType, py::handle args, py::handle kwargs,
                      py::handle outputs, py::handle moduleNames, py::handle forward,
                      bool wantForward)
    {
        if (!m_recorder)
            return py::none(); // abandoned in a forked child
        m_phases.begin();
        std::vector<PyObject*> inputs;
        collectTensors(args.ptr(), g_torch.tensorType, inputs);
        collectTensors(kwargs.ptr(), g_torch.tensorType, inputs);
        std::vector<PyObject*> results;
        collectTensors(outputs.ptr(), g_torch.tensorType, results);
        m_phases.lap(Phase::FindTensors);

        ExecutionSpec spec;
        spec.opType = opType;
        spec.inputIds.reserve(inputs.size());
        for (PyObject* t : inputs)
            spec.inputIds.push_back(m_ids->idOf(t));
        spec.outputIds.reserve(results.size());
        for (PyObject* t : results)
            spec.outputIds.push_back(m_ids->idOf(t));
        m_phases.lap(Phase::TensorIds);
        std::vector<std::unique_ptr<DescribedTensor>> described;
        described.reserve(results.size());
        const DescribeOptions options{m_readValues, m_deviceSupported, m_orderMatters};
        bool onDevice = false;
        for (PyObject* t : results) {
            described.push_back(describeTensor(t, g_torch, options));
            if (!described.back()->skipReason.empty())
                ++m_skipped[described.back()->skipReason];
            onDevice = onDevice || described.back()->view.space == MemorySpace::Device;
            spec.outputs.push_back(described.back()->view);
        }
        if (onDevice)
            spec.device = "/job:localhost/replica:0/task:0/device:GPU:0";
        m_phases.lap(Phase::Describe);

        StackCache::Captured stack = m_stacks.capture(*m_recorder, g_stack);
        m_phases.lap(Phase::Stack);
        spec.context.modulePath = modulePathAt(moduleNames.ptr(), stack.moduleCalls);
        if (!forward.is_none()) {
            const auto& f = *forward.cast<std::shared_ptr<ForwardOp>>();
            spec.context.forwardOpType = f.opType;
            spec.context.forwardModulePath = f.modulePath;
            spec.context.forwardStackId = f.stackId;
            if (!f.stackId)
                spec.context.forwardStack = f.stack;
            if (spec.context.modulePath.empty())
                spec.context.modulePath = f.modulePath;
        }
        m_phases.lap(Phase::Context);
        Status status;
        {
            // The tensors stay alive: the caller holds them.
            py::gil_scoped_release release;
            status = stack.id ? m_recorder->recordExecution(spec, *stack.id)
                              : m_recorder->recordExecution(
                                    spec, std::span<const CodeLocation>(stack.frames));
        }
        if (status.code() == ErrorCode::NonFinite) {
            PyErr_SetString(g_stopSignal, status.message().c_str());
            throw py::error_already_set();
        }
        if (!status.ok()) {
            // The program goes on; the reason is counted (and an I/O error kept by firstError).
            ++m_skipped["not recorded: " + status.message()];
        }
        m_phases.lap(Phase::Write);
        // Only an op with an input that requires grad gets an autograd node to hook.
        if (!wantForward || !anyRequiresGrad(inputs))
            return py::none();
        auto f = std::make_shared<ForwardOp>();
        f->opType = opType;
        f->modulePath = std::move(spec.context.modulePath);
        f->stackId = stack.id;
        f->stack = std::move(stack.frames);
        py::object kept = py::cast(std::move(f));
        m_phases.lap(Phase::Forward);
        return kept;
    }

    // Times record() phase by phase from now on (or stops), for the overhead benchmark.
    void profilePhases(bool on)
    {
        m_phases.setEnabled(on);
#ifdef NANSCOPE_TORCH_OBSERVER
        if (m_observer)
            m_observer->profilePhases(on);
#endif
    }

    // {phase: nanoseconds} since profiling began, and "calls".
    py::dict phaseTimes() const
    {
        PhaseTimes times = m_phases;
#ifdef NANSCOPE_TORCH_OBSERVER
        if (m_observer)
            times.add(m_observer->phaseTimes());
#endif
        py::dict d;
        for (std::size_t i = 0; i < kPhaseNames.size(); ++i)
            d[py::str(kPhaseNames[i].data(), kPhaseNames[i].size())] =
                times.nanoseconds(static_cast<Phase>(i));
        d["calls"] = times.calls();
        return d;
    }

    // The errors are raised once the GIL is back: setting a Python error without it crashed the
    // interpreter (a dump root deleted while recording).
    void flush()
    {
        if (!m_recorder)
            return;
        Status s;
        {
            py::gil_scoped_release release;
#ifdef NANSCOPE_TORCH_OBSERVER
            if (m_observer)
                m_observer->drain();
#endif
            s = m_recorder->flush();
        }
        if (!s.ok())
            raise(s);
    }

    void close()
    {
        if (!m_recorder)
            return;
        stopObserver();
        m_ids->clear();
        m_stacks.clear();
        Status s;
        {
            py::gil_scoped_release release;
            s = m_recorder->close();
        }
        if (!s.ok() && s.code() != ErrorCode::Closed)
            raise(s);
    }

    // In a child made by fork(): the recorder is the parent's, its threads stayed there, and a
    // mutex or condition variable may have been held by one of them. Closing it would join
    // threads that do not exist and write the parent's files; destroying it would destroy
    // primitives in an unknown state. It is left as it is, never freed.
    void abandon()
    {
#ifdef NANSCOPE_TORCH_OBSERVER
        OpObserver::forgetActive();
        m_observer = nullptr; // the parent's, as the recorder: left as it is
#endif
        static_cast<void>(m_recorder.release()); // deliberately leaked
    }

    std::map<std::string, std::uint64_t> skipped() const
    {
        auto counts = m_skipped;
#ifdef NANSCOPE_TORCH_OBSERVER
        if (m_observer)
            for (const auto& [reason, n] : m_observer->skipped())
                counts[reason] += n;
#endif
        return counts;
    }

    // Records the calling thread's ops with the C++ op observer from now on (and the backward
    // passes it runs); `moduleNames` is the thread's stack of module paths. Returns the handle
    // that stopObserving takes on the same thread.
    std::uint64_t observe(const py::list& moduleNames)
    {
#ifdef NANSCOPE_TORCH_OBSERVER
        if (!m_recorder)
            throw std::runtime_error("the recording is closed");
        if (!m_observer) {
            AtenDescribeOptions describe{m_readValues, m_deviceSupported, m_orderMatters,
                                         cachedCurrentStreams(currentStreamReader())};
            m_observer = new OpObserver(*m_recorder, m_stacks, g_stack, std::move(describe));
        }
        return m_observer->observeThisThread(moduleNames.ptr());
#else
        static_cast<void>(moduleNames);
        throw std::runtime_error("this build of nanscope has no C++ op observer");
#endif
    }

    static void stopObserving(std::uint64_t handle)
    {
#ifdef NANSCOPE_TORCH_OBSERVER
        OpObserver::stopObserving(handle);
#else
        static_cast<void>(handle);
#endif
    }

    // Where the recording stopped, as a dict (origin, stopped_at, stopped_how, events_late,
    // logdir, message), or None.
    py::object nonFiniteStop() const
    {
        const auto stop = m_recorder ? m_recorder->nonFiniteStop() : std::nullopt;
        if (!stop)
            return py::none();
        py::dict d;
        d["origin"] = describeOp(stop->origin);
        d["stopped_at"] = stop->stoppedAt ? describeOp(*stop->stoppedAt) : py::none();
        d["stopped_how"] = stop->stoppedHow;
        d["events_late"] = stop->eventsLate;
        d["logdir"] = stop->logdir.string();
        d["message"] = stop->message;
        return d;
    }

    py::dict stats() const
    {
        if (!m_recorder)
            return {};
#ifdef NANSCOPE_TORCH_OBSERVER
        if (m_observer)
            m_observer->drain(); // what was observed is counted
#endif
        const auto s = m_recorder->stats();
        py::dict d;
        d["executions_recorded"] = s.executionsRecorded;
        d["bytes_written"] = s.bytesWritten;
        d["records_dropped"] = s.recordsDropped;
        std::size_t liveIds = m_ids->size();
#ifdef NANSCOPE_TORCH_OBSERVER
        if (m_observer)
            liveIds += m_observer->liveTensorIds();
#endif
        d["live_tensor_ids"] = liveIds;
        return d;
    }

    std::string firstError() const
    {
        return m_recorder ? m_recorder->firstError().message() : std::string();
    }
    std::string runId() const
    {
        return m_recorder ? m_recorder->runId() : std::string();
    }
    std::string hostName() const
    {
        return m_recorder ? m_recorder->options().hostName : std::string();
    }
    std::string filePrefix() const
    {
        return m_recorder ? m_recorder->filePrefix().string() : std::string();
    }

private:
    // Ends the C++ observer's records (waiting for those in flight on other threads); its
    // counts stay for skipped().
    void stopObserver()
    {
#ifdef NANSCOPE_TORCH_OBSERVER
        if (!m_observer)
            return;
        {
            py::gil_scoped_release release; // a record in flight takes the GIL for its stack
            m_observer->detach();
        }
        m_observer->releaseModuleNames();
#endif
    }

#ifdef NANSCOPE_TORCH_OBSERVER
    // The raw stream of a device's current stream, through the package's accessor.
    static std::function<std::optional<void*>(int)> currentStreamReader()
    {
        return [](int device) -> std::optional<void*> {
            if (!g_torch.currentStream)
                return std::nullopt;
            const PyGILState_STATE gil = PyGILState_Ensure();
            PyObject* index = PyLong_FromLong(device);
            PyObject* stream = index ? PyObject_CallOneArg(g_torch.currentStream, index) : nullptr;
            std::optional<void*> handle;
            if (stream && PyLong_Check(stream)) {
                void* raw = PyLong_AsVoidPtr(stream);
                if (!PyErr_Occurred())
                    handle = raw;
            }
            Py_XDECREF(stream);
            Py_XDECREF(index);
            PyErr_Clear();
            PyGILState_Release(gil);
            return handle;
        };
    }

    OpObserver* m_observer = nullptr; // never freed (see OpObserver)
#endif

    static bool anyRequiresGrad(const std::vector<PyObject*>& tensors)
    {
        for (PyObject* t : tensors) {
            PyObject* value = PyObject_GetAttrString(t, "requires_grad");
            const bool needsGrad = value && PyObject_IsTrue(value) == 1;
            Py_XDECREF(value);
            PyErr_Clear();
            if (needsGrad)
                return true;
        }
        return false;
    }

    std::unique_ptr<Recorder> m_recorder;
    std::unique_ptr<TensorIds> m_ids;
    std::map<std::string, std::uint64_t> m_skipped;
    PhaseTimes m_phases;
    StackCache m_stacks;
    bool m_readValues = false;
    bool m_deviceSupported = false;
    bool m_orderMatters = false; // FULL_TENSOR: values go in row-major order
};

// Whether the recorder's matcher (std::regex, ECMAScript) compiles an op_regex, so that Python
// refuses what it would refuse, with the matcher's words.
void checkOpRegex(const std::string& pattern)
{
    try {
        const std::regex compiled(pattern, std::regex::ECMAScript);
        static_cast<void>(compiled);
    } catch (const std::regex_error& e) {
        throw py::value_error("op_regex \"" + pattern +
                              "\" is not a regular expression the recorder can match (ECMAScript, "
                              "as C++'s std::regex reads it): " +
                              e.what());
    }
}

void configure(py::handle tensorType, py::handle strided, const py::dict& dtypes,
               py::handle currentStream, const std::string& skipPrefix, py::handle moduleCallCode)
{
    // Kept for the life of the process: the walk compares against them on every op.
    g_torch.tensorType = tensorType.inc_ref().ptr();
    g_torch.strided = strided.inc_ref().ptr();
    g_torch.currentStream = currentStream.is_none() ? nullptr : currentStream.inc_ref().ptr();
    g_torch.dtypes.clear();
    for (auto [key, value] : dtypes)
        g_torch.dtypes.emplace(key.inc_ref().ptr(), static_cast<DType>(value.cast<int>()));
    g_stack.skipPrefix = skipPrefix;
    g_stack.moduleCallCode = moduleCallCode.is_none() ? nullptr : moduleCallCode.inc_ref().ptr();
}

} // namespace
} // namespace nanscope::python

// One source, two modules (CMakeLists.txt): each keeps its pybind11 types to itself.
PYBIND11_MODULE(NANSCOPE_MODULE_NAME, m)
{
    using namespace nanscope::python;
    m.doc() = "NaNscope's recorder for Python frameworks (use nanscope.torch)";
    m.def("configure", &configure);
    m.def("check_op_regex", &checkOpRegex);
    m.def("recorder_version", [] { return std::string(nanscope::recorderVersion()); });
    m.def("device_tensors_supported", &nanscope::deviceTensorsSupported);
    // dtype.hpp's name and element size of a DataType number, so that a test ties the package's
    // table of torch dtypes to the recorder's.
    m.def("dtype_name", [](int number) {
        return std::string(nanscope::dtypeName(static_cast<nanscope::DType>(number)));
    });
    m.def("dtype_size",
          [](int number) { return nanscope::elementSize(static_cast<nanscope::DType>(number)); });
    m.def("has_op_observer", [] {
#ifdef NANSCOPE_TORCH_OBSERVER
        return true;
#else
        return false;
#endif
    });
    m.def("module_call_depth", [] { return moduleCallDepth(g_stack.moduleCallCode); });
    g_stopSignal = PyErr_NewException(
        (std::string("nanscope.") + PYBIND11_TOSTRING(NANSCOPE_MODULE_NAME) + ".StopSignal")
            .c_str(),
        PyExc_Exception, nullptr);
    m.attr("StopSignal") = py::handle(g_stopSignal);
    py::class_<ForwardOp, std::shared_ptr<ForwardOp>>(m, "ForwardOp", py::module_local())
        .def_readonly("op_type", &ForwardOp::opType)
        .def_readonly("module_path", &ForwardOp::modulePath);
    py::class_<PyRecorder>(m, "Recorder", py::module_local())
        .def(py::init<const std::string&, const std::string&, int, const std::string&,
                      const std::vector<int>&, const std::string&, const std::string&, bool,
                      const std::vector<std::string>&, int>(),
             py::arg("dump_root"), py::arg("tensor_debug_mode"), py::arg("circular_buffer_size"),
             py::arg("op_regex"), py::arg("tensor_dtypes"), py::arg("run_id") = "",
             py::arg("host_name") = "", py::arg("stop_at_first_nonfinite") = false,
             py::arg("expected_nonfinite") = std::vector<std::string>{},
             py::arg("stop_lag_events") = nanscope::RecorderOptions{}.stopLagEvents)
        .def_property_readonly("run_id", &PyRecorder::runId)
        .def_property_readonly("host_name", &PyRecorder::hostName)
        .def("record", &PyRecorder::record)
        .def("flush", &PyRecorder::flush)
        .def("close", &PyRecorder::close)
        .def("abandon", &PyRecorder::abandon)
        .def("observe", &PyRecorder::observe)
        .def_static("stop_observing", &PyRecorder::stopObserving)
        .def("skipped", &PyRecorder::skipped)
        .def("nonfinite_stop", &PyRecorder::nonFiniteStop)
        .def("stats", &PyRecorder::stats)
        .def("profile_phases", &PyRecorder::profilePhases)
        .def("phase_times", &PyRecorder::phaseTimes)
        .def("first_error", &PyRecorder::firstError)
        .def_property_readonly("file_prefix", &PyRecorder::filePrefix);
}
