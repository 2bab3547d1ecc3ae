// SPDX-License-Identifier: Apache-2.0
// The tutorial's training loop, written once for both demos: one Adam step on a shuffled batch,
// then the accuracy on the whole test set, printed after every step, with the eager ops and
// function calls recorded as TensorFlow records them. Where the tensors live and how they are
// computed is the `Device`'s (training.cpp: host tensors; the GPU demo's gpu_training.cpp:
// device tensors on the demo's stream), so the two demos record the same ops in the same order.
//
// A Device provides the tensor types Float, Int64 and Bool, the model's Variables, the
// optimizer (Optimizer, with Slots) and, as static functions:
//   variables(seed)                 the initial weights (the same for both demos)
//   place(images)                   a dataset's uint8 tensor where the math reads it
//   formatExample, model, loss,     the tutorial's functions, traced into `functions`
//   lossBackward, modelBackward
//   scalar, argmaxRows, equal,      the eager accuracy ops
//   castToFloat, meanAll
//   makeSlots(variable)             the optimizer's zero slots shaped like a variable
//   first(tensor)                   element 0 of a float tensor, on the host
#pragma once

#include "dataset.hpp"
#include "instrumentation.hpp"
#include "mlp.hpp"
#include "training.hpp"

#include <array>
#include <charconv>
#include <cstdio>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::demo {

namespace detail {

// A resource variable as eager TensorFlow creates one: the initial value, a handle, and the
// assignment. Returns the handle's id, which every later use of the variable reads.
template <class Tensor>
std::int64_t createVariable(Instrumentation& recording, std::string_view initializerOp,
                            const Tensor& initialValue,
                            std::source_location where = std::source_location::current())
{
    const auto value = recording.execute(initializerOp, nullptr, {}, {view(initialValue)}, where);
    const auto handle = recording.execute("VarHandleOp", nullptr, {}, {resourceView()}, where);
    recording.execute("AssignVariableOp", nullptr, {handle[0], value[0]}, {}, where);
    return handle[0];
}

// One model variable with its optimizer state, and the ids of their handles.
template <class Device>
struct TrainedVariable
{
    typename Device::Float* value;
    std::int64_t handle;
    std::optional<typename Device::Slots> slots; // created by the first step, as Keras does
    std::int64_t mHandle = 0;
    std::int64_t vHandle = 0;
};

// Python's repr of a float32 (numpy prints the shortest text that reads back the same).
inline std::string pythonFloat(float value)
{
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    std::string text(buffer.data(), result.ptr);
    if (text.find_first_of(".eni") == std::string::npos)
        text += ".0";
    return text;
}

} // namespace detail

