#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The cost of recording a PyTorch program with nanscope.torch, per tensor debug mode, against a
plain run, an empty Python dispatch mode and torch.autograd.detect_anomaly, in one run.

Models (training steps: forward, backward, optimizer):
  CPU (float32, Adam)
    tiny         eight 64×64 linear layers, batch 64 (small ops: the per-op cost shows)
    mlp          the tutorial's MLP: 784-500-10, batch 100
    transformer  one nn.TransformerEncoderLayer: d_model 256, 4 heads, feed-forward 1024,
                 batch 8 x 128 tokens
  CUDA (--device cuda)
    gpt          a GPT-style stack: nn.TransformerEncoder, d_model 768, 12 heads, 6 layers,
                 causal -inf mask, batch 16 x 256 tokens, bfloat16 autocast, AdamW
    mlp4096      eight Linear(4096, 4096) with ReLU, batch 1024, AdamW (large ops)

For each: the median wall time of a step (the best of interleaved rounds; CUDA steps end with a
synchronisation), its ratio to the plain step, the aten ops a step runs (as recorded), the
overhead per op in µs, and the goal where there is one. Ops are observed by the C++ op observer
where the package has it; --dispatch adds every mode observed by the Python dispatch mode
(MODE@dispatch), as stop_at_first_nonfinite always is (+stop, +strict). Then, per recording
mode, where the added time per op goes: the recorder's phases (timed inside it), and the rest:
RecordFunction and the observer's callbacks, or the dispatch mode itself (the empty mode's
cost) and the Python glue around the recorder.

    PYTHONPATH=build/ci/python python3 tests/bench/torch_overhead.py [--device cuda] [--steps N]
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings

import torch
from torch import nn
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

import nanscope.torch

MODES = ["NO_TENSOR", "CURT_HEALTH", "CONCISE_HEALTH", "FULL_HEALTH", "SHAPE", "FULL_TENSOR"]
CUDA_MODES = ["NO_TENSOR", "CURT_HEALTH", "FULL_HEALTH"]

# (case, configuration): ("µs/op" or "× plain", most allowed). The CPU goals are per op on the
# tiny model; the GPU goals are step-time ratios (TensorFlow's recorder: +15 % and +50 %).
GOALS = {
    ("tiny", "NO_TENSOR"): ("µs/op", 10.0),
    ("tiny", "FULL_HEALTH"): ("µs/op", 15.0),
    ("gpt", "NO_TENSOR"): ("× plain", 1.10),
    ("gpt", "FULL_HEALTH"): ("× plain", 1.25),
    ("mlp4096", "FULL_HEALTH"): ("× plain", 1.05),
}


