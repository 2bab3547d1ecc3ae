# SPDX-License-Identifier: GPL-3.0-or-later
"""The PyTorch tutorial end to end: debug_mnist_torch.py records its NaN, nanscope-report finds
the origin at aten::log with the user's line; --fix trains."""

import json
import os
import re
import subprocess
import sys
import unittest

from torchcase import RecordingCase

EXAMPLE = os.environ["NANSCOPE_TORCH_EXAMPLE"]
REPORT = os.environ["NANSCOPE_REPORT"]


def accuracies(output):
    return [float(a) for a in re.findall(r"accuracy ([0-9.]+)", output)]


class TestExample(RecordingCase):
    def run_example(self, *args):
        done = subprocess.run([sys.executable, EXAMPLE, *args], capture_output=True, text=True,
                              timeout=120, check=True)
        return done.stdout

    def test_origin_is_the_log_on_the_users_line(self):
        logdir = self.logdir()
        output = self.run_example("--dump_dir", logdir, "--max_steps", "3")
        self.assertIn("loss nan", output)
        report = subprocess.run([REPORT, "--json", logdir], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(report.returncode, 1, report.stderr)  # alerts found
        origin = json.loads(report.stdout)["origin"]
        self.assertEqual(origin["source"], "eager")
        self.assertEqual(origin["op_type"], "aten::log")
        self.assertIn("-inf", origin["health"])
        self.assertIn("zero", origin["inputs"][0]["health"])
        self.assertEqual(origin["user_frame"]["file"], os.path.abspath(EXAMPLE))
        self.assertEqual(origin["user_frame"]["function"], "cross_entropy")
        focus = origin["source_context"]["focus_line"] - origin["source_context"]["first_line"]
        self.assertIn("torch.log(probs)", origin["source_context"]["lines"][focus])
        self.assertEqual(origin["hint_rule"], "log-of-zero")
        self.assertIn("torch.", origin["fix"])
        # torch's own frames are folded, the user's are not.
        frames = {f["file"]: f["framework"] for f in origin["stack"]}
        self.assertFalse(frames[os.path.abspath(EXAMPLE)])
        self.assertTrue(all(v for f, v in frames.items() if "/torch/" in f))

    def test_accuracy_stays_at_chance_and_climbs_with_the_fix(self):
        broken = accuracies(self.run_example("--max_steps", "12"))
        fixed = accuracies(self.run_example("--max_steps", "12", "--fix"))
        self.assertLess(max(broken[2:]), 0.3)
        self.assertGreater(fixed[-1], 0.8)
        self.assertGreater(fixed[-1], fixed[0])


if __name__ == "__main__":
    unittest.main()
