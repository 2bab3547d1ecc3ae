// SPDX-License-Identifier: Apache-2.0
#include "training.hpp"

#include "adam.hpp"
#include "mlp.hpp"
#include "mlp_gradients.hpp"
#include "tensor_math.hpp"

#include <array>
#include <charconv>
#include <cstdio>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::demo {

namespace {

// A resource variable as eager TensorFlow creates one: the initial value, a handle, and the
// assignment. Returns the handle's id, which every later use of the variable reads.
std::int64_t createVariable(Instrumentation& recording, std::string_view initializerOp,
                            const FloatTensor& initialValue,
                            std::source_location where = std::source_location::current())
{
    const auto value = recording.execute(initializerOp, nullptr, {}, {view(initialValue)}, where);
    const auto handle = recording.execute("VarHandleOp", nullptr, {}, {resourceView()}, where);
    recording.execute("AssignVariableOp", nullptr, {handle[0], value[0]}, {}, where);
    return handle[0];
}

// One model variable with its optimizer state, and the ids of their handles.
struct TrainedVariable
{
    FloatTensor* value;
    std::int64_t handle;
    std::optional<AdamSlots> slots; // created by the first step, as Keras does
    std::int64_t mHandle = 0;
    std::int64_t vHandle = 0;
};

// Python's repr of a float32 (numpy prints the shortest text that reads back the same).
std::string pythonFloat(float value)
{
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    std::string text(buffer.data(), result.ptr);
    if (text.find_first_of(".eni") == std::string::npos)
        text += ".0";
    return text;
}

} // namespace

void train(const TrainingOptions& options, const DataSplits& data, Instrumentation& recording)
{
    Functions functions(recording);
    Variables variables = initialVariables(options.seed);
    std::array<TrainedVariable, 4> trained = {{
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
    for (const TrainedVariable& v : trained)
        handles.push_back(v.handle);

    Adam adam({.learningRate = options.learningRate});
    BatchStream trainBatches(data.train, options.batchSize, options.seed);

    for (int step = 0; step < options.maxSteps; ++step) {
        // The input pipelines: a shuffled training batch and the whole test set.
        const Dataset rawTrain = trainBatches.next();
        const auto rawTrainIds = recording.execute("IteratorGetNext", nullptr, {},
                                                   {view(rawTrain.images), view(rawTrain.labels)});
        const FormattedBatch batch = formatExample(functions, rawTrain.images, rawTrain.labels);
        const auto batchIds =
            functions.formatExample.call(rawTrainIds, {view(batch.images), view(batch.labels)});
        const auto rawTestIds = recording.execute("IteratorGetNext", nullptr, {},
                                                  {view(data.test.images), view(data.test.labels)});
        const FormattedBatch test = formatExample(functions, data.test.images, data.test.labels);
        const auto testIds =
            functions.formatExample.call(rawTestIds, {view(test.images), view(test.labels)});

        // Forward under the tape.
        std::vector<std::int64_t> modelInputs = {batchIds[0]};
        modelInputs.insert(modelInputs.end(), handles.begin(), handles.end());
        const ModelActivations forward = model(functions, variables, batch.images);
        const auto probsId = functions.model.call(modelInputs, {view(forward.probs)})[0];
        const LossActivations lossValues =
            loss(functions, forward.probs, batch.labels, options.fix);
        const auto lossId = functions.loss.call({probsId, batchIds[1]}, {view(lossValues.loss)})[0];

        // tape.gradient: from d loss / d loss = 1 back to the variables.
        const FloatTensor ones = math::scalar(1.0f);
        const auto onesId = recording.execute("OnesLike", nullptr, {lossId}, {view(ones)})[0];
        const LossGradients lossGradients =
            lossBackward(functions, ones, forward.probs, lossValues, options.fix);
        const auto lossGradientIds =
            functions.lossBackward.call({onesId, probsId, batchIds[1]},
                                        {view(lossGradients.probs), view(lossGradients.labels)});
        const VariableGradients gradients =
            modelBackward(functions, lossGradients.probs, batch.images, forward, variables);
        const auto gradientIds = functions.modelBackward.call(
            {lossGradientIds[0], batchIds[0], probsId},
            {view(gradients.hidden.kernel), view(gradients.hidden.bias),
             view(gradients.logits.kernel), view(gradients.logits.bias)});

        // optimizer.apply_gradients
        const std::array<const FloatTensor*, 4> gradientValues = {
            &gradients.hidden.kernel, &gradients.hidden.bias, &gradients.logits.kernel,
            &gradients.logits.bias};
        for (TrainedVariable& v : trained)
            if (!v.slots) {
                v.slots = Adam::makeSlots(*v.value);
                v.mHandle = createVariable(recording, "Fill", v.slots->m);
                v.vHandle = createVariable(recording, "Fill", v.slots->v);
            }
        adam.beginStep();
        for (std::size_t i = 0; i < trained.size(); ++i) {
            TrainedVariable& v = trained[i];
            adam.apply(*v.value, *v.slots, *gradientValues[i]);
            recording.execute("ResourceApplyAdam", nullptr,
                              {v.handle, v.mHandle, v.vHandle, gradientIds[i]}, {});
        }

        // Accuracy on the test set, with eager ops.
        modelInputs[0] = testIds[0];
        const ModelActivations evaluation = model(functions, variables, test.images);
        const auto testProbsId = functions.model.call(modelInputs, {view(evaluation.probs)})[0];
        const Int64Tensor predicted = math::argmaxRows(evaluation.probs);
        const auto predictedId =
            recording.execute("ArgMax", nullptr, {testProbsId}, {view(predicted)})[0];
        const Int64Tensor expected = math::argmaxRows(test.labels);
        const auto expectedId =
            recording.execute("ArgMax", nullptr, {testIds[1]}, {view(expected)})[0];
        const BoolTensor correct = math::equal(predicted, expected);
        const auto correctId =
            recording.execute("Equal", nullptr, {predictedId, expectedId}, {view(correct)})[0];
        const FloatTensor correctValues = math::castToFloat(correct);
        const auto castId =
            recording.execute("Cast", nullptr, {correctId}, {view(correctValues)})[0];
        const FloatTensor accuracy = math::meanAll(correctValues);
        recording.execute("Mean", nullptr, {castId}, {view(accuracy)});

        std::printf("Accuracy at step %d: %s\n", step, pythonFloat(accuracy[0]).c_str());
        std::fflush(stdout);
    }
}

} // namespace nanscope::demo
