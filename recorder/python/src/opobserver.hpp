// SPDX-License-Identifier: Apache-2.0
// The C++ op observer: PyTorch's RecordFunction callbacks, the hooks its profiler uses, record
// the ops of the threads that observe them, with no Python code run per op. What it records is
// what the Python dispatch mode records (opframes.hpp says which calls are ops): op type,
// input and output tensor ids, output summaries, the Python stack, the module path, and for a
// backward op the forward op it differentiates (linked through the autograd node's sequence
// number, which RecordFunction gives both sides).
#pragma once

#include "atentensors.hpp"
#include "deferredrecords.hpp"
#include "forwardops.hpp"
#include "phasetimes.hpp"
#include "pystack.hpp"
#include "unwrittentensors.hpp"

#include <Python.h>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

namespace nanscope::python {

class OpObserver
{
public:
    // Records into `recorder`, capturing stacks with `stacks` (shared with the dispatch mode's
    // path; used under the GIL) and `stackOptions`.
    OpObserver(Recorder& recorder, StackCache& stacks, const StackOptions& stackOptions,
               AtenDescribeOptions describe);
    ~OpObserver();
    OpObserver(const OpObserver&) = delete;
    OpObserver& operator=(const OpObserver&) = delete;

    // Observes the calling thread's ops from now on, and those of the backward passes it runs;
    // `moduleNames` is the thread's stack of module paths (a list of str, kept). Returns the
    // handle that stopObserving takes, on the same thread. Needs the GIL.
    std::uint64_t observeThisThread(PyObject* moduleNames);
    static void stopObserving(std::uint64_t handle);
    // In a forked child: the parent's observer records nothing there (its locks may be held by
    // threads that did not come along).
    static void forgetActive();

    // Records nothing more; waits for records in flight. Call without the GIL.
    void detach();
    // Returns once every op observed so far is with the recorder (records of the modes that
    // read no values are written by a thread of their own). Call without the GIL.
    void drain();
    // Drops the module-path lists it kept. Needs the GIL.
    void releaseModuleNames();

    std::map<std::string, std::uint64_t> skipped() const;
    // Times each record phase by phase from now on (or stops); the totals so far.
    void profilePhases(bool on);
    PhaseTimes phaseTimes() const;
    std::size_t liveTensorIds() const { return m_ids.size(); }

    // The callbacks' side (opobserver.cpp).
    struct Frame;
    void record(const Frame& frame, const std::vector<c10::IValue>& outputs,
                BackwardLinks& backward);
    std::shared_ptr<const ForwardOp> forwardOf(std::uint64_t thread, std::int64_t sequence) const
    {
        return m_forwards.find(thread, sequence);
    }
    void countSkipped(const std::string& reason);

private:
    StackCache::Captured captureStack(std::string& modulePath);
    // Records one execution, on the deferred records' thread where the mode reads no values.
    void write(ExecutionSpec spec, std::vector<std::unique_ptr<DescribedAtenTensor>> described,
               const StackCache::Captured& stack);

    mutable std::shared_mutex m_recording; // shared by records, exclusive for detach
    Recorder* m_recorder;                  // nullptr once detached
    StackCache& m_stacks;
    const StackOptions& m_stackOptions;
    AtenDescribeOptions m_describe;
    TensorImplIds m_ids;
    ForwardOps m_forwards;
    UnwrittenTensors m_unwritten;
    std::unique_ptr<DeferredRecords> m_deferred; // the modes that read no values
    std::atomic<bool> m_profiling{false};
    mutable std::mutex m_skippedMutex; // also guards m_phases
    PhaseTimes m_phases;
    std::map<std::string, std::uint64_t> m_skipped;
    std::vector<PyObject*> m_moduleNames; // owned references, one per observing thread
};

} // namespace nanscope::python
