# SPDX-License-Identifier: GPL-3.0-or-later
"""CUDA tensors summarised on the device (through gpu/) on the current stream. Exits 77, which
ctest reports as skipped, where torch has no CUDA device or this build cannot read device
memory."""

import sys
import unittest

import torch

import nanscope._nanscope as native
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


if __name__ == "__main__":
    if not device_usable():
        print("skipped: no CUDA device usable by torch and this build")
        sys.exit(77)
    unittest.main()
