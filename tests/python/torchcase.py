# SPDX-License-Identifier: GPL-3.0-or-later
"""What the PyTorch tests share: a fresh logdir per test, and recording around a callable."""

import os
import shutil
import tempfile
import unittest

import torch

import nanscope.torch
from logdir import Logdir


# Calls that torch's C++ makes where dispatch modes never see them, and the C++ observer does:
# Tensor.detach_ in the tensor constructor, and the detach of nn.Parameter (recorded without
# values: it aliases a torch.empty).
HIDDEN_FROM_DISPATCH_MODES = ("aten::detach_", "aten::detach")


def observed_ops(session, ops):
    """The ops a dispatch mode would see among those `session` recorded."""
    if session.observer == "dispatch":
        return list(ops)
    return [op for op in ops if op not in HIDDEN_FROM_DISPATCH_MODES]


class RecordingCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="nanscope-torch-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.addCleanup(nanscope.torch.disable_dump_debug_info)
        torch.manual_seed(0)

    def logdir(self, name="logdir"):
        return os.path.join(self.dir, name)

    def record(self, fn, mode="FULL_HEALTH", name="logdir", **options):
        """Runs fn() while recording; returns (its result, the logdir read back, the session)."""
        options.setdefault("circular_buffer_size", -1)
        with nanscope.torch.enable_dump_debug_info(self.logdir(name), tensor_debug_mode=mode,
                                                   **options) as session:
            result = fn()
        return result, Logdir(self.logdir(name)), session

    def ops(self, logdir):
        return [e.op_type for e in logdir.executions]
