# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile inputs and faults around a recording: bfloat16 values in FULL_TENSOR, op_regex syntax
that only Python's re knows, a dump root deleted while recording, os.fork() while recording, and
arguments the recorder cannot take. Each ends with a Python exception or a working recording,
never with a crash, a hang, or a run that silently records nothing."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import torch

import nanscope.torch
from logdir import Logdir
from torchcase import RecordingCase

REPORT = os.environ["NANSCOPE_REPORT"]


def report_json(logdir):
    done = subprocess.run([REPORT, "--json", "--no-index-cache", logdir], capture_output=True,
                          text=True, timeout=60)
    return done.returncode, json.loads(done.stdout)


def run_script(source, *args, timeout=60):
    """Runs `source` in a fresh interpreter (a crash or a hang must not take the tests along)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(source), *args],
                          capture_output=True, text=True, timeout=timeout, env=os.environ)


class TestBFloat16FullTensor(RecordingCase):
    def test_bfloat16_nonfinite_values_are_nanscopes_alerts(self):
        def program():
            x = torch.tensor([-1.0, 0.0, 2.0], dtype=torch.bfloat16)
            return torch.log(x)                                         # NaN, -inf, 0.69

        _, logdir, _ = self.record(program, mode="FULL_TENSOR")
        log = [e for e in logdir.executions if e.op_type == "aten::log"][0]
        self.assertEqual(log.tensors[0].dtype, 14)                       # DT_BFLOAT16
        self.assertEqual(log.tensors[0].content[2:4], bytes.fromhex("80ff"))  # -inf
        code, report = report_json(self.logdir())
        self.assertEqual(code, 1, report)                                # NaNscope's verdict
        self.assertGreaterEqual(report["alerts"]["total"], 1)
        self.assertGreaterEqual(report["alerts"]["counted"], 1)
        # TensorBoard's own reader raises none for bfloat16 values: its counts stay its own.
        self.assertEqual(report["alerts"]["tensorboard_total"], 0)
        self.assertEqual(report["tensorboard"]["alerts"], 0)
        self.assertIsNone(report["first_alert"])
        self.assertEqual(report["origin"]["op_type"], "aten::log")


class TestOpRegex(RecordingCase):
    def program(self):
        x = torch.ones(3)
        return torch.log(torch.exp(x))

    def summarised(self, **options):
        _, logdir, _ = self.record(self.program, **options)
        return {e.op_type for e in logdir.executions if e.tensors}

    def test_python_anchors_select_what_python_would(self):
        self.assertEqual(self.summarised(op_regex=r"\Aaten::log"), {"aten::log"})
        nanscope.torch.disable_dump_debug_info()
        self.assertEqual(self.summarised(op_regex=r"aten::log\Z", name="end"), {"aten::log"})

    def test_syntax_the_recorder_cannot_match_is_refused(self):
        for regex in (r"(?P<op>aten::log)", r"(?i)ATEN::LOG", r"(?<=a)ten", r"\N{DIGIT ONE}"):
            with self.subTest(regex=regex):
                with self.assertRaises(ValueError) as raised:
                    nanscope.torch.enable_dump_debug_info(self.logdir(), op_regex=regex)
                self.assertIn("op_regex", str(raised.exception))
                self.assertIsNone(nanscope.torch._session)
        with self.assertRaises(ValueError):  # flags the text of the pattern does not carry
            nanscope.torch.enable_dump_debug_info(self.logdir(), op_regex=re.compile("ATEN", re.I))


class TestDumpRootFaults(unittest.TestCase):
    SCRIPT = """
        import os, shutil, sys, tempfile, torch, nanscope.torch
        root = os.path.join(tempfile.mkdtemp(), "logdir")
        session = nanscope.torch.enable_dump_debug_info(root, circular_buffer_size=-1)
        x = torch.ones(3)
        torch.log(x)
        shutil.rmtree(root)
        if sys.argv[1] == "file":
            open(root, "w").close()
        for _ in range(3):
            torch.log(x)
        for name, call in (("flush", session.flush),
                           ("close", nanscope.torch.disable_dump_debug_info)):
            try:
                call()
                print(name, "returned")
            except OSError as e:
                print(name, "raised", type(e).__name__, e)
        """

    def test_a_deleted_or_replaced_dump_root_raises_instead_of_crashing(self):
        for how in ("deleted", "file"):
            with self.subTest(how=how):
                done = run_script(self.SCRIPT, how)
                self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
                self.assertIn("close", done.stdout)
                self.assertIn("raised", done.stdout, done.stdout)


class TestFork(unittest.TestCase):
    # The parent records, forks, records on; the child does `sys.argv[1]`. The parent waits for
    # the child at most 20 s (then kills it: the test fails instead of hanging).
    SCRIPT = """
        import os, sys, time, torch, nanscope.torch
        root = sys.argv[2]
        nanscope.torch.enable_dump_debug_info(root, circular_buffer_size=-1)
        x = torch.ones(3)
        torch.log(x)
        pid = os.fork()
        if pid == 0:
            torch.exp(x)
            if sys.argv[1] == "disable":
                nanscope.torch.disable_dump_debug_info()
                os._exit(0)
            sys.exit(0)  # the interpreter's normal exit: atexit handlers, finalisation
        deadline = time.monotonic() + 20
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                print("the child hung")
                sys.exit(3)
            time.sleep(0.05)
        torch.sin(x)
        nanscope.torch.disable_dump_debug_info()
        print("child status", os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status)
        """

    def test_fork_while_recording(self):
        for how in ("exit", "disable"):
            with self.subTest(how=how):
                root = os.path.join(tempfile.mkdtemp(prefix="nanscope-fork-"), "logdir")
                self.addCleanup(shutil.rmtree, os.path.dirname(root), True)
                done = run_script(self.SCRIPT, how, root, timeout=90)
                self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
                self.assertIn("child status 0", done.stdout)
                ops = [e.op_type for e in Logdir(root).executions]
                self.assertIn("aten::log", ops)
                self.assertIn("aten::sin", ops)      # the parent recorded on
                self.assertNotIn("aten::exp", ops)   # the child wrote nothing into its files
                code, report = report_json(root)
                self.assertEqual(code, 0, report)
                self.assertEqual(report["diagnostics"], [])


class TestArguments(RecordingCase):
    def test_clear_messages(self):
        with self.assertRaises(ValueError) as raised:
            nanscope.torch.enable_dump_debug_info(self.logdir(), circular_buffer_size=2 ** 31)
        self.assertIn("circular_buffer_size", str(raised.exception))
        with self.assertRaises(ValueError) as raised:
            nanscope.torch.enable_dump_debug_info(self.logdir(), tensor_dtypes=["nonsense"])
        self.assertIn("'nonsense'", str(raised.exception))
        self.assertIsNone(nanscope.torch._session)

    def test_dump_root_with_surrogate_escapes(self):
        # A file name that is not UTF-8, as Python spells it (os.fsdecode(b"\xff")).
        root = os.path.join(self.dir, "run-\udcff")
        try:
            with nanscope.torch.enable_dump_debug_info(root, circular_buffer_size=-1):
                torch.log(torch.ones(2))
        except (ValueError, TypeError) as e:
            self.assertIn("dump_root", str(e))
            self.assertNotIn("incompatible", str(e))
        else:
            self.assertIn("aten::log", [e.op_type for e in Logdir(root).executions])
        with self.assertRaises(ValueError) as raised:  # a lone surrogate is no file name at all
            nanscope.torch.enable_dump_debug_info(os.path.join(self.dir, "run-\ud800"))
        self.assertIn("dump_root", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
