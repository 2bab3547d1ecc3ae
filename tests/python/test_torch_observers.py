# SPDX-License-Identifier: GPL-3.0-or-later
"""The C++ op observer (RecordFunction callbacks) records what the Python dispatch mode records:
the same ops in the same order, with the same tensor ids, modules, stacks, backward links and
summaries, on a program with modules, autocast, views, in-place ops, no_grad and backward."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import torch
from torch import nn

import nanscope.torch
from nanscope._native import native as _nanscope
from logdir import Logdir
from torchcase import HIDDEN_FROM_DISPATCH_MODES


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.mix = nn.Parameter(torch.eye(8))
        self.norm = nn.LayerNorm(8)

    def forward(self, x):
        h = self.proj(x).transpose(0, 1).contiguous().transpose(0, 1)
        h = torch.mm(h, self.mix)  # an op with a kernel of its own and an autocast wrapper
        mask = torch.full((x.shape[0], 8), float("-inf"), device=x.device).triu(1)
        # No residual: a tensor used twice has its gradients summed by the engine, in place
        # where nothing else holds the buffer, which a dispatch mode's references prevent
        # (torch 2.x): the C++ observer then records aten::add_ where the mode saw aten::add.
        return self.norm(torch.softmax(h + mask, dim=-1))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(Block(), Block())
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(self.blocks(x))


# Each test names the observers it records with.
os.environ.pop("NANSCOPE_TORCH_OBSERVER", None)

_TORCH = os.path.dirname(os.path.abspath(torch.__file__))
MODE_MACHINERY = (os.path.join(_TORCH, "utils", "_python_dispatch.py"),
                  os.path.join(_TORCH, "_compile.py"), os.path.join(_TORCH, "_dynamo") + os.sep)
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def program(device="cpu"):
    torch.manual_seed(3)
    model = Model().to(device)
    x = torch.randn(8, 8, device=device)
    for step in range(2):
        with torch.autocast(device, dtype=torch.bfloat16, enabled=step == 1):
            loss = model(x).float().log().mean()  # log of negatives: NaN
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.sub_(0.1 * p.grad)
                p.grad = None
    y = torch.arange(6.0, device=device).view(2, 3)
    y[:, 1].mul_(float("inf"))
    return y.sum(dim=0)


def record(observer, mode="FULL_HEALTH", device="cpu"):
    logdir = tempfile.mkdtemp(prefix=f"nanscope-{observer}-")
    os.environ["NANSCOPE_TORCH_OBSERVER"] = observer
    try:
        with nanscope.torch.enable_dump_debug_info(logdir, tensor_debug_mode=mode,
                                                   circular_buffer_size=-1) as session:
            program(device)
        assert session.observer == observer, session.observer
    finally:
        del os.environ["NANSCOPE_TORCH_OBSERVER"]
    return Logdir(logdir)


def comparable(logdir):
    """Every execution as what both observers must agree on: tensor ids renumbered in order of
    first sight, stacks as (file, line, function)."""
    numbers = {}

    def from_program(stack):
        # The frames of the test that calls program() differ, and the dispatch mode's stacks
        # end in torch's frames that call modes (and, in torch 2.x, keep Dynamo out of them).
        starts = [i for i, frame in enumerate(stack) if frame[2] == "program"]
        stack = stack[starts[0]:] if starts else stack
        return [f for f in stack if not any(f[0].startswith(d) for d in MODE_MACHINERY)]

    def number(i):
        return numbers.setdefault(i, len(numbers))

    out = []
    for e in logdir.executions:
        # Calls torch hides from dispatch modes, and profiler ops (which RecordFunction leaves
        # out), are not in both.
        if e.op_type in HIDDEN_FROM_DISPATCH_MODES or e.op_type.startswith("profiler::"):
            continue
        out.append((e.op_type, e.module_path, e.forward_op_type,
                    [number(i) for i in e.input_ids], [number(i) for i in e.output_ids],
                    [(t.dtype, t.shape, t.values) for t in e.tensors],
                    from_program(logdir.stack(e)), from_program(logdir.stack(e, forward=True))))
    return out


@unittest.skipUnless(_nanscope.has_op_observer(), "this build has no C++ op observer")
class TestObservers(unittest.TestCase):
    maxDiff = None

    def test_both_observers_record_the_same(self):
        for device, mode in [(d, m) for d in DEVICES for m in ("FULL_HEALTH", "NO_TENSOR")]:
            with self.subTest(device=device, mode=mode):
                dispatch = comparable(record("dispatch", mode, device))
                cpp = comparable(record("cpp", mode, device))
                self.assertGreater(len(dispatch), 150)
                for i, (a, b) in enumerate(zip(dispatch, cpp)):
                    self.assertEqual(a, b, f"execution {i}")
                self.assertEqual(len(dispatch), len(cpp))

    def test_an_op_that_raises_is_not_recorded(self):
        for observer in ("dispatch", "cpp"):
            logdir = tempfile.mkdtemp(prefix=f"nanscope-raises-{observer}-")
            os.environ["NANSCOPE_TORCH_OBSERVER"] = observer
            try:
                with nanscope.torch.enable_dump_debug_info(logdir, circular_buffer_size=-1):
                    a = torch.ones(2, 3)
                    with self.assertRaises(RuntimeError):
                        torch.mm(a, a)  # shapes that cannot be multiplied
                    a.add_(1.0)
            finally:
                del os.environ["NANSCOPE_TORCH_OBSERVER"]
            self.assertEqual([e.op_type for e in Logdir(logdir).executions],
                             ["aten::ones", "aten::add_"], observer)

    def test_a_recording_ended_on_another_thread_records_nothing_twice(self):
        import threading

        first = tempfile.mkdtemp(prefix="nanscope-first-")
        nanscope.torch.enable_dump_debug_info(first, circular_buffer_size=-1)
        torch.ones(1)
        ender = threading.Thread(target=nanscope.torch.disable_dump_debug_info)
        ender.start()
        ender.join()
        torch.zeros(1)  # this thread's callback is still there, and records nothing
        # Nor into a recording another thread started.
        elsewhere = tempfile.mkdtemp(prefix="nanscope-elsewhere-")
        started, stop = threading.Event(), threading.Event()

        def record_elsewhere():
            with nanscope.torch.enable_dump_debug_info(elsewhere, circular_buffer_size=-1):
                torch.eye(2)
                started.set()
                stop.wait(30)

        other = threading.Thread(target=record_elsewhere)
        other.start()
        started.wait(30)
        torch.rand(3)  # this thread does not record into it
        stop.set()
        other.join()
        second = tempfile.mkdtemp(prefix="nanscope-second-")
        with nanscope.torch.enable_dump_debug_info(second, circular_buffer_size=-1):
            torch.full((1,), 2.0)
        self.assertEqual([e.op_type for e in Logdir(first).executions], ["aten::ones"])
        self.assertEqual([e.op_type for e in Logdir(elsewhere).executions], ["aten::eye"])
        self.assertEqual([e.op_type for e in Logdir(second).executions], ["aten::full"])

    def test_flush_writes_every_op_observed_so_far(self):
        # NO_TENSOR records are written by a thread of their own: flush() waits for them.
        logdir = tempfile.mkdtemp(prefix="nanscope-flush-")
        with nanscope.torch.enable_dump_debug_info(logdir, tensor_debug_mode="NO_TENSOR",
                                                   circular_buffer_size=-1) as session:
            x = torch.ones(4)
            for _ in range(500):
                x = x * 1.0
            session.flush()
            self.assertEqual(len(Logdir(logdir).executions), 501)
            self.assertEqual(session.stats()["executions_recorded"], 501)

    def test_an_observer_built_for_another_torch_falls_back_to_the_dispatch_mode(self):
        # What an upgraded torch does to the observer's module: it no longer loads.
        program = textwrap.dedent("""
            import sys, tempfile, warnings
            import importlib.abc

            class Broken(importlib.abc.MetaPathFinder):
                def find_spec(self, name, path, target=None):
                    if name == "nanscope._nanscope_observed":
                        raise ImportError("undefined symbol: _ZN3c106detail14torchCheckFail")
                    return None

            sys.meta_path.insert(0, Broken())
            import torch
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                import nanscope.torch
            assert any("built for another torch" in str(w.message) for w in caught), caught
            with nanscope.torch.enable_dump_debug_info(tempfile.mkdtemp()) as session:
                torch.ones(1)
            assert session.observer == "dispatch", session.observer
            print("fell back")
        """)
        run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                             timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("fell back", run.stdout)

    def test_record_thread_in_the_recording_thread_changes_nothing(self):
        logdir = tempfile.mkdtemp(prefix="nanscope-nested-")
        with nanscope.torch.enable_dump_debug_info(logdir, circular_buffer_size=-1):
            with nanscope.torch.record_thread():
                torch.ones(1)
            torch.zeros(1)  # still recorded, once
        self.assertEqual([e.op_type for e in Logdir(logdir).executions],
                         ["aten::ones", "aten::zeros"])

    def test_backward_ops_name_their_forward_ops(self):
        executions = record("cpp").executions
        linked = [e for e in executions if e.forward_op_type]
        self.assertTrue(any(e.op_type == "aten::mm" and e.forward_op_type == "aten::addmm"
                            for e in linked), [(e.op_type, e.forward_op_type) for e in linked])
        self.assertIn("Model.blocks.1.norm", {e.module_path for e in linked})

    def test_an_autocast_op_is_recorded_once_with_its_casts(self):
        executions = record("cpp").executions
        # Step 2 runs under autocast: the casts to bfloat16 are ops of their own, and the
        # wrapper that autocast calls the op through is not a second record.
        self.assertIn("aten::_to_copy", [e.op_type for e in executions])
        mms = [e for e in executions if e.op_type == "aten::mm" and not e.forward_op_type]
        self.assertEqual(len(mms), 2 * 2)  # 2 steps, 2 blocks
        self.assertEqual([t.values[2] for e in mms for t in e.tensors], [1, 1, 14, 14])
        addmms = [e for e in executions if e.op_type == "aten::addmm"]
        self.assertEqual(len(addmms), 2 * 3)  # 2 steps, 3 linear layers
        # A FULL_HEALTH summary holds the tensor's dtype third.
        self.assertEqual({t.values[2] for e in addmms[:3] for t in e.tensors}, {1})  # DT_FLOAT
        self.assertEqual({t.values[2] for e in addmms[3:] for t in e.tensors}, {14})  # bfloat16


if __name__ == "__main__":
    sys.exit(unittest.main())
