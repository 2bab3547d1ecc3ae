// SPDX-License-Identifier: Apache-2.0
#include "gpu_training.hpp"

#include "adam.hpp"
#include "gpu_gradients.hpp"
#include "gpu_kernels.hpp"
#include "gpu_math.hpp"
#include "gpu_mlp.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::demo::cuda {

namespace {

// A resource variable as eager TensorFlow creates one: the initial value, a handle, and the
// assignment. Returns the handle's id.
std::int64_t createVariable(Instrumentation& recording, std::string_view initializerOp,
                            const GpuFloat& initialValue,
                            std::source_location where = std::source_location::current())
{
    const auto value = recording.execute(initializerOp, nullptr, {}, {view(initialValue)}, where);
    const auto handle = recording.execute("VarHandleOp", nullptr, {}, {resourceView()}, where);
    recording.execute("AssignVariableOp", nullptr, {handle[0], value[0]}, {}, where);
    return handle[0];
}

struct GpuAdamSlots
{
    GpuFloat m;
    GpuFloat v;
};

GpuFloat zeros(const std::vector<std::int64_t>& shape)
{
    return math::zerosLike(GpuFloat(shape));
}

struct TrainedVariable
{
    GpuFloat* value;
    std::int64_t handle;
    std::optional<GpuAdamSlots> slots; // created by the first step, as Keras does
    std::int64_t mHandle = 0;
    std::int64_t vHandle = 0;
};

// ResourceApplyAdam as the CPU demo's Adam computes it (adam.cpp), in float32.
class GpuAdam
{
public:
    explicit GpuAdam(AdamOptions options) : m_options(options) {}
    void beginStep() { ++m_step; }
    void apply(GpuFloat& variable, GpuAdamSlots& slots, const GpuFloat& gradient) const
    {
        const auto step = static_cast<float>(m_step);
        const float beta1Power = std::pow(m_options.beta1, step);
        const float beta2Power = std::pow(m_options.beta2, step);
        const float alpha =
            m_options.learningRate * std::sqrt(1.0f - beta2Power) / (1.0f - beta1Power);
        adam(variable.data(), slots.m.data(), slots.v.data(), gradient.data(),
             static_cast<std::int64_t>(variable.size()), alpha, 1.0f - m_options.beta1,
             1.0f - m_options.beta2, m_options.epsilon, context().stream);
        checkLaunch("ResourceApplyAdam");
    }

private:
    AdamOptions m_options;
    int m_step = 0;
};

// Python's repr of a float32.
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
    GpuVariables variables = uploadVariables(initialVariables(options.seed));
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

    GpuAdam adam({.learningRate = options.learningRate});
    BatchStream trainBatches(data.train, options.batchSize, options.seed);
    // The test set does not change: it lives on the device for the whole run.
    const GpuUInt8 testImages = upload(data.test.images);
    const GpuUInt8 testLabels = upload(data.test.labels);

    for (int step = 0; step < options.maxSteps; ++step) {
        // The input pipelines: a shuffled training batch and the whole test set.
        const Dataset rawTrain = trainBatches.next();
        const GpuUInt8 trainImages = upload(rawTrain.images);
        const GpuUInt8 trainLabels = upload(rawTrain.labels);
        const auto rawTrainIds = recording.execute("IteratorGetNext", nullptr, {},
                                                   {view(trainImages), view(trainLabels)});
        const GpuFormattedBatch batch = formatExample(functions, trainImages, trainLabels);
        const auto batchIds =
            functions.formatExample.call(rawTrainIds, {view(batch.images), view(batch.labels)});
        const auto rawTestIds =
            recording.execute("IteratorGetNext", nullptr, {}, {view(testImages), view(testLabels)});
        const GpuFormattedBatch test = formatExample(functions, testImages, testLabels);
        const auto testIds =
            functions.formatExample.call(rawTestIds, {view(test.images), view(test.labels)});

        // Forward under the tape.
        std::vector<std::int64_t> modelInputs = {batchIds[0]};
        modelInputs.insert(modelInputs.end(), handles.begin(), handles.end());
        const GpuModelActivations forward = model(functions, variables, batch.images);
        const auto probsId = functions.model.call(modelInputs, {view(forward.probs)})[0];
        const GpuLossActivations lossValues =
            loss(functions, forward.probs, batch.labels, options.fix);
        const auto lossId = functions.loss.call({probsId, batchIds[1]}, {view(lossValues.loss)})[0];

        // tape.gradient: from d loss / d loss = 1 back to the variables.
        const GpuFloat ones = math::scalar(1.0f);
        const auto onesId = recording.execute("OnesLike", nullptr, {lossId}, {view(ones)})[0];
        const GpuLossGradients lossGradients =
            lossBackward(functions, ones, forward.probs, lossValues, options.fix);
        const auto lossGradientIds =
            functions.lossBackward.call({onesId, probsId, batchIds[1]},
                                        {view(lossGradients.probs), view(lossGradients.labels)});
        const GpuVariableGradients gradients =
            modelBackward(functions, lossGradients.probs, batch.images, forward, variables);
        const auto gradientIds = functions.modelBackward.call(
            {lossGradientIds[0], batchIds[0], probsId},
            {view(gradients.hidden.kernel), view(gradients.hidden.bias),
             view(gradients.logits.kernel), view(gradients.logits.bias)});

        // optimizer.apply_gradients
        const std::array<const GpuFloat*, 4> gradientValues = {
            &gradients.hidden.kernel, &gradients.hidden.bias, &gradients.logits.kernel,
            &gradients.logits.bias};
        for (TrainedVariable& v : trained)
            if (!v.slots) {
                v.slots = GpuAdamSlots{zeros(v.value->shape), zeros(v.value->shape)};
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
        const GpuModelActivations evaluation = model(functions, variables, test.images);
        const auto testProbsId = functions.model.call(modelInputs, {view(evaluation.probs)})[0];
        const GpuInt64 predicted = math::argmaxRows(evaluation.probs);
        const auto predictedId =
            recording.execute("ArgMax", nullptr, {testProbsId}, {view(predicted)})[0];
        const GpuInt64 expected = math::argmaxRows(test.labels);
        const auto expectedId =
            recording.execute("ArgMax", nullptr, {testIds[1]}, {view(expected)})[0];
        const GpuBool correct = math::equal(predicted, expected);
        const auto correctId =
            recording.execute("Equal", nullptr, {predictedId, expectedId}, {view(correct)})[0];
        const GpuFloat correctValues = math::castToFloat(correct);
        const auto castId =
            recording.execute("Cast", nullptr, {correctId}, {view(correctValues)})[0];
        const GpuFloat accuracy = math::meanAll(correctValues);
        recording.execute("Mean", nullptr, {castId}, {view(accuracy)});

        std::printf("Accuracy at step %d: %s\n", step, pythonFloat(download(accuracy)[0]).c_str());
        std::fflush(stdout);
    }
}

} // namespace nanscope::demo::cuda
