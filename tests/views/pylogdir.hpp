// SPDX-License-Identifier: GPL-3.0-or-later
// A TensorFlow-like logdir written record by record for the panel tests: a Python source file
// and a TensorFlow one, creation stacks that mix the user's frames with framework frames, an op
// whose name is markup, an Identity that is never traced, and a step where hundreds of traces
// separate an op from its input (beyond Debugger V2's 200-row look-back).
//
// Graph "loss": probs, labels (Placeholder); ident = Identity(probs); Log(probs); Neg(labels);
// "<b>markup</b>" = Mul(Neg, Log); Sqrt(ident); filler (Const). Step 0 is healthy; from step 1
// probs holds a zero, so Log has -inf and "<b>markup</b>" +inf.
#pragma once

#include <QTemporaryDir>
#include <cstdint>
#include <string>

namespace nanscope::test {

class PyLogdir
{
public:
    enum Trace { Probs, Labels, Neg, Log, Markup, Sqrt, TracesPerStep };
    static constexpr int kSteps = 40;
    static constexpr int kFillerStep = 20; // 300 filler traces after probs in this step
    static constexpr int kFillers = 300;
    static constexpr int kLogLine = 7;       // train.py: "log = tf.math.log(probs)"
    static constexpr int kMarkupLine = 8;    // train.py: the product
    static constexpr int kFrameworkLine = 3; // math_ops.py
    static inline const std::string kTrainPy = "/home/user/project/train.py";
    static inline const std::string kMathOps =
        "/usr/lib/python3/dist-packages/tensorflow/python/ops/math_ops.py";
    static inline const std::string kMarkupName = "<b>markup</b>";

    PyLogdir();

    bool ok() const { return m_ok; }
    QString path() const { return m_dir.path(); }
    // The index of trace `which` of step `step`.
    static std::uint64_t trace(int step, Trace which);
    static std::uint64_t traceCount() { return kSteps * TracesPerStep + kFillers; }

private:
    QTemporaryDir m_dir;
    bool m_ok = false;
};

} // namespace nanscope::test
