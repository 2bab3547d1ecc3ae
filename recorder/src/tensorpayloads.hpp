// SPDX-License-Identifier: Apache-2.0
// How a recorded tensor becomes the payload of its event, apart from the recorder that checks the
// calls and queues the events: a host tensor is summarised (or copied, in FULL_TENSOR) at once; a
// device tensor of a mode that counts classes joins the call's summary batch, one kernel launch
// for the whole call, whose counts fill the payload later (pendingevents.hpp).
#pragma once

#include "dumppolicy.hpp"
#include "nanscope/status.hpp"
#include "nanscope/tensordebugmode.hpp"
#include "nanscope/tensorview.hpp"
#include "opstate.hpp"
#include "pendingevents.hpp"
#include "wire/forward.hpp"

#include <span>

namespace nanscope::detail {

// Reads the tensor as `mode` requires and fills `payload`; but a device tensor of a mode that
// counts classes is added to `device` (when given; its batch is taken from `pending`), whose batch
// fills the payload once the counts are back. `kinds`, when given, gets the tensor's non-finite
// kinds (nonfinitewatch.hpp) when it is summarised, then or once the counts are back.
Status buildPayload(wire::TensorProto& payload, const TensorView& tensor, TensorDebugMode mode,
                    double tensorId, bool eager, DeviceSummaries* device, PendingEvents& pending,
                    std::uint8_t* kinds = nullptr);

// The checks buildPayload makes of a tensor whose payload reads none of it (NO_TENSOR's, the same
// placeholder for every tensor): whether its memory can be recorded at all, and its shape.
Status checkUnreadTensor(const TensorView& tensor);

// Whether the tensor's payload in `mode` waits for a device summary (a health mode's counts of
// a device tensor); every other payload is made within the record call.
bool waitsForDevice(const TensorView& tensor, TensorDebugMode mode);

// The payload of a trace of output `slot` of `state`, to be framed with the output's
// TraceFrame; it may wait in `device` (waitsForDevice).
Status buildTracePayload(wire::TensorProto& payload, const OpState& state, int slot,
                         const TensorView& tensor, TensorDebugMode mode, PendingEvents& pending,
                         std::uint8_t* kinds = nullptr, DeviceSummaries* device = nullptr);

// The payloads of an execution's outputs, as `policy` selects them. A device tensor needs device
// support even where the mode reads nothing of it, so that a program learns at once that this
// build or machine cannot record its GPU tensors.
// `kinds`, when not empty, holds one entry per output, for buildPayload.
Status buildExecutionPayloads(wire::Execution& execution, std::span<const TensorView> outputs,
                              const DumpPolicy& policy, bool typeSelected, TensorDebugMode mode,
                              DeviceSummaries& device, PendingEvents& pending,
                              std::span<std::uint8_t> kinds = {});

// Launches the summaries of a call's device tensors, if it has any; the batch goes back to
// the pool when the launch fails (then nothing of the call may be recorded).
Status launchSummaries(DeviceSummaries& device, PendingEvents& pending);

} // namespace nanscope::detail
