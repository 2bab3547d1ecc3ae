// SPDX-License-Identifier: GPL-3.0-or-later
#include "tutoriallogdir.hpp"

#include "nanscope/recorder.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace nanscope::test {
namespace {

TensorView view(const std::vector<float>& v, const std::vector<std::int64_t>& shape)
{
    return {.data = v.data(), .dtype = DType::Float32, .shape = shape};
}

} // namespace

int TutorialLogdir::write(const std::filesystem::path& dir)
{
    auto opened = Recorder::open({.dumpRoot = dir,
                                  .mode = TensorDebugMode::FullHealth,
                                  .circularBufferSize = -1,
                                  .runId = "tutorial1",
                                  .hostName = "trainer",
                                  .closeAtExit = false});
    REQUIRE(opened.ok());
    auto& rec = **opened;
    auto outer = rec.declareGraph("");
    REQUIRE(outer.ok());
    auto modelGraph = rec.declareGraph("model", &*outer);
    auto lossGraph = rec.declareGraph("loss", &*outer);
    REQUIRE(modelGraph.ok());
    REQUIRE(lossGraph.ok());
    auto declare = [&](const GraphHandle& g, const char* type, const char* name,
                       std::vector<std::string> inputs, CodeLocation where) {
        auto op = rec.declareOp({.graph = g, .type = type, .name = name, .inputs = inputs}, where);
        REQUIRE(op.ok());
        return *op;
    };
    auto here = [](int line) {
        return CodeLocation("/home/user/mnist.py", line, "model");
    };
    const OpHandle x = declare(*modelGraph, "Placeholder", "x", {}, here(10));
    const OpHandle matmul = declare(*modelGraph, "MatMul", "MatMul", {"x:0"}, here(11));
    const OpHandle softmax = declare(*modelGraph, "Softmax", "Softmax", {"MatMul:0"}, here(12));
    const OpHandle probs = declare(*lossGraph, "Placeholder", "probs", {}, here(20));
    const OpHandle labels = declare(*lossGraph, "Placeholder", "labels", {}, here(20));
    const OpHandle neg = declare(*lossGraph, "Neg", "Neg", {"labels"}, here(21));
    const auto logCall = std::source_location::current(); // the frame the report points at
    const int logLine = static_cast<int>(logCall.line());
    const OpHandle log = declare(*lossGraph, "Log", "Log", {"probs:0"}, logCall);
    const OpHandle mul = declare(*lossGraph, "Mul", "mul", {"Neg:0", "Log:0"}, here(21));
    const OpHandle mean = declare(*lossGraph, "Mean", "Mean", {"mul:0"}, here(22));

    const std::vector<std::int64_t> shape{4, 3};
    const std::vector<std::int64_t> scalar{};
    std::vector<float> labelValues(12, 0.0f);
    for (int row = 0; row < 4; ++row)
        labelValues[row * 3 + row % 3] = 1.0f;
    std::int64_t eagerInput = rec.newTensorId();
    for (int step = 0; step < 2; ++step) {
        std::vector<float> input(12), logits(12), p(12);
        for (int i = 0; i < 12; ++i) {
            input[i] = 0.1f * static_cast<float>(i);
            logits[i] = input[i] * 2.0f;
            p[i] = 0.05f + 0.01f * static_cast<float>(i);
        }
        if (step == 1)
            p[4] = 0.0f; // softmax underflow: an exact zero (a non-target class)
        std::vector<float> negLabels(12), logP(12), product(12);
        float sum = 0;
        for (int i = 0; i < 12; ++i) {
            negLabels[i] = -labelValues[i];
            logP[i] = std::log(p[i]);
            product[i] = negLabels[i] * logP[i];
            sum += product[i];
        }
        std::vector<float> loss{sum / 12.0f};
        REQUIRE(rec.recordTrace(x, 0, view(input, shape)).ok());
        REQUIRE(rec.recordTrace(matmul, 0, view(logits, shape)).ok());
        REQUIRE(rec.recordTrace(softmax, 0, view(p, shape)).ok());
        REQUIRE(rec.recordTrace(probs, 0, view(p, shape)).ok());
        REQUIRE(rec.recordTrace(labels, 0, view(labelValues, shape)).ok());
        REQUIRE(rec.recordTrace(neg, 0, view(negLabels, shape)).ok());
        REQUIRE(rec.recordTrace(log, 0, view(logP, shape)).ok());
        REQUIRE(rec.recordTrace(mul, 0, view(product, shape)).ok());
        REQUIRE(rec.recordTrace(mean, 0, view(loss, scalar)).ok());
        // The eager call of the loss function: its output is the mean.
        const std::int64_t out = rec.newTensorId();
        REQUIRE(rec.recordExecution({.opType = "__inference_loss_42",
                                     .graph = &*lossGraph,
                                     .inputIds = {eagerInput},
                                     .outputIds = {out},
                                     .outputs = {view(loss, scalar)}},
                                    here(30))
                    .ok());
    }
    REQUIRE(rec.close().ok());
    return logLine;
}

} // namespace nanscope::test
