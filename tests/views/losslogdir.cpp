// SPDX-License-Identifier: GPL-3.0-or-later
#include "losslogdir.hpp"

#include "nanscope/core/logdirreader.hpp"
#include "nanscope/recorder.hpp"

#include <cmath>
#include <vector>

namespace nanscope::test {

LossLogdir::LossLogdir()
{
    if (!m_dir.isValid())
        return;
    auto opened = Recorder::open({.dumpRoot = m_dir.path().toStdString(),
                                  .mode = TensorDebugMode::FullHealth,
                                  .circularBufferSize = -1});
    if (!opened.ok())
        return;
    Recorder& recorder = **opened;
    const GraphHandle outermost = *recorder.declareGraph("");
    const GraphHandle loss = *recorder.declareGraph("loss", &outermost);
    const OpHandle probs =
        *recorder.declareOp({.graph = loss, .type = "Placeholder", .name = "probs"});
    const OpHandle labels =
        *recorder.declareOp({.graph = loss, .type = "Placeholder", .name = "labels"});
    const OpHandle neg =
        *recorder.declareOp({.graph = loss, .type = "Neg", .name = "Neg", .inputs = {"labels:0"}});
    const OpHandle log =
        *recorder.declareOp({.graph = loss, .type = "Log", .name = "Log", .inputs = {"probs:0"}});
    const OpHandle mul = *recorder.declareOp(
        {.graph = loss, .type = "Mul", .name = "mul", .inputs = {"Neg:0", "Log:0"}});

    bool written = true;
    auto check = [&](const Status& status) {
        written = written && status.ok();
    };
    const std::int64_t shape[2] = {2, 2};
    const std::int64_t bigShape[1] = {1000};
    for (int step = 0; step < 2; ++step) {
        std::vector<float> p = {0.5f, 0.5f, 0.25f, 0.75f};
        if (step == 1)
            p[1] = 0.0f;
        const std::vector<float> l = {1, 0, 0, 1};
        std::vector<float> n(4), lg(4), m(4);
        for (int i = 0; i < 4; ++i) {
            n[i] = -l[i];
            lg[i] = std::log(p[i]);
            m[i] = n[i] * lg[i];
        }
        auto view = [&](const std::vector<float>& v, std::span<const std::int64_t> dims) {
            return TensorView{.data = v.data(), .dtype = DType::Float32, .shape = dims};
        };
        check(recorder.recordTrace(probs, 0, view(p, shape)));
        check(recorder.recordTrace(labels, 0, view(l, shape)));
        check(recorder.recordTrace(neg, 0, view(n, shape)));
        check(recorder.recordTrace(log, 0, view(lg, shape)));
        check(recorder.recordTrace(mul, 0, view(m, shape)));

        check(recorder.recordExecution({.opType = "Cast",
                                        .outputIds = {recorder.newTensorId()},
                                        .outputs = {view(l, shape)}}));
        std::vector<float> big(1000);
        for (int i = 0; i < 1000; ++i)
            big[i] = std::log((i + 1) / 1001.0f);
        if (step == 1)
            big[7] = -INFINITY;
        const std::int64_t input = recorder.newTensorId();
        check(recorder.recordExecution({.opType = "Log",
                                        .inputIds = {input},
                                        .outputIds = {recorder.newTensorId()},
                                        .outputs = {view(big, bigShape)}}));
        check(recorder.recordExecution({.opType = "__inference_loss_7",
                                        .graph = &loss,
                                        .outputIds = {recorder.newTensorId()},
                                        .outputs = {view(m, shape)}}));
    }
    check(recorder.close());
    if (!written)
        return;
    core::LogdirReader reader(m_dir.path().toStdString());
    m_snapshot = reader.update();
}

} // namespace nanscope::test
