// SPDX-License-Identifier: Apache-2.0
// Executions recorded on a thread of their own, for the C++ op observer in the modes that read
// no values (NO_TENSOR, SHAPE): building and encoding the event is then off the thread that
// launches the program's work, which on a GPU is what keeps the device busy. Nothing of such
// a record depends on memory the program may change next (it carries ids, dtypes, shapes and
// an interned stack), so it may be written a little later, in the same order. A queue that
// grows past kMaxQueued is a worker that cannot keep up: records then go at once, on the
// caller's thread.
#pragma once

#include "atentensors.hpp"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace nanscope::python {

class DeferredRecords
{
public:
    explicit DeferredRecords(Recorder& recorder);
    ~DeferredRecords(); // records what is queued, then stops
    DeferredRecords(const DeferredRecords&) = delete;
    DeferredRecords& operator=(const DeferredRecords&) = delete;

    struct Record
    {
        ExecutionSpec spec;
        std::vector<std::unique_ptr<DescribedAtenTensor>> described; // spec.outputs' memory
        std::optional<StackId> stackId;
        std::vector<CodeLocation> stack; // when the stack is not interned
    };
    // Queues `record`, moving from it; false when the queue is full, and `record` is left as it
    // was for the caller to write itself.
    bool tryPush(Record& record);
    // Returns once everything queued before the call is recorded.
    void drain();
    // Why records failed, counted ("not recorded: …").
    std::map<std::string, std::uint64_t> failures() const;

    static constexpr std::size_t kMaxQueued = std::size_t{1} << 16;

private:
    void run();
    void write(Record& record);

    Recorder& m_recorder;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;    // the worker: records are waiting, or stop
    std::condition_variable m_drained; // drain(): `m_done` moved on
    std::vector<Record> m_queue;
    std::uint64_t m_pushed = 0;
    std::uint64_t m_done = 0;
    bool m_stop = false;
    std::map<std::string, std::uint64_t> m_failures;
    std::thread m_worker; // last: started once the rest is built
};

} // namespace nanscope::python
