// SPDX-License-Identifier: Apache-2.0
// Where the time of one recorded op goes, phase by phase: what the overhead benchmark prints to
// say which part of the per-op cost to work on. Off unless asked for, when it costs one branch.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace nanscope::python {

enum class Phase : std::size_t {
    FindTensors, // the op's arguments and results walked for tensors
    TensorIds,   // ids looked up or assigned
    Describe,    // dtype, shape, memory and stream of each output read from Python
    Stack,       // the Python stack captured
    Context,     // module path and the forward op of a backward op
    Write,       // the recorder's own work: summaries, the event, the file
    Forward,     // what the autograd hooks need kept
    Count
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(Phase::Count)> kPhaseNames{
    "find_tensors", "tensor_ids", "describe", "stack", "context", "write", "forward"};

class PhaseTimes
{
public:
    using Clock = std::chrono::steady_clock;

    void setEnabled(bool on)
    {
        m_enabled = on;
        m_total = {};
        m_calls = 0;
    }
    bool enabled() const { return m_enabled; }

    // Starts timing one op.
    void begin()
    {
        if (!m_enabled)
            return;
        ++m_calls;
        m_last = Clock::now();
    }

    // Ends `phase`, which ran since begin() or the last lap().
    void lap(Phase phase)
    {
        if (!m_enabled)
            return;
        const auto now = Clock::now();
        m_total[static_cast<std::size_t>(phase)] += static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(now - m_last).count());
        m_last = now;
    }

    // Adds another's totals (the C++ observer times each record apart, then adds it).
    void add(const PhaseTimes& other)
    {
        for (std::size_t i = 0; i < m_total.size(); ++i)
            m_total[i] += other.m_total[i];
        m_calls += other.m_calls;
    }

    std::uint64_t nanoseconds(Phase phase) const
    {
        return m_total[static_cast<std::size_t>(phase)];
    }
    std::uint64_t calls() const { return m_calls; }

private:
    bool m_enabled = false;
    Clock::time_point m_last;
    std::array<std::uint64_t, static_cast<std::size_t>(Phase::Count)> m_total{};
    std::uint64_t m_calls = 0;
};

} // namespace nanscope::python
