// SPDX-License-Identifier: GPL-3.0-or-later
// A small tutorial-like logdir written by our recorder: probs -> Log -> mul -> Mean in graph
// "loss", healthy in step 0, with a zero in probs in step 1 (Log gives -inf, mul NaN).
#pragma once

#include "nanscope/recorder.hpp"

#include <filesystem>
#include <memory>

namespace nanscope::test {

class TutorialLogdir
{
public:
    // Writes `steps` steps (the zero appears from step 1 on); the recorder stays open so that
    // tests can append more.
    explicit TutorialLogdir(int steps = 2);
    ~TutorialLogdir();

    const std::filesystem::path& path() const { return m_path; }
    // Appends one more step of traces and writes it out.
    void appendStep();
    void close();

    int tracesPerStep() const { return 5; }
    int logLine() const { return m_logLine; } // the source line that declared the Log op

private:
    std::filesystem::path m_path;
    std::unique_ptr<Recorder> m_recorder;
    OpHandle m_probs, m_labels, m_neg, m_log, m_mul;
    GraphHandle m_loss;
    int m_step = 0;
    int m_logLine = 0;
};

} // namespace nanscope::test
