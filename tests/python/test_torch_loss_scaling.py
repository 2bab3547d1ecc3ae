# SPDX-License-Identifier: GPL-3.0-or-later
"""Loss scaling: a GradScaler whose scale is too large makes the gradients overflow on purpose;
its check finds them and the step is skipped, and the scale shrinks until it fits. Those
overflows are set aside as "loss-scaled" (also with the stop on); the program's own NaN later
in the run stays the origin. A step taken on what the scaler caught is the program's bug.

torch.amp.GradScaler runs on the CPU from torch 2.3; with an older torch (Debian's 1.13) the
test scales with a scaler of its own that dispatches the same ops (the loss times the scale
from a scale() in a grad_scaler.py, the check, the update), after giving those two ops CPU
kernels, which torch 1.13 has only for CUDA."""

import os
import sys
import tempfile
import textwrap
import unittest

import torch
import torch.nn.functional as F
from torch import nn

import nanscope
import nanscope.torch
from test_torch_intended import Report
from torchcase import RecordingCase

INIT_SCALE = 2.0 ** 127  # the first steps' gradients pass float32's range: skipped, halved


def has_cpu_kernels():
    try:
        found = torch.zeros(1)
        torch._amp_foreach_non_finite_check_and_unscale_([torch.ones(2)], found, torch.ones(1))
        return True
    except (RuntimeError, NotImplementedError):
        return False


_KERNELS = []  # keeps the registration alive


def give_cpu_kernels():
    """CPU kernels for the scaler's two ops, as torch 2.3+ has them."""
    lib = torch.library.Library("aten", "IMPL")

    def check(grads, found_inf, inv_scale):
        for grad in grads:
            if not bool(torch.isfinite(grad).all()):
                found_inf.fill_(1.0)
            grad.mul_(inv_scale)

    def update(scale, growth, found_inf, growth_factor, backoff_factor, growth_interval):
        if float(found_inf) > 0:
            scale.mul_(backoff_factor)
            growth.zero_()
        else:
            growth.add_(1)
            if int(growth) == growth_interval:
                scale.mul_(growth_factor)
                growth.zero_()
        return scale

    lib.impl("_amp_foreach_non_finite_check_and_unscale_", check, "CPU")
    lib.impl("_amp_update_scale_", update, "CPU")
    _KERNELS.append(lib)


OWN_SCALER = textwrap.dedent("""
    import torch

    class GradScaler:
        \"\"\"torch.amp.GradScaler's ops, on the CPU, for a torch that has none there.\"\"\"

        def __init__(self, init_scale):
            self._init_scale = init_scale
            self._scale = None
            self._found_inf = None

        def scale(self, loss):
            if self._scale is None:
                self._scale = torch.full((1,), self._init_scale, dtype=torch.float32)
                self._growth_tracker = torch.full((1,), 0, dtype=torch.int32)
            return loss * self._scale

        def unscale_(self, optimizer):
            inv_scale = self._scale.double().reciprocal().float()
            self._found_inf = torch.full((1,), 0.0)
            grads = [p.grad for group in optimizer.param_groups for p in group["params"]
                     if p.grad is not None]
            torch._amp_foreach_non_finite_check_and_unscale_(grads, self._found_inf, inv_scale)

        def step(self, optimizer):
            if self._found_inf is None:
                self.unscale_(optimizer)
            if not self._found_inf.item():
                optimizer.step()

        def update(self):
            torch._amp_update_scale_(self._scale, self._growth_tracker, self._found_inf, 2.0,
                                     0.5, 2000)
            self._found_inf = None

        def get_scale(self):
            return self._scale.item()
""")


def make_scaler(directory):
    try:
        return torch.amp.GradScaler("cpu", init_scale=INIT_SCALE)
    except (AttributeError, TypeError, RuntimeError, ValueError):
        pass
    if not has_cpu_kernels():
        give_cpu_kernels()
    path = os.path.join(directory, "grad_scaler.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(OWN_SCALER)
    sys.path.insert(0, directory)
    try:
        import grad_scaler  # noqa: E402 (written above)
    finally:
        sys.path.remove(directory)
    return grad_scaler.GradScaler(INIT_SCALE)


class TestLossScaling(RecordingCase):
    def train(self, bug_at=None, step_anyway=False, steps=8):
        """A small regression trained with loss scaling; at step `bug_at` the loss goes NaN by
        the program's own mistake. Returns the scales seen after each step."""
        model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        scaler = make_scaler(self.dir)
        x, y = torch.randn(16, 4), 10 * torch.randn(16, 1)  # gradients of about 10
        scales = []
        for step in range(steps):
            optimizer.zero_grad()
            loss = F.mse_loss(model(x), y)
            if step == bug_at:
                loss = loss + torch.sqrt(loss - 1e6)  # the program's bug: NaN
            scaler.scale(loss).backward()
            if step_anyway:
                scaler.unscale_(optimizer)
                optimizer.step()  # the bug: a step whatever the check found
            else:
                scaler.step(optimizer)
            scaler.update()
            scales.append(scaler.get_scale())
            print(f"step {step}: loss {loss.item():.3f}")
        return scales

    def test_overflows_the_scaler_caught_are_set_aside(self):
        scales, _, _ = self.record(lambda: self.train(bug_at=7))
        self.assertLess(scales[0], INIT_SCALE)  # the first step overflowed and was skipped
        report = Report(self.logdir())
        self.assertIsNotNone(report.origin, str(report))
        self.assertEqual(report.origin["op_type"], "aten::sqrt", str(report))
        intents = [s["intent"] for s in report.set_aside()]
        self.assertIn("loss-scaled", intents, str(report))
        self.assertIn("loss scaling's overflow", report.text)

    def test_a_clean_scaled_run_has_no_origin(self):
        self.record(self.train)
        report = Report(self.logdir())
        self.assertIsNone(report.origin, str(report))
        self.assertEqual(report.code, 0, str(report))

    def test_the_stop_passes_the_scalers_overflows_and_stops_at_the_bug(self):
        with self.assertRaises(nanscope.NonFiniteError) as raised:
            self.record(lambda: self.train(bug_at=7), stop_at_first_nonfinite=True)
        self.assertIn("aten::sqrt", str(raised.exception))

    def test_a_step_taken_on_caught_gradients_is_the_origin(self):
        self.record(lambda: self.train(step_anyway=True, steps=2))
        report = Report(self.logdir())
        self.assertIsNotNone(report.origin, str(report))
        self.assertNotIn("loss-scaled", [s["intent"] for s in report.set_aside()], str(report))


if __name__ == "__main__":
    unittest.main()
