# SPDX-License-Identifier: GPL-3.0-or-later
"""Tensors and programs the recorder cannot or must not read the ordinary way: each is recorded,
skipped with a counted reason, or refused with a clear Python exception, and the program's own
results never change."""

import os
import stat
import threading
import unittest

import torch

import nanscope.torch
from logdir import Logdir
from torchcase import RecordingCase


def by_op(logdir, op):
    return [e for e in logdir.executions if e.op_type == op]


class TestBadInputs(RecordingCase):
    def test_non_contiguous_tensors_are_summarised_from_their_strides(self):
        base = torch.tensor([[1.0, float("nan")], [float("inf"), 0.0], [-2.0, 3.0]])

        def program():
            t = base.t()                   # a transposed view: strides (1, 2)
            s = base[::2]                  # a strided slice
            e = torch.zeros(1).expand(4)   # stride 0
            return torch.neg(t), t.clone(), s.clone(), e.clone(), t

        (neg, tc, sc, ec, t), logdir, session = self.record(program, mode="FULL_TENSOR")
        transpose = by_op(logdir, "aten::t")[0]
        values = torch.frombuffer(bytearray(transpose.tensors[0].content), dtype=torch.float32)
        expected = base.t().contiguous().reshape(-1)
        self.assertTrue(torch.equal(values.nan_to_num(7.0), expected.nan_to_num(7.0)))
        self.assertEqual(transpose.tensors[0].shape, [2, 3])
        expand = by_op(logdir, "aten::expand")[0]
        self.assertEqual(len(expand.tensors[0].content), 16)
        self.assertEqual(session.skipped(), {})

    def test_zero_size_complex_integer_and_bool_tensors(self):
        def program():
            z = torch.empty(0, 3)
            c = torch.complex(torch.ones(2), torch.zeros(2))
            i = torch.arange(4, dtype=torch.int32)
            b = i > 1
            return z.sum(), c * 2, i + 1, b.logical_not()

        results, logdir, session = self.record(program, mode="SHAPE")
        self.assertEqual(session.skipped(), {})
        shapes = {e.op_type: e.tensors[0].values for e in logdir.executions if e.tensors}
        self.assertEqual(shapes["aten::empty"][1:4], [1, 2, 0])      # float32, rank 2, size 0
        self.assertEqual(by_op(logdir, "aten::complex")[0].tensors[0].values, [])  # not covered
        self.assertEqual(shapes["aten::arange"][1], 3)              # int32
        self.assertEqual(shapes["aten::gt"][1], 10)                 # bool
        # FULL_HEALTH summarises floats only; the others get TensorFlow's empty placeholder.
        _, logdir, session = self.record(program, name="health")
        self.assertEqual(session.skipped(), {})
        self.assertEqual(by_op(logdir, "aten::gt")[0].tensors[0].values, [])
        # FULL_TENSOR copies every type's values, complex ones included.
        _, logdir, session = self.record(program, mode="FULL_TENSOR", name="full")
        self.assertEqual(session.skipped(), {})
        complex_tensor = by_op(logdir, "aten::complex")[0].tensors[0]
        self.assertEqual(complex_tensor.dtype, 8)
        self.assertEqual(complex_tensor.scomplex, [1.0, 0.0, 1.0, 0.0])

    def test_sparse_quantized_and_meta_tensors_are_skipped_with_a_reason(self):
        def program():
            s = torch.ones(3).to_sparse()
            q = torch.quantize_per_tensor(torch.ones(3), 0.1, 0, torch.quint8)
            m = torch.empty(3, device="meta")
            return s, q, m

        _, logdir, session = self.record(program)
        reasons = session.skipped()
        self.assertTrue(any("layout torch.sparse_coo" in r for r in reasons), reasons)
        self.assertTrue(any("dtype torch.quint8" in r for r in reasons), reasons)
        self.assertTrue(any("device meta" in r for r in reasons), reasons)
        self.assertIn("aten::to_sparse", self.ops(logdir))
        self.assertIn("aten::quantize_per_tensor", self.ops(logdir))

    def test_cuda_tensors_without_device_support_are_skipped_with_a_reason(self):
        if nanscope.torch._nanscope.device_tensors_supported():
            self.skipTest("this build and machine read CUDA tensors (test_torch_cuda checks them)")

        class OnCuda(torch.Tensor):
            """What the recorder reads of a CUDA tensor, on a machine without one."""
            is_cpu = property(lambda self: False)
            is_cuda = property(lambda self: True)

        fake = torch.ones(2).as_subclass(OnCuda)
        session = nanscope.torch.enable_dump_debug_info(self.logdir())
        session.recorder.record("test::on_cuda", (), {}, fake, [], None, False)
        reasons = session.skipped()
        nanscope.torch.disable_dump_debug_info()
        self.assertEqual(reasons, {"CUDA tensor: this build or machine cannot read device "
                                   "memory": 1})
        recorded = by_op(Logdir(self.logdir()), "test::on_cuda")[0]
        self.assertEqual(len(recorded.output_ids), 1)
        self.assertEqual(recorded.tensors, [])

    def test_ops_returning_nothing_or_nested_structures(self):
        def program():
            x = torch.ones(6)
            parts = torch.split(x, 2)                    # a tuple of tensors
            torch._foreach_add_(list(parts), 1.0)        # returns nothing
            stacked = torch.stack(parts)                 # a list argument
            return stacked, torch.max(x, dim=0)          # a named tuple

        (stacked, mx), logdir, session = self.record(program)
        split = by_op(logdir, "aten::split")[0]
        self.assertEqual(len(split.output_ids), 3)
        stack = by_op(logdir, "aten::stack")[0]
        self.assertEqual(stack.input_ids, split.output_ids)
        foreach = by_op(logdir, "aten::_foreach_add_")[0]
        self.assertEqual(foreach.output_ids, [])
        self.assertEqual(foreach.input_ids, split.output_ids)
        self.assertEqual(len(by_op(logdir, "aten::max")[0].output_ids), 2)
        self.assertEqual(session.skipped(), {})

    def test_threads(self):
        results = {}

        def worker(name, record):
            if record:
                with nanscope.torch.record_thread():
                    results[name] = torch.ones(2) * 3
            else:
                results[name] = torch.ones(2) * 5

        def program():
            threads = [threading.Thread(target=worker, args=("recorded", True)),
                       threading.Thread(target=worker, args=("unrecorded", False))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return torch.ones(1)

        _, logdir, _ = self.record(program)
        muls = by_op(logdir, "aten::mul")
        self.assertEqual(len(muls), 1)  # the recorded thread's; the other ran unrecorded
        self.assertTrue(torch.equal(results["recorded"], torch.full((2,), 3.0)))
        self.assertTrue(torch.equal(results["unrecorded"], torch.full((2,), 5.0)))

    def test_a_second_enable(self):
        path = self.logdir()
        first = nanscope.torch.enable_dump_debug_info(path)
        self.assertIs(nanscope.torch.enable_dump_debug_info(path), first)
        with self.assertRaisesRegex(ValueError, "already recording"):
            nanscope.torch.enable_dump_debug_info(path, tensor_debug_mode="NO_TENSOR")
        with self.assertRaisesRegex(ValueError, "already recording"):
            nanscope.torch.enable_dump_debug_info(self.logdir("other"))
        nanscope.torch.disable_dump_debug_info()

    def test_a_dump_root_that_cannot_be_written(self):
        blocker = os.path.join(self.dir, "a-file")
        with open(blocker, "w") as f:
            f.write("not a directory")
        with self.assertRaises(OSError) as raised:
            nanscope.torch.enable_dump_debug_info(os.path.join(blocker, "logdir"))
        self.assertIn("a-file", str(raised.exception))
        # Nothing stays enabled: the next call records normally.
        _, logdir, _ = self.record(lambda: torch.ones(1))
        self.assertIn("aten::ones", self.ops(logdir))

    def test_bad_arguments(self):
        path = self.logdir()
        with self.assertRaisesRegex(ValueError, "tensor_debug_mode"):
            nanscope.torch.enable_dump_debug_info(path, tensor_debug_mode="LOUD")
        with self.assertRaisesRegex(ValueError, "op_regex"):
            nanscope.torch.enable_dump_debug_info(path, op_regex="(")
        with self.assertRaisesRegex(ValueError, "tensor_dtypes"):
            nanscope.torch.enable_dump_debug_info(path, tensor_dtypes=["quint8"])
        with self.assertRaises(TypeError):
            nanscope.torch.enable_dump_debug_info(path, circular_buffer_size="ten")

    def test_a_dump_root_holding_another_run_is_refused(self):
        _, _, _ = self.record(lambda: torch.ones(1))
        with self.assertRaises(FileExistsError):
            nanscope.torch.enable_dump_debug_info(self.logdir())


if __name__ == "__main__":
    unittest.main()
