# SPDX-License-Identifier: GPL-3.0-or-later
"""stop_at_first_nonfinite: a training loop stops at its first real NaN (never at a mask) with a
nanscope.NonFiniteError naming the op, its module and the user's line, and leaves a logdir that
ends at that op and that the report reads to the same origin."""

import json
import os
import subprocess
import sys
import unittest

import torch
from torch import nn

import nanscope
import nanscope.torch
from logdir import Logdir
from torchcase import RecordingCase, observed_ops

EXAMPLE = os.environ["NANSCOPE_TORCH_EXAMPLE"]
REPORT = os.environ["NANSCOPE_REPORT"]
THIS_FILE = os.path.abspath(__file__)


class Attention(nn.Module):
    """Causal self-attention: -inf above the diagonal before the softmax, on purpose."""

    def __init__(self, width=8):
        super().__init__()
        self.qkv = nn.Linear(width, 3 * width)

    def forward(self, x, fully_masked_row=False):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / 8 ** 0.5
        mask = torch.ones(x.shape[-2], x.shape[-2], dtype=torch.bool).triu(1)
        if fully_masked_row:
            mask[0, :] = True
        scores = scores.masked_fill(mask, float("-inf"))
        return torch.softmax(scores, dim=-1) @ v


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def forward(self, x, fully_masked_row=False, bad_sqrt=False):
        y = self.attn(x, fully_masked_row)
        if bad_sqrt:
            y = torch.sqrt(y - 10.0)  # the bug: sqrt of negatives
        return y.sum()


class TestStop(RecordingCase):
    def enable(self, **options):
        options.setdefault("circular_buffer_size", -1)
        return nanscope.torch.enable_dump_debug_info(self.logdir(), stop_at_first_nonfinite=True,
                                                     **options)

    def test_a_mask_does_not_stop_and_a_real_nan_does_at_the_users_line(self):
        net = Net()
        x = torch.randn(2, 5, 8)
        session = self.enable()
        for _ in range(2):  # masked attention, forward and backward: no stop
            net(x).backward()
        self.assertIsNone(session.stopped)
        with self.assertRaises(nanscope.NonFiniteError) as caught:
            net(x, bad_sqrt=True)
        error = caught.exception
        self.assertIsInstance(error, FloatingPointError)
        self.assertIs(session.stopped, error)
        self.assertEqual(error.origin["op_type"], "aten::sqrt")
        self.assertEqual(error.origin["module_path"], "Net")
        self.assertIsNone(error.stopped_at)
        self.assertEqual(error.filename, THIS_FILE)
        with open(THIS_FILE, encoding="utf-8") as source:
            self.assertIn("torch.sqrt(y - 10.0)", source.read().splitlines()[error.lineno - 1])
        message = str(error)
        self.assertIn("aten::sqrt in Net at " + THIS_FILE + f":{error.lineno} (Net.forward)", message)
        self.assertIn("made nan", message)
        self.assertIn(self.logdir(), message)
        # The logdir is complete and ends at the op; nothing after it is recorded.
        executions = Logdir(self.logdir()).executions
        self.assertEqual(executions[-1].op_type, "aten::sqrt")
        y = torch.ones(3) * 2  # the program may go on: unrecorded
        self.assertEqual(len(Logdir(self.logdir()).executions), len(executions))
        self.assertEqual(y.sum().item(), 6.0)

    def test_a_row_masked_entirely_stops_at_the_softmax(self):
        net = Net()
        self.enable()
        with self.assertRaises(nanscope.NonFiniteError) as caught:
            net(torch.randn(1, 4, 8), fully_masked_row=True)
        self.assertIn(caught.exception.origin["op_type"], ("aten::_softmax", "aten::softmax"))
        self.assertEqual(caught.exception.origin["module_path"], "Net.attn")

    def test_a_nan_of_the_backward_pass_raises_from_backward(self):
        w = torch.tensor([0.0, 1.0], requires_grad=True)
        self.enable()
        loss = torch.sqrt(w).sum()  # sqrt(0) is 0; its gradient is inf, then NaN
        with self.assertRaises(nanscope.NonFiniteError) as caught:
            (loss * 0.0).backward()
        self.assertTrue(caught.exception.origin["op_type"].startswith("aten::"))

    def test_expected_patterns_and_modes(self):
        self.enable(expected_nonfinite=["aten::sqrt:nan"])
        torch.sqrt(torch.tensor([-1.0]))  # expected: no stop
        nanscope.torch.disable_dump_debug_info()
        with self.assertRaises(ValueError) as caught:
            nanscope.torch.enable_dump_debug_info(self.logdir("no-values"),
                                                  tensor_debug_mode="NO_TENSOR",
                                                  stop_at_first_nonfinite=True)
        self.assertIn("needs a mode that reads values", str(caught.exception))
        with self.assertRaises(ValueError):
            nanscope.torch.enable_dump_debug_info(self.logdir("lag"),
                                                  stop_at_first_nonfinite=True,
                                                  stop_lag_events=-1)

    def test_recording_again_after_a_stop_starts_afresh(self):
        self.enable()
        with self.assertRaises(nanscope.NonFiniteError):
            torch.log(torch.tensor([-1.0]))
        again = nanscope.torch.enable_dump_debug_info(self.logdir("again"),
                                                      circular_buffer_size=-1)
        torch.exp(torch.tensor([1.0]))
        again.flush()
        ops = [e.op_type for e in Logdir(self.logdir("again")).executions]
        self.assertEqual(observed_ops(again, ops), ["aten::lift_fresh", "aten::exp"])


class TestExampleStops(RecordingCase):
    def test_the_example_stops_at_its_log_and_the_report_agrees(self):
        logdir = self.logdir()
        run = subprocess.run([sys.executable, EXAMPLE, "--dump_dir", logdir, "--max_steps", "10",
                              "--stop_at_first_nonfinite"], capture_output=True, text=True,
                             timeout=120)
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertIn("aten::log at " + os.path.abspath(EXAMPLE), run.stderr)
        self.assertIn("(cross_entropy) made -inf, which aten::mul", run.stderr)
        self.assertNotIn("Step 9", run.stdout)  # stopped, not trained on in NaN
        executions = Logdir(logdir).executions
        self.assertEqual([e.op_type for e in executions[-2:]], ["aten::log", "aten::mul"])
        report = subprocess.run([REPORT, "--json", logdir], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(report.returncode, 1, report.stderr)
        origin = json.loads(report.stdout)["origin"]
        self.assertEqual(origin["op_type"], "aten::log")
        self.assertEqual(origin["user_frame"]["function"], "cross_entropy")


if __name__ == "__main__":
    unittest.main()
