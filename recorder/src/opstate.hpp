// SPDX-License-Identifier: Apache-2.0
// What an OpHandle holds: an op declared with Recorder::declareOp, as its traces need it. Shared
// by the recorder, which creates it, and the handle's accessors and the trace builder, which read
// it.
#pragma once

#include "nanscope/recorder.hpp"
#include "wire/messages.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nanscope::detail {

struct OpState
{
    std::string graphId;
    std::string name;
    std::string type;
    std::string device;
    int numOutputs = 0;
    std::vector<std::int32_t> outputTensorIds;
    std::vector<wire::TraceFrame> traceFrames; // per output slot, in the recorder's mode
    bool typeSelected = true;                  // by the op-type filter
    // For a recorder that stops at the first non-finite value: the keys of the op's inputs
    // (nonfinitewatch.hpp) and where it was created, which its traces name.
    std::vector<std::int64_t> inputKeys;
    std::vector<CodeLocation> creationStack;
};

} // namespace nanscope::detail
