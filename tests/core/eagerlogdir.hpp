// SPDX-License-Identifier: GPL-3.0-or-later
// An eager-only logdir as PyTorch's recorder writes one: no graph, every op an execution, most
// of them inside nn.Modules. Header-only, written through the recorder (no torch involved).
//
// Each step runs seven ops, by tensor id each reading the one before:
//   0 aten::randn (no module) -> 1 aten::linear Net.fc1 -> 2 aten::relu Net.fc1.act ->
//   3 aten::linear Net.fc2 -> 4 aten::log Net.fc2 -> 5 aten::mul (no module; also reads the
//   randn) -> 6 aten::mean (no module).
// From step `badFrom` on, fc2 gives a zero and a negative value: the log is NaN and -inf, the
// mul and the mean NaN. Earlier steps are finite.
#pragma once

#include "nanscope/recorder.hpp"

#include <QTemporaryDir>
#include <cmath>
#include <cstdint>
#include <string>

namespace nanscope::test {

class EagerLogdir
{
public:
    enum Op { Randn, Fc1, Act, Fc2, Log, Mul, Mean, OpsPerStep };

    explicit EagerLogdir(int steps = 3, int badFrom = 1) : m_steps(steps), m_badFrom(badFrom)
    {
        m_ok = m_dir.isValid() && write();
    }

    bool ok() const { return m_ok; }
    QString path() const { return m_dir.path(); }
    int steps() const { return m_steps; }
    static std::uint64_t execution(int step, Op op)
    {
        return static_cast<std::uint64_t>(step) * OpsPerStep + op;
    }
    std::uint64_t executionCount() const
    {
        return static_cast<std::uint64_t>(m_steps) * OpsPerStep;
    }
    // Log, Mul and Mean of every bad step.
    std::uint64_t nonFiniteCount() const
    {
        return 3u * static_cast<std::uint64_t>(m_steps - m_badFrom);
    }

private:
    bool write()
    {
        auto opened = Recorder::open({.dumpRoot = m_dir.path().toStdString(),
                                      .mode = TensorDebugMode::FullHealth,
                                      .circularBufferSize = -1});
        if (!opened.ok())
            return false;
        Recorder& rec = **opened;
        const std::int64_t shape[1] = {2};
        for (int step = 0; step < m_steps; ++step) {
            const bool bad = step >= m_badFrom;
            const float finite[2] = {0.5f, 2.0f};
            const float fc2[2] = {bad ? 0.0f : 0.5f, bad ? -1.0f : 2.0f};
            const float logged[2] = {bad ? -INFINITY : 0.1f, bad ? NAN : 0.2f};
            const float nan[2] = {bad ? NAN : 0.1f, 1.0f};
            const std::int64_t base = static_cast<std::int64_t>(step) * 10;
            const auto run = [&](const char* type, const char* module,
                                 std::vector<std::int64_t> inputs, std::int64_t output,
                                 const float* values) {
                ExecutionSpec spec{
                    .opType = type, .inputIds = std::move(inputs), .outputIds = {output}};
                spec.outputs = {{.data = values, .dtype = DType::Float32, .shape = shape}};
                spec.context.modulePath = module;
                return rec.recordExecution(spec).ok();
            };
            if (!(run("aten::randn", "", {}, base + 1, finite) &&
                  run("aten::linear", "Net.fc1", {base + 1}, base + 2, finite) &&
                  run("aten::relu", "Net.fc1.act", {base + 2}, base + 3, finite) &&
                  run("aten::linear", "Net.fc2", {base + 3}, base + 4, fc2) &&
                  run("aten::log", "Net.fc2", {base + 4}, base + 5, logged) &&
                  run("aten::mul", "", {base + 5, base + 1}, base + 6, nan) &&
                  run("aten::mean", "", {base + 6}, base + 7, nan)))
                return false;
        }
        return rec.close().ok();
    }

    QTemporaryDir m_dir;
    int m_steps;
    int m_badFrom;
    bool m_ok = false;
};

} // namespace nanscope::test
