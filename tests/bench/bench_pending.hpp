// SPDX-License-Identifier: GPL-3.0-or-later
// The record calls' share of a step whose tensors live on the device (bench_pending.cpp).
#pragma once

namespace nanscope::bench {

struct QueueTimes
{
    double median = 0; // microseconds per step
    double p90 = 0;
};

// The time a training step's record calls spend queueing their device events (22 traces and an
// execution, in two batches) in the recorder's queue, PendingEvents, over `steps` steps spaced
// 100 us apart like the tutorial's GPU steps. Host batches stand in for the device's, so this
// runs anywhere; the launches themselves are not in it.
QueueTimes queuedStepMicroseconds(int steps);

} // namespace nanscope::bench