template <class Device>
void trainOn(const TrainingOptions& options, const DataSplits& data, Instrumentation& recording)
{
    using detail::createVariable;
    using Float = typename Device::Float;

    Functions functions(recording);
    typename Device::Variables variables = Device::variables(options.seed);
    std::array<detail::TrainedVariable<Device>, 4> trained = {{
        {&variables.hidden.kernel,
         createVariable(recording, "TruncatedNormal", variables.hidden.kernel),
         {}},
        {&variables.hidden.bias, createVariable(recording, "Fill", variables.hidden.bias), {}},
        {&variables.logits.kernel,
         createVariable(recording, "TruncatedNormal", variables.logits.kernel),
         {}},
        {&variables.logits.bias, createVariable(recording, "Fill", variables.logits.bias), {}},
    }};
    std::vector<std::int64_t> handles;
    handles.reserve(trained.size());
    for (const auto& v : trained)
        handles.push_back(v.handle);

    typename Device::Optimizer adam({.learningRate = options.learningRate});
    BatchStream trainBatches(data.train, options.batchSize, options.seed);
    // The test set does not change: placed once for the whole run.
    const auto& testImages = Device::place(data.test.images);
    const auto& testLabels = Device::place(data.test.labels);

    for (int step = 0; step < options.maxSteps; ++step) {
        // The input pipelines: a shuffled training batch and the whole test set.
        const Dataset rawTrain = trainBatches.next();
        const auto& trainImages = Device::place(rawTrain.images);
        const auto& trainLabels = Device::place(rawTrain.labels);
        const auto rawTrainIds = recording.execute("IteratorGetNext", nullptr, {},
                                                   {view(trainImages), view(trainLabels)});
        const auto batch = Device::formatExample(functions, trainImages, trainLabels);
        const auto batchIds =
            functions.formatExample.call(rawTrainIds, {view(batch.images), view(batch.labels)});
        const auto rawTestIds =
            recording.execute("IteratorGetNext", nullptr, {}, {view(testImages), view(testLabels)});
        const auto test = Device::formatExample(functions, testImages, testLabels);
        const auto testIds =
            functions.formatExample.call(rawTestIds, {view(test.images), view(test.labels)});

        // Forward under the tape.
        std::vector<std::int64_t> modelInputs = {batchIds[0]};
        modelInputs.insert(modelInputs.end(), handles.begin(), handles.end());
        const auto forward = Device::model(functions, variables, batch.images);
        const auto probsId = functions.model.call(modelInputs, {view(forward.probs)})[0];
        const auto lossValues = Device::loss(functions, forward.probs, batch.labels, options.fix);
        const auto lossId = functions.loss.call({probsId, batchIds[1]}, {view(lossValues.loss)})[0];

        // tape.gradient: from d loss / d loss = 1 back to the variables.
        const Float ones = Device::scalar(1.0f);
        const auto onesId = recording.execute("OnesLike", nullptr, {lossId}, {view(ones)})[0];
        const auto lossGradients =
            Device::lossBackward(functions, ones, forward.probs, lossValues, options.fix);
        const auto lossGradientIds =
            functions.lossBackward.call({onesId, probsId, batchIds[1]},
                                        {view(lossGradients.probs), view(lossGradients.labels)});
        const auto gradients =
            Device::modelBackward(functions, lossGradients.probs, batch.images, forward, variables);
        const auto gradientIds = functions.modelBackward.call(
            {lossGradientIds[0], batchIds[0], probsId},
            {view(gradients.hidden.kernel), view(gradients.hidden.bias),
             view(gradients.logits.kernel), view(gradients.logits.bias)});

        // optimizer.apply_gradients
        const std::array<const Float*, 4> gradientValues = {
            &gradients.hidden.kernel, &gradients.hidden.bias, &gradients.logits.kernel,
            &gradients.logits.bias};
        for (auto& v : trained)
            if (!v.slots) {
                v.slots = Device::makeSlots(*v.value);
                v.mHandle = createVariable(recording, "Fill", v.slots->m);
                v.vHandle = createVariable(recording, "Fill", v.slots->v);
            }
        adam.beginStep();
        for (std::size_t i = 0; i < trained.size(); ++i) {
            auto& v = trained[i];
            adam.apply(*v.value, *v.slots, *gradientValues[i]);
            recording.execute("ResourceApplyAdam", nullptr,
                              {v.handle, v.mHandle, v.vHandle, gradientIds[i]}, {});
        }

        // Accuracy on the test set, with eager ops.
        modelInputs[0] = testIds[0];
        const auto evaluation = Device::model(functions, variables, test.images);
        const auto testProbsId = functions.model.call(modelInputs, {view(evaluation.probs)})[0];
        const auto predicted = Device::argmaxRows(evaluation.probs);
        const auto predictedId =
            recording.execute("ArgMax", nullptr, {testProbsId}, {view(predicted)})[0];
        const auto expected = Device::argmaxRows(test.labels);
        const auto expectedId =
            recording.execute("ArgMax", nullptr, {testIds[1]}, {view(expected)})[0];
        const auto correct = Device::equal(predicted, expected);
        const auto correctId =
            recording.execute("Equal", nullptr, {predictedId, expectedId}, {view(correct)})[0];
        const Float correctValues = Device::castToFloat(correct);
        const auto castId =
            recording.execute("Cast", nullptr, {correctId}, {view(correctValues)})[0];
        const Float accuracy = Device::meanAll(correctValues);
        recording.execute("Mean", nullptr, {castId}, {view(accuracy)});

        std::printf("Accuracy at step %d: %s\n", step,
                    detail::pythonFloat(Device::first(accuracy)).c_str());
        std::fflush(stdout);
    }
}

} // namespace nanscope::demo