class EmptyMode(TorchDispatchMode):
    """What any Python dispatch mode costs: it only runs the op."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(784, 500)
        self.logits = nn.Linear(500, 10)

    def forward(self, x):
        return self.logits(torch.relu(self.hidden(x)))


def mlp_case(device):
    torch.manual_seed(0)
    model = MLP().to(device)
    x = torch.rand(100, 784, device=device)
    y = torch.randint(0, 10, (100,), device=device)
    return model, lambda m: F.cross_entropy(m(x), y), torch.optim.Adam


def tiny_case(device):
    """Small ops (64×64), where the per-op cost of recording shows most."""
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(64, 64) for _ in range(8)]).to(device)
    x = torch.randn(64, 64, device=device)
    return model, lambda m: m(x).square().mean(), torch.optim.Adam


def transformer_case(device):
    torch.manual_seed(0)
    model = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024, dropout=0.0,
                                       batch_first=True).to(device)
    x = torch.randn(8, 128, 256, device=device)
    return model, lambda m: m(x).square().mean(), torch.optim.Adam


def gpt_case(device):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072, dropout=0.0,
                                       batch_first=True, norm_first=True)
    with warnings.catch_warnings():  # the nested-tensor fast path is off with norm_first
        warnings.simplefilter("ignore")
        model = nn.TransformerEncoder(layer, num_layers=6).to(device)
    x = torch.randn(16, 256, 768, device=device)
    mask = torch.triu(torch.full((256, 256), float("-inf"), device=device), diagonal=1)
    autocast_dtype = torch.bfloat16 if device == "cuda" else torch.float32

    def loss_of(m):
        with torch.autocast(device_type=device, dtype=autocast_dtype, enabled=device == "cuda"):
            return m(x, mask=mask).float().square().mean()

    return model, loss_of, torch.optim.AdamW


def mlp4096_case(device):
    torch.manual_seed(0)
    layers = []
    for _ in range(8):
        layers += [nn.Linear(4096, 4096), nn.ReLU()]
    model = nn.Sequential(*layers).to(device)
    x = torch.randn(1024, 4096, device=device)
    return model, lambda m: m(x).square().mean(), torch.optim.AdamW


CASES = {"tiny": tiny_case, "mlp": mlp_case, "transformer": transformer_case, "gpt": gpt_case,
         "mlp4096": mlp4096_case}


def synchronize(device):
    if device == "cuda":
        torch.cuda.synchronize()


def timed_steps(model, loss_of, optimizer_type, steps, device, warmup=3):
    optimizer = optimizer_type(model.parameters(), lr=1e-4)
    times = []
    for i in range(warmup + steps):
        synchronize(device)
        begin = time.perf_counter()
        loss = loss_of(model)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        synchronize(device)
        elapsed = time.perf_counter() - begin
        if i >= warmup:
            times.append(elapsed)
    return statistics.median(times)


def timed_run(case, device, steps, config, profile=False):
    """The median step time of one run of `config` ("plain", "empty_mode", "detect_anomaly" or a
    tensor debug mode); for a mode also the ops per step and, with `profile`, the recorder's
    phase times."""
    model, loss_of, optimizer_type = CASES[case](device)
    if config == "detect_anomaly":
        with torch.autograd.detect_anomaly():
            return timed_steps(model, loss_of, optimizer_type, steps, device), None, None
    if config == "empty_mode":
        with EmptyMode():
            return timed_steps(model, loss_of, optimizer_type, steps, device), None, None
    if config == "plain":
        return timed_steps(model, loss_of, optimizer_type, steps, device), None, None
    # "FULL_HEALTH+stop": stop_at_first_nonfinite with its default lag; "+strict": a lag of 0,
    # which waits for every op's summary (on a GPU, a synchronisation per op); "@dispatch":
    # observed by the Python dispatch mode rather than the C++ observer.
    config, _, observer = config.partition("@")
    mode, _, stop = config.partition("+")
    options = {}
    if stop:
        options = {"stop_at_first_nonfinite": True,
                   "stop_lag_events": 0 if stop == "strict" else 64}
    root = tempfile.mkdtemp(prefix="nanscope-bench-")
    previous = os.environ.pop("NANSCOPE_TORCH_OBSERVER", None)
    if observer:
        os.environ["NANSCOPE_TORCH_OBSERVER"] = observer
    try:
        session = nanscope.torch.enable_dump_debug_info(root, tensor_debug_mode=mode, **options)
        if previous is not None:
            os.environ["NANSCOPE_TORCH_OBSERVER"] = previous
        elif observer:
            del os.environ["NANSCOPE_TORCH_OBSERVER"]
        if profile:
            session._profile_phases(True)
        t = timed_steps(model, loss_of, optimizer_type, steps, device)
        recorded = session.stats()["executions_recorded"]
        phases = session._phase_times() if profile else None
        nanscope.torch.disable_dump_debug_info()
        return t, recorded / (steps + 3), phases  # the warm-up steps are recorded too
    finally:
        shutil.rmtree(root, ignore_errors=True)


def goal_text(case, config, ratio, added):
    goal = GOALS.get((case, config))
    if goal is None:
        return ""
    unit, limit = goal
    value = added if unit == "µs/op" else ratio
    return f"  goal ≤ {limit:g} {unit}: {'met' if value <= limit else 'MISSED'}"


def measure(case, device, modes, steps, rounds, anomaly):
    """Every configuration once per round, interleaved, so that a machine whose load drifts
    affects them alike; each configuration's best round counts."""
    configs = ["plain", "empty_mode"] + (["detect_anomaly"] if anomaly else []) + modes
    best = {c: float("inf") for c in configs}
    ops_per_step = None
    for _ in range(rounds):
        for c in configs:
            t, ops, _ = timed_run(case, device, steps, c)
            best[c] = min(best[c], t)
            ops_per_step = ops_per_step or ops
    plain = best["plain"]
    print(f"\n{case} ({device}): {ops_per_step:.0f} aten ops per step; plain step "
          f"{plain * 1e3:.2f} ms, {plain / ops_per_step * 1e6:.1f} µs per op")
    print(f"  {'run':<20}{'step ms':>10}{'× plain':>10}{'µs/op added':>13}")
    for c in configs:
        t = best[c]
        added = (t - plain) / ops_per_step * 1e6
        print(f"  {c:<20}{t * 1e3:>10.2f}{t / plain:>10.2f}{added:>13.1f}"
              f"{goal_text(case, c, t / plain, added)}")
    dispatch = (best["empty_mode"] - plain) / ops_per_step * 1e6
    for config in [c for c in configs if c.partition("@")[0] in ("NO_TENSOR", "FULL_HEALTH")]:
        _, ops, phases = timed_run(case, device, steps, config, profile=True)
        calls = max(phases.pop("calls", 0), 1)
        added = (best[config] - plain) / ops_per_step * 1e6
        inside = sum(phases.values()) / calls / 1e3
        parts = ", ".join(f"{name} {ns / calls / 1e3:.1f}" for name, ns in phases.items())
        if config.endswith("@dispatch"):
            print(f"  {config} µs/op: dispatch mode {dispatch:.1f}; recorder {inside:.1f} "
                  f"({parts}); Python glue and hooks {added - dispatch - inside:.1f}")
        else:
            print(f"  {config} µs/op: recorder {inside:.1f} ({parts}); RecordFunction and the "
                  f"observer's callbacks {added - inside:.1f}")


