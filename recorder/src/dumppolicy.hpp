// SPDX-License-Identifier: Apache-2.0
// TensorFlow's dump policy, apart from the recorder that builds and queues the events: whether an
// op's tensors are summarised at all (the op type filter, the dtype filter, types without values,
// ops whose outputs hold no value) and whether the mode can summarise a tensor of that dtype. The
// recorder asks it once per op or tensor, so that these rules stay in one place.
#pragma once

#include "nanscope/dtype.hpp"
#include "nanscope/status.hpp"
#include "nanscope/tensordebugmode.hpp"

#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>
#include <vector>

namespace nanscope::detail {

// What an execution records for one of its outputs.
enum class ExecutionOutput {
    Omitted,     // nothing: the filters leave it out, or the mode records no tensors
    Placeholder, // TensorFlow's empty tensor proto: the mode cannot summarise its dtype
    Summarised,  // a payload the mode builds
};

class DumpPolicy
{
public:
    // Ok when the mode and every dtype of the filter are known.
    static Status checkOptions(TensorDebugMode mode, const std::vector<DType>& tensorDtypes);

    // Sets the mode, the dtype filter and the op type filter (empty: every type); refuses a
    // filter that is unsafe for std::regex or not a regular expression.
    Status configure(TensorDebugMode mode, std::vector<DType> tensorDtypes,
                     const std::string& opTypeRegex);

    // Whether an op's outputs are summarised: the op type filter, and never the values of an
    // op that allocates without writing (their bits are no value; see unwrittenoutputs.hpp).
    bool selectsOpType(const std::string& type) const;
    // selectsOpType for executions, whose types repeat: the answers are cached.
    bool executionTypeSelected(const std::string& type);

    // Whether a trace of a tensor of this dtype is recorded (skipped otherwise).
    bool tracesTensor(bool typeSelected, DType dtype) const;
    // What an execution records for an output of this dtype.
    ExecutionOutput executionOutput(bool typeSelected, DType dtype) const;

private:
    // TensorFlow's "should dump" rule: the op type and dtype filters, and a type with values.
    bool shouldDump(bool typeSelected, DType dtype) const;
    // The mode's own dtype condition (format §6.4).
    bool modeCovers(DType dtype) const;

    TensorDebugMode m_mode = TensorDebugMode::FullHealth;
    std::vector<DType> m_tensorDtypes; // empty: every dtype
    std::optional<std::regex> m_opTypeRegex;

    std::mutex m_cacheMutex;
    std::unordered_map<std::string, bool> m_typeSelected; // selectsOpType's answers, with a regex
};

} // namespace nanscope::detail
