# SPDX-License-Identifier: GPL-3.0-or-later
"""CUDA tensors summarised on the device (through gpu/) on the current stream. Exits 77, which
ctest reports as skipped, where torch has no CUDA device or this build cannot read device
memory."""

import sys
import unittest

import torch

from nanscope._native import native
from torchcase import RecordingCase


def device_usable():
    return torch.cuda.is_available() and native.device_tensors_supported()


class TestCuda(RecordingCase):
    def test_device_tensors_are_summarised(self):
        def program():
            x = torch.tensor([1.0, 0.0, -1.0], device="cuda")
            return torch.log(x).cpu()

        result, logdir, session = self.record(program)
        self.assertTrue(torch.equal(result.isnan(), torch.tensor([False, False, True])))
        log = [e for e in logdir.executions if e.op_type == "aten::log"][0]
        # [id, -1, dtype, rank, size, -inf, +inf, nan, -finite, zero, +finite]
        self.assertEqual(log.tensors[0].values[2:], [1, 1, 3, 1, 0, 1, 0, 1, 0])
        self.assertEqual(session.skipped(), {})

    def test_non_contiguous_device_tensors_are_summarised(self):
        """Transposed and sliced views are summarised like the dense tensors they show, never
        skipped: a NaN in one is seen."""
        def program():
            x = torch.tensor([[1.0, 0.0], [-1.0, 4.0], [2.0, 3.0]], device="cuda")
            y = torch.log(x)
            transposed = y.t()
            column = y[:, 1]
            return transposed.cpu(), column.cpu()

        (transposed, column), logdir, session = self.record(program)
        self.assertEqual(session.skipped(), {})
        by_type = {e.op_type: e for e in logdir.executions}
        # [id, -1, dtype, rank, size, -inf, +inf, nan, -finite, zero, +finite]
        log = by_type["aten::log"].tensors[0].values
        view = by_type["aten::t"].tensors[0].values
        self.assertEqual(log[5:], [1, 0, 1, 0, 1, 3])
        self.assertEqual(view[3:], [2, 6, 1, 0, 1, 0, 1, 3])
        sliced = [e for e in logdir.executions
                  if e.op_type in ("aten::select", "aten::slice")
                  and e.tensors and e.tensors[0].values[3:5] == [1, 3]]
        self.assertTrue(sliced, [e.op_type for e in logdir.executions])
        # log(0), log(4), log(3): one -inf, two positive.
        self.assertEqual(sliced[-1].tensors[0].values[5:], [1, 0, 0, 0, 0, 2])

    def test_a_strict_stop_raises_at_the_cuda_op(self):
        """stop_lag_events=0 waits for each op's summary: the error comes from the op itself."""
        import nanscope
        nanscope.torch.enable_dump_debug_info(self.logdir(), circular_buffer_size=-1,
                                              stop_at_first_nonfinite=True, stop_lag_events=0)
        x = torch.tensor([4.0, 1.0], device="cuda")
        with self.assertRaises(nanscope.NonFiniteError) as caught:
            torch.sqrt(x - 2.0)
        self.assertEqual(caught.exception.origin["op_type"], "aten::sqrt")
        self.assertIn("test_torch_cuda.py", str(caught.exception))

    def test_a_lagging_stop_comes_within_its_lag_and_names_the_op(self):
        import nanscope
        lag = 8
        nanscope.torch.enable_dump_debug_info(self.logdir(), circular_buffer_size=-1,
                                              stop_at_first_nonfinite=True, stop_lag_events=lag)
        x = torch.tensor([4.0, 1.0], device="cuda")
        later = 0
        y = None  # the stop may come at the sqrt itself, when its summary is back at once
        with self.assertRaises(nanscope.NonFiniteError) as caught:
            y = torch.sqrt(x - 2.0)
            for later in range(1, 4 * lag):
                x = x + 1.0  # finite ops, each summarised on the device
        self.assertLessEqual(later, lag + 1)
        self.assertEqual(caught.exception.origin["op_type"], "aten::sqrt")
        del y


if __name__ == "__main__":
    if not device_usable():
        print("skipped: no CUDA device usable by torch and this build")
        sys.exit(77)
    unittest.main()