def main():
    warnings.filterwarnings("ignore", message="Anomaly Detection has been enabled")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--steps", type=int, default=10, help="timed steps per run (median)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (best counts)")
    parser.add_argument("--models", help="comma-separated (default: the device's set)")
    parser.add_argument("--modes", help="comma-separated tensor debug modes")
    parser.add_argument("--no-anomaly", action="store_true", help="leave detect_anomaly out")
    parser.add_argument("--stop", action="store_true",
                        help="also FULL_HEALTH with stop_at_first_nonfinite: the default lag of 64 "
                             "ops (+stop) and strict, a lag of 0 (+strict)")
    parser.add_argument("--dispatch", action="store_true",
                        help="also each mode observed by the Python dispatch mode (MODE@dispatch) "
                             "rather than the C++ observer")
    flags = parser.parse_args()
    if flags.device == "cuda" and not torch.cuda.is_available():
        print("no CUDA device: nothing measured")
        return 0
    cuda = flags.device == "cuda"
    models = flags.models or ("gpt,mlp4096" if cuda else "tiny,mlp,transformer")
    modes = flags.modes.split(",") if flags.modes else (CUDA_MODES if cuda else MODES)
    if flags.dispatch:
        modes = modes + [m + "@dispatch" for m in modes]
    if flags.stop:
        modes = modes + ["FULL_HEALTH+stop", "FULL_HEALTH+strict"]
    device_name = torch.cuda.get_device_name() if cuda else f"{torch.get_num_threads()} threads"
    observer = "C++ op observer" if nanscope.torch._nanscope.has_op_observer() else "dispatch mode"
    print(f"torch {torch.__version__}, {device_name}, recorder {nanscope.__version__}, "
          f"circular_buffer_size 1000 (the default), ops observed by the {observer}")
    for case in models.split(","):
        measure(case, flags.device, modes, flags.steps, flags.rounds, not flags.no_anomaly)
    return 0


if __name__ == "__main__":
    sys.exit(main())
