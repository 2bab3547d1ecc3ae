// SPDX-License-Identifier: GPL-3.0-or-later
#include "itemsfixture.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

namespace nanscope::test {

TutorialLogdir::TutorialLogdir(int steps)
{
    m_path = std::filesystem::temp_directory_path() /
             ("nanscope-items-" + std::to_string(std::random_device{}()));
    auto r = Recorder::open({.dumpRoot = m_path,
                             .mode = TensorDebugMode::FullHealth,
                             .circularBufferSize = -1,
                             .flushInterval = std::chrono::milliseconds(10)});
    REQUIRE(r.ok());
    m_recorder = std::move(*r);
    auto outermost = m_recorder->declareGraph("");
    m_loss = *m_recorder->declareGraph("loss", &*outermost);
    m_probs = *m_recorder->declareOp({.graph = m_loss, .type = "Placeholder", .name = "probs"});
    m_labels = *m_recorder->declareOp({.graph = m_loss, .type = "Placeholder", .name = "labels"});
    m_neg = *m_recorder->declareOp(
        {.graph = m_loss, .type = "Neg", .name = "Neg", .inputs = {"labels:0"}});
    const OpSpec log{.graph = m_loss, .type = "Log", .name = "Log", .inputs = {"probs:0"}};
    m_logLine = __LINE__ + 1;
    m_log = *m_recorder->declareOp(log);
    m_mul = *m_recorder->declareOp(
        {.graph = m_loss, .type = "Mul", .name = "mul", .inputs = {"Neg:0", "Log:0"}});
    for (int i = 0; i < steps; ++i)
        appendStep();
}

TutorialLogdir::~TutorialLogdir()
{
    close();
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

void TutorialLogdir::close()
{
    if (m_recorder)
        REQUIRE(m_recorder->close().ok());
}

void TutorialLogdir::appendStep()
{
    const std::int64_t shape[2] = {2, 2};
    std::vector<float> probs = {0.5f, 0.5f, 0.25f, 0.75f};
    if (m_step >= 1)
        probs[1] = 0.0f;
    const std::vector<float> labels = {1, 0, 0, 1};
    std::vector<float> neg(4), log(4), mul(4);
    for (int i = 0; i < 4; ++i) {
        neg[i] = -labels[i];
        log[i] = std::log(probs[i]);
        mul[i] = neg[i] * log[i];
    }
    auto view = [&](const std::vector<float>& v) {
        return TensorView{.data = v.data(), .dtype = DType::Float32, .shape = shape};
    };
    REQUIRE(m_recorder->recordTrace(m_probs, 0, view(probs)).ok());
    REQUIRE(m_recorder->recordTrace(m_labels, 0, view(labels)).ok());
    REQUIRE(m_recorder->recordTrace(m_neg, 0, view(neg)).ok());
    REQUIRE(m_recorder->recordTrace(m_log, 0, view(log)).ok());
    REQUIRE(m_recorder->recordTrace(m_mul, 0, view(mul)).ok());
    REQUIRE(m_recorder
                ->recordExecution({.opType = "__inference_loss_7",
                                   .graph = &m_loss,
                                   .outputIds = {m_recorder->newTensorId()},
                                   .outputs = {view(mul)}})
                .ok());
    REQUIRE(m_recorder->flush().ok());
    ++m_step;
}

} // namespace nanscope::test
