# SPDX-License-Identifier: GPL-3.0-or-later
"""torch.compile under the recorder: compiled functions run eagerly while the recording lasts
(torch 2.6 and later with the C++ observer, through torch.compiler.set_stance; 2.5 and later
with the dispatch mode), so the op that makes a NaN inside one is the origin; other torch 2.x
run the compiled kernels unseen, and the recording warns once that it cannot see inside them;
torch before 2.0 has no torch.compile (the part that compiles is skipped there, with that
reason)."""

import unittest
import warnings

import torch

from nanscope import _compile
from nanscope._compile import ALL_OPS, NO_COMPILE, NOT_INSIDE, compiled_code_seen
from test_torch_intended import Report
from torchcase import RecordingCase


class FakeTorch:
    def __init__(self, version):
        self.__version__ = version


class TestVersions(unittest.TestCase):
    def test_what_each_torch_shows_of_compiled_code(self):
        for version, seen in [("1.13.1", NO_COMPILE), ("1.13.0a0+gitabc", NO_COMPILE),
                              ("2.0.1", NOT_INSIDE), ("2.4.1+cu121", NOT_INSIDE),
                              ("2.5.0", ALL_OPS), ("2.11.0a0+git4d3c2b1", ALL_OPS),
                              ("3.0.0", ALL_OPS), ("nonsense", NO_COMPILE)]:
            self.assertEqual(compiled_code_seen(version), seen, version)
        # The C++ observer makes compiled code run eagerly through torch.compiler.set_stance.
        for version, seen in [("1.13.1", NO_COMPILE), ("2.5.1", NOT_INSIDE), ("2.6.0", ALL_OPS),
                              ("2.11.0", ALL_OPS)]:
            self.assertEqual(compiled_code_seen(version, "cpp"), seen, version)

    def test_the_stance_is_forced_only_for_the_cpp_observer_and_restored(self):
        class Compiler:
            def __init__(self):
                self.stances = []

            def set_stance(self, stance):
                self.stances.append(stance)

        fake = FakeTorch("2.7.0")
        fake.compiler = Compiler()
        self.assertIsNone(_compile.force_eager(fake, "dispatch"))
        self.assertIsNone(_compile.force_eager(FakeTorch("2.5.1"), "cpp"))  # no set_stance
        if compiled_code_seen(torch.__version__, "cpp") != ALL_OPS:
            return  # the rest imports torch._dynamo, which this torch lacks
        restore = _compile.force_eager(fake, "cpp")
        self.assertEqual(fake.compiler.stances, ["force_eager"])
        restore()
        self.assertEqual(fake.compiler.stances[-1], "default")

    def test_a_torch_that_hides_compiled_graphs_warns_and_says_what_to_do(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _compile.warn_if_compiled_graphs_unseen(FakeTorch("2.3.1"))
            _compile.warn_if_compiled_graphs_unseen(FakeTorch("2.6.0"))
            _compile.warn_if_compiled_graphs_unseen(FakeTorch("1.13.1"))
        self.assertEqual(len(caught), 1, [str(w.message) for w in caught])
        self.assertIs(caught[0].category, RuntimeWarning)
        self.assertIn("TORCHDYNAMO_DISABLE=1", str(caught[0].message))
        self.assertIn("2.3.1", str(caught[0].message))


@unittest.skipUnless(hasattr(torch, "compile"),
                     f"torch {torch.__version__} has no torch.compile")
class TestCompiled(RecordingCase):
    def test_a_nan_inside_a_compiled_function(self):
        @torch.compile(backend="eager")  # Dynamo alone: no compiler needed on the test machine
        def loss(x):
            return torch.log(x - 1.0).sum()  # the NaN: log of negatives

        x = torch.tensor([0.5, 2.0, 3.0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _, _, session = self.record(lambda: loss(x))
        report = Report(self.logdir())
        if compiled_code_seen(torch.__version__, session.observer) == ALL_OPS:
            self.assertIsNotNone(report.origin, str(report))
            self.assertEqual(report.origin["op_type"], "aten::log", str(report))
        else:  # the compiled graph ran unseen: said once, and the logdir still reads
            self.assertTrue(any("torch.compile" in str(w.message) for w in caught))
            self.assertIn(report.code, (0, 1), str(report))


if __name__ == "__main__":
    unittest.main()
