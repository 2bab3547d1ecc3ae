#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The cost of recording a PyTorch program with nanscope.torch, per tensor debug mode, against a
plain run and against torch.autograd.detect_anomaly, on the same models in one run.

Models (CPU, float32, training steps: forward, backward, Adam):
  tiny         eight 64×64 linear layers, batch 64 (small ops: the per-op cost shows)
  mlp          the tutorial's MLP: 784-500-10, batch 100
  transformer  one nn.TransformerEncoderLayer: d_model 256, 4 heads, feed-forward 1024,
               batch 8 x 128 tokens

For each: the median wall time of a step (the best of interleaved rounds), its ratio to the
plain step and to detect_anomaly's, the number of aten ops a step runs (as recorded), the plain
time per op, and the overhead per op in µs.

    PYTHONPATH=build/ci/python python3 tests/bench/torch_overhead.py [--steps N]
"""

import argparse
import warnings
import os
import shutil
import statistics
import sys
import tempfile
import time

import torch
from torch import nn
import torch.nn.functional as F

import nanscope.torch

MODES = ["NO_TENSOR", "CURT_HEALTH", "CONCISE_HEALTH", "FULL_HEALTH", "SHAPE", "FULL_TENSOR"]


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(784, 500)
        self.logits = nn.Linear(500, 10)

    def forward(self, x):
        return self.logits(torch.relu(self.hidden(x)))


def mlp_case():
    torch.manual_seed(0)
    model = MLP()
    x = torch.rand(100, 784)
    y = torch.randint(0, 10, (100,))
    return model, lambda m: F.cross_entropy(m(x), y)


def tiny_case():
    """Small ops (64×64), where the per-op cost of recording shows most."""
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(64, 64) for _ in range(8)])
    x = torch.randn(64, 64)
    return model, lambda m: m(x).square().mean()


def transformer_case():
    torch.manual_seed(0)
    model = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, dropout=0.0,
                                       batch_first=True)
    x = torch.randn(8, 128, 256)
    return model, lambda m: m(x).square().mean()


def timed_steps(model, loss_of, steps, warmup=2):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    times = []
    for i in range(warmup + steps):
        begin = time.perf_counter()
        loss = loss_of(model)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        elapsed = time.perf_counter() - begin
        if i >= warmup:
            times.append(elapsed)
    return statistics.median(times)


def timed_run(make, steps, mode=None, anomaly=False):
    """The median step time of one run; with `mode`, recorded (and the ops per step)."""
    model, loss_of = make()
    if anomaly:
        with torch.autograd.detect_anomaly():
            return timed_steps(model, loss_of, steps), None
    if mode is None:
        return timed_steps(model, loss_of, steps), None
    root = tempfile.mkdtemp(prefix="nanscope-bench-")
    try:
        session = nanscope.torch.enable_dump_debug_info(root, tensor_debug_mode=mode)
        t = timed_steps(model, loss_of, steps)
        recorded = session.stats()["executions_recorded"]
        nanscope.torch.disable_dump_debug_info()
        return t, recorded / (steps + 2)  # the warm-up steps are recorded too
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure(name, make, steps, rounds):
    """Every configuration once per round, interleaved, so that a machine whose load drifts
    affects them alike; each configuration's best round counts."""
    configs = ["plain", "detect_anomaly"] + MODES
    best = {c: float("inf") for c in configs}
    ops_per_step = None
    for _ in range(rounds):
        for c in configs:
            t, ops = timed_run(make, steps, mode=c if c in MODES else None,
                               anomaly=c == "detect_anomaly")
            best[c] = min(best[c], t)
            ops_per_step = ops_per_step or ops
    plain, anomaly = best["plain"], best["detect_anomaly"]
    print(f"\n{name}: {ops_per_step:.0f} aten ops per step; plain step {plain * 1e3:.2f} ms, "
          f"{plain / ops_per_step * 1e6:.1f} µs per op")
    print(f"  {'run':<16}{'step ms':>10}{'× plain':>10}{'× anomaly':>11}{'µs/op added':>13}")
    for c in configs:
        t = best[c]
        added = (t - plain) / ops_per_step * 1e6
        print(f"  {c:<16}{t * 1e3:>10.2f}{t / plain:>10.2f}{t / anomaly:>11.2f}{added:>13.1f}")


def main():
    warnings.filterwarnings("ignore", message="Anomaly Detection has been enabled")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10, help="timed steps per run (median)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (best counts)")
    parser.add_argument("--models", default="tiny,mlp,transformer")
    flags = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"recorder {nanscope.__version__}, circular_buffer_size 1000 (the default)")
    cases = {"tiny": tiny_case, "mlp": mlp_case, "transformer": transformer_case}
    for name in flags.models.split(","):
        measure(name, cases[name], flags.steps, flags.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
