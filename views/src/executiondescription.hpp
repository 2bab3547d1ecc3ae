// SPDX-License-Identifier: GPL-3.0-or-later
// The details of one execution as readable text: what the timeline panel shows under its strip,
// and what tests read.
#pragma once

#include "nanscope/core/snapshot.hpp"
#include "nanscope/widgets/segmentbar.hpp"

#include <QString>
#include <utility>
#include <vector>

namespace nanscope::views {

struct ExecutionDescription
{
    struct Output
    {
        int slot = 0;
        QString summary; // "1000 elements: 1 -inf, 999 finite", or why there is none
        QString type;    // "float32, 2-D, shape [2, 2]"
        QString values;  // a few values, for FULL_TENSOR records
        QString tensorId;
        QString device;
        core::TensorHealth health;
    };

    QString title; // "Execution #12: Log"
    std::vector<std::pair<QString, QString>> fields;
    std::vector<Output> outputs;

    // Everything above as lines of plain text ("Op type: Log", "Output slot 0: …").
    QString toText() const;
};

// Execution `index` of host `host` (Snapshot::hostExecution; host 0's are TensorFlow's list).
ExecutionDescription describeExecution(const core::Snapshot& snapshot, std::size_t host,
                                       std::uint64_t index);

// The parts of a tensor's health bar: finite classes in greys, infinities and NaN in colour.
widgets::BarSegments healthSegments(const core::TensorHealth& health);

// Function calls run a graph: tf.function's prefixes, or any execution with a graph id.
bool isFunctionCall(std::string_view opType, std::string_view graphId);

} // namespace nanscope::views
