# SPDX-License-Identifier: GPL-3.0-or-later
"""Non-finite values a program makes on purpose are set aside, and the real bug stays the origin:
attention masks (masked_fill, key_padding_mask, a mask made by log of a 0/1 matrix, SDPA's),
uninitialised memory (torch.empty: the recorder summarises no value of it), and the user's own
expected_nonfinite patterns. A softmax of a row masked entirely, and -inf * 0, are real bugs."""

import json
import math
import os
import re
import stat
import subprocess
import unittest

import torch
import torch.nn.functional as F
from torch import nn

import nanscope.torch
from torchcase import RecordingCase

REPORT = os.environ["NANSCOPE_REPORT"]
THIS_FILE = os.path.abspath(__file__)
SOFTMAX_OPS = ("aten::softmax", "aten::_softmax", "aten::_safe_softmax")


def line_of(marker):
    """The line of this file that holds `marker` (in a comment), so that tests name lines by
    what they hold rather than by number."""
    with open(THIS_FILE, encoding="utf-8") as f:
        hits = [n for n, text in enumerate(f, 1) if marker in text and "line_of(" not in text]
    assert len(hits) == 1, (marker, hits)
    return hits[0]


class Report:
    """nanscope-report's answer on a logdir: its exit status, JSON and text."""

    def __init__(self, logdir):
        args = [REPORT, "--no-index-cache", logdir]
        done = subprocess.run(args[:1] + ["--json"] + args[1:], capture_output=True, text=True,
                              timeout=60)
        self.code = done.returncode
        self.stderr = done.stderr
        self.json = json.loads(done.stdout) if done.stdout.strip() else {}
        self.text = subprocess.run(args, capture_output=True, text=True, timeout=60).stdout

    @property
    def origin(self):
        return self.json.get("origin")

    def set_aside(self):
        """The set-aside groups; a clear failure while the report has no such key."""
        if "set_aside" not in self.json:
            raise AssertionError("the report has no \"set_aside\" key (the intent analysis "
                                 "has not landed?)\n" + self.text)
        return self.json["set_aside"]

    def set_aside_ops(self):
        return [s.get("op_type") for s in self.set_aside()]

    def __str__(self):
        return f"exit {self.code}\n{self.text}\n{self.stderr}"


# ---- the models: tiny, CPU, a few steps ----------------------------------------------------


class CausalSelfAttention(nn.Module):
    def __init__(self, d, n):
        super().__init__()
        self.d = d
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.register_buffer("causal", torch.triu(torch.ones(n, n, dtype=torch.bool), 1))

    def forward(self, x):
        t = x.shape[1]
        q, k, v = self.qkv(x).split(self.d, dim=-1)
        att = q @ k.transpose(-2, -1) / math.sqrt(self.d)
        att = att.masked_fill(self.causal[:t, :t], float("-inf"))  # on purpose: the mask
        att = torch.softmax(att, dim=-1)
        return self.proj(att @ v)


class TinyLM(nn.Module):
    def __init__(self, vocab=8, d=8, n=6):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.attn = CausalSelfAttention(d, n)
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        return self.head(self.attn(self.embed(tokens)))


def handwritten_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    return -torch.log(probs.gather(-1, targets.unsqueeze(-1))).mean()  # <- the loss line


class LogMaskAttention(nn.Module):
    """An additive mask made by an op: log of a lower-triangular 0/1 matrix is 0 or -inf."""

    def __init__(self, d, n):
        super().__init__()
        self.d = d
        self.qkv = nn.Linear(d, 3 * d)
        self.register_buffer("mask", torch.log(torch.tril(torch.ones(n, n))))

    def forward(self, x):
        q, k, v = self.qkv(x).split(self.d, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d) + self.mask
        return torch.softmax(scores, dim=-1) @ v


def pooled_mha(mha, x, padding):
    """Attention with a key padding mask, then mean pooling over the kept tokens."""
    out, _ = mha(x, x, x, key_padding_mask=padding)
    valid = padding.float()  # bug: the kept tokens are ~padding
    return (out * valid.unsqueeze(-1)).sum(1) / valid.sum(1, keepdim=True)  # <- the 0/0 line


def sgd(model, lr=0.1):
    return torch.optim.SGD(model.parameters(), lr=lr)


class TestIntended(RecordingCase):
    def report(self, logdir_name="logdir"):
        return Report(self.logdir(logdir_name))

    def assertOrigin(self, report, op_types):
        op_types = (op_types,) if isinstance(op_types, str) else op_types
        self.assertIsNotNone(report.origin, f"no origin, expected {op_types}\n{report}")
        self.assertIn(report.origin["op_type"], op_types, str(report))
        self.assertEqual(report.code, 1, str(report))

    def assertNoOrigin(self, report):
        self.assertIsNone(report.origin, str(report))
        self.assertEqual(report.code, 0, str(report))

    # ---- mixed precision: float16's range -----------------------------------------------------

    def test_a_float16_overflow_is_named_with_its_fixes(self):
        def program():
            x = torch.full((4,), 300.0, dtype=torch.float16)
            return x * x  # 90,000: past float16's 65,504

        self.record(program)
        report = self.report()
        self.assertOrigin(report, "aten::mul")
        self.assertEqual(report.origin["hint_rule"], "float16-overflow", str(report))
        self.assertIn("bfloat16", report.origin["fix"])
        self.assertIn("GradScaler", report.origin["fix"])

    # ---- (a) causal masked_fill, then log of an exact zero in the loss ---------------------

    def test_causal_mask_is_set_aside_and_log_of_zero_is_the_origin(self):
        model = TinyLM()
        optimizer = sgd(model)
        tokens = torch.tensor([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]])
        targets = torch.tensor([[2, 3, 4, 5, 6, 7], [5, 4, 3, 2, 1, 0]])

        def program():
            losses = []
            for step in range(3):
                if step == 2:  # a diverged weight: token 3's probability underflows to 0
                    with torch.no_grad():
                        model.head.bias[3] = -1e4
                loss = handwritten_loss(model(tokens), targets)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                losses.append(loss.item())
            return losses

        losses, _, _ = self.record(program)
        self.assertTrue(all(math.isfinite(x) for x in losses[:2]), losses)
        self.assertEqual(losses[2], math.inf)  # the premise: an exact zero reached the log
        report = self.report()
        self.assertOrigin(report, "aten::log")
        origin = report.origin
        self.assertEqual(origin["user_frame"]["file"], THIS_FILE, str(report))
        self.assertEqual(origin["user_frame"]["line"], line_of("# <- the loss line"),
                         str(report))
        focus = origin["source_context"]["focus_line"] - origin["source_context"]["first_line"]
        self.assertIn("torch.log(probs.gather", origin["source_context"]["lines"][focus])
        self.assertIn("aten::masked_fill", report.set_aside_ops(), str(report))

    # ---- (b) nn.MultiheadAttention's key padding mask, then 0/0 -----------------------------

    def test_key_padding_mask_is_set_aside_and_zero_over_zero_is_the_origin(self):
        mha = nn.MultiheadAttention(8, 2, batch_first=True)
        head = nn.Linear(8, 1)
        optimizer = torch.optim.SGD(list(mha.parameters()) + list(head.parameters()), lr=0.1)
        x = torch.randn(2, 6, 8)
        padding = torch.tensor([[False] * 4 + [True] * 2, [False] * 6])  # row 1: no padding

        def program():
            loss = head(pooled_mha(mha, x, padding)).square().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            return loss.item()

        loss, _, _ = self.record(program)
        self.assertTrue(math.isnan(loss))
        report = self.report()
        self.assertOrigin(report, "aten::div")
        self.assertEqual(report.origin["user_frame"]["line"], line_of("# <- the 0/0 line"),
                         str(report))
        self.assertTrue(any(op.startswith("aten::masked_fill") for op in report.set_aside_ops()),
                        str(report))

    # ---- (c) a mask made by log(tril(ones)), then sqrt of a negative -----------------------

    def record_log_mask_program(self, steps):
        x = torch.randn(2, 5, 8)

        def program():
            attn = LogMaskAttention(8, 5)  # its mask is made here, recorded
            optimizer = sgd(attn)
            for _ in range(steps):
                y = attn(x)
                scale = torch.sqrt(y.mean(-1) - y.abs().mean(-1) - 1e-3)  # <- E[y]-E|y| < 0
                loss = (y.sum(-1) * scale).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            return loss.item()

        loss, _, _ = self.record(program)
        self.assertTrue(math.isnan(loss))
        report = self.report()
        self.assertOrigin(report, "aten::sqrt")
        self.assertEqual(report.origin["user_frame"]["line"], line_of("# <- E[y]-E|y| < 0"),
                         str(report))
        self.assertIn("aten::log", report.set_aside_ops(), str(report))

    def test_log_made_mask_is_absorbed_and_sqrt_of_a_negative_is_the_origin(self):
        self.record_log_mask_program(steps=1)

    def test_log_made_mask_stays_set_aside_when_a_later_step_adds_it_to_nan(self):
        # The second step adds the mask (made once) to scores that the first step's NaN
        # weights made NaN: NaN carried through the add, not made by it from the mask.
        self.record_log_mask_program(steps=2)

    # ---- (d) scaled_dot_product_attention with a boolean mask -------------------------------

    @unittest.skipUnless(hasattr(F, "scaled_dot_product_attention"),
                         "F.scaled_dot_product_attention needs torch >= 2.0 (this is "
                         + torch.__version__ + ")")
    def test_sdpa_mask_is_set_aside_and_log_of_zero_is_the_origin(self):
        q, k, v = (torch.randn(2, 2, 5, 4) for _ in range(3))
        keep = torch.tril(torch.ones(5, 5, dtype=torch.bool))  # True: attend

        def program():
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
            probs = torch.softmax(out.sum(-1), dim=-1)
            probs = probs * (probs > 0.2)  # bug: zeroes the small probabilities
            return -torch.log(probs).mean()  # <- the sdpa loss line

        loss, _, _ = self.record(program)
        self.assertEqual(loss.item(), math.inf)
        report = self.report()
        self.assertOrigin(report, "aten::log")
        self.assertEqual(report.origin["user_frame"]["line"], line_of("# <- the sdpa loss line"),
                         str(report))

    # ---- (e) nothing but masks --------------------------------------------------------------

    def test_a_program_whose_only_non_finite_values_are_masks_has_no_origin(self):
        tokens = torch.tensor([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]])
        targets = torch.tensor([[2, 3, 4, 5, 6, 7], [5, 4, 3, 2, 1, 0]])
        padding = torch.tensor([[False] * 4 + [True] * 2, [False] * 6])

        def program():
            lm = TinyLM()  # the masks are made here, recorded
            mha = nn.MultiheadAttention(8, 2, batch_first=True)
            log_mask = LogMaskAttention(8, 6)
            optimizer = sgd(nn.ModuleList([lm, mha, log_mask]))
            for _ in range(2):
                h = lm.embed(tokens)
                h = lm.attn(h) + mha(h, h, h, key_padding_mask=padding)[0] + log_mask(h)
                loss = F.cross_entropy(lm.head(h).flatten(0, 1), targets.flatten())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            return loss.item()

        loss, _, _ = self.record(program)
        self.assertTrue(math.isfinite(loss))
        report = self.report()
        self.assertNoOrigin(report)
        alerts = report.json["alerts"]
        self.assertEqual(alerts.get("counted"), 0, str(report))
        self.assertGreater(alerts.get("intended", 0), 0, str(report))
        ops = report.set_aside_ops()
        self.assertIn("aten::masked_fill", ops, str(report))  # the causal mask
        self.assertIn("aten::log", ops, str(report))  # the mask made by log
        self.assertTrue(any(op.startswith("aten::masked_fill_") for op in ops), str(report))

    # ---- (f) parameters made by torch.empty, then initialised -------------------------------

    def test_torch_empty_parameters_raise_no_alert(self):
        # Memory that held NaNs, freed before recording: glibc hands blocks of this size back
        # to the next allocation of the same size, so torch.empty most likely returns NaNs.
        garbage = torch.full((64, 64), float("nan"))
        del garbage

        class Scratch(nn.Module):
            def __init__(self):
                super().__init__()
                self.weight = nn.Parameter(torch.empty(64, 64))
                self.bias = nn.Parameter(torch.empty(64))
                nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
                nn.init.zeros_(self.bias)

            def forward(self, x):
                return F.linear(x, self.weight, self.bias)

        def program():
            model = Scratch()
            scratch = model.weight.new_empty(4, 64)  # a buffer written before it is read
            scratch.copy_(torch.randn(4, 64))
            loss = model(scratch).square().mean()
            loss.backward()
            return loss.item()

        loss, logdir, _ = self.record(program)
        self.assertTrue(math.isfinite(loss))
        empties = [e for e in logdir.executions if e.op_type in ("aten::empty", "aten::new_empty")]
        self.assertGreaterEqual(len(empties), 3)
        for e in empties:  # recorded (ids, stack), not summarised
            self.assertEqual(e.tensors, [], e.op_type)
            self.assertEqual(len(e.output_ids), 1)
            self.assertTrue(e.frame_ids)
        report = self.report()
        self.assertNoOrigin(report)
        self.assertEqual(report.json["alerts"]["total"], 0, str(report))  # no health, no alert
        self.assertNotIn("aten::empty", report.set_aside_ops(), str(report))

    def test_unwritten_outputs_are_recorded_without_summaries(self):
        def program():
            a = torch.empty(3, 4)
            b = torch.empty_like(a)
            c = a.new_empty(2)
            d = torch.empty_strided((2, 3), (1, 2))
            e = torch.ones(5)
            e.resize_(7)  # two new elements, unwritten
            f = torch.ones(1)
            f.resize_as_(a)
            return a + b

        _, logdir, _ = self.record(program)
        by_type = {e.op_type: e for e in logdir.executions}
        for op in ("aten::empty", "aten::empty_like", "aten::new_empty", "aten::empty_strided",
                   "aten::resize_", "aten::resize_as_"):
            self.assertIn(op, by_type)
            self.assertEqual(by_type[op].tensors, [], op)
            self.assertEqual(len(by_type[op].output_ids), 1, op)
            self.assertTrue(by_type[op].frame_ids, op)
        # The program's other float ops keep their summaries, and the data flow its ids.
        self.assertEqual(len(by_type["aten::add"].tensors), 1)
        self.assertEqual(by_type["aten::add"].input_ids,
                         by_type["aten::empty"].output_ids + by_type["aten::empty_like"].output_ids)
        # SHAPE reads no value: there the shape is recorded, as for any op.
        _, logdir, _ = self.record(program, mode="SHAPE", name="shape")
        empty = [e for e in logdir.executions if e.op_type == "aten::empty"][0]
        self.assertEqual(empty.tensors[0].values[2:4], [2, 12])  # rank 2, 12 elements

    # ---- (g) a row masked entirely ----------------------------------------------------------

    def assertFullyMaskedRow(self, report):
        self.assertOrigin(report, SOFTMAX_OPS)
        self.assertEqual(report.origin["hint_rule"], "fully-masked-row", str(report))
        self.assertIn("masked entirely", report.origin["hint"], str(report))

    def test_a_padding_row_masked_entirely_makes_the_softmax_the_origin(self):
        mha = nn.MultiheadAttention(8, 2, batch_first=True)
        x = torch.randn(2, 4, 8)
        padding = torch.tensor([[False, False, True, True], [True] * 4])  # sample 1: all padding

        def program():
            out, _ = mha(x, x, x, key_padding_mask=padding)
            return out.sum()

        loss, _, _ = self.record(program)
        self.assertTrue(math.isnan(loss.item()))
        self.assertFullyMaskedRow(self.report())

    def test_a_masked_fill_of_a_whole_row_makes_the_softmax_the_origin(self):
        scores = torch.randn(4, 4)
        mask = torch.zeros(4, 4, dtype=torch.bool)
        mask[2] = True  # every key of query 2 masked

        def program():
            att = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
            return att @ torch.randn(4, 3)

        out, _, _ = self.record(program)
        self.assertTrue(torch.isnan(out[2]).all())
        self.assertFullyMaskedRow(self.report())

    # ---- -inf * (1 - mask) is NaN where the mask keeps ---------------------------------------

    def test_minus_inf_times_a_zero_one_mask_makes_the_mul_the_origin(self):
        scores = torch.randn(4, 4)
        keep = torch.tril(torch.ones(4, 4))

        def program():
            additive = float("-inf") * (1 - keep)  # <- -inf * 0 is NaN where keep is 1
            return torch.softmax(scores + additive, dim=-1)

        out, _, _ = self.record(program)
        self.assertTrue(torch.isnan(out).all())
        report = self.report()
        self.assertOrigin(report, "aten::mul")
        self.assertIn("nan", report.origin["health"].lower(), str(report))
        self.assertEqual(report.origin["user_frame"]["line"],
                         line_of("# <- -inf * 0 is NaN where keep is 1"), str(report))

    # ---- (h) the user's expected_nonfinite patterns ------------------------------------------

    def test_expected_nonfinite_sets_aside_log_of_zero(self):
        def program():
            with torch.no_grad():  # a table of log-likelihoods: -inf is a fine answer there
                probs = torch.tensor([[0.5, 0.5, 0.0], [0.0, 0.25, 0.75]])
                return torch.log(probs).sum(-1)

        out, _, _ = self.record(program, name="plain")
        self.assertEqual(out[0].item(), -math.inf)
        plain = self.report("plain")  # the control: without the pattern, log is the origin
        self.assertOrigin(plain, "aten::log")

        _, _, session = self.record(program, expected_nonfinite=["aten::log:-inf"])
        self.assertEqual(session.expected_nonfinite, ("aten::log:-inf",))
        path = os.path.join(self.logdir(), "nanscope_expected.txt")
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertTrue(lines[0].startswith("#"), lines)
        self.assertIn("aten::log:-inf", lines)
        report = self.report()
        self.assertNoOrigin(report)
        self.assertIn("aten::log:-inf", report.json.get("expected_patterns", []), str(report))
        patterns = [s.get("pattern") for s in report.set_aside()]
        self.assertIn("aten::log:-inf", patterns, str(report))

    def test_a_pattern_whose_kinds_do_not_match_sets_nothing_aside(self):
        def program():
            with torch.no_grad():
                return torch.log(torch.tensor([0.0, 1.0]))

        self.record(program, expected_nonfinite=["aten::log:nan"])
        self.assertOrigin(self.report(), "aten::log")


class TestExpectedNonfiniteArgument(RecordingCase):
    """The argument itself: its grammar, the side file, the session key."""

    def side_file(self, name="logdir"):
        return os.path.join(self.logdir(name), "nanscope_expected.txt")

    def read_side_file(self, name="logdir"):
        with open(self.side_file(name), encoding="utf-8") as f:
            return f.read()

    def test_malformed_patterns_raise_value_error_and_record_nothing(self):
        bad = {
            "": "names no op",
            "   ": "names no op",
            ":-inf": "names no op",
            "aten::log:": "where a kind belongs",
            "aten::log:-inf,": "where a kind belongs",
            "aten::log:infinity": "'infinity'",
            "Select*:-inf;nan": "where a kind belongs",
            "x" * 257: "256 bytes",
            "aten::log # why": "'#'",
            "aten::log\naten::div": "line break",
        }
        for pattern, message in bad.items():
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(ValueError, re.escape(message)):
                    nanscope.torch.enable_dump_debug_info(self.logdir(),
                                                          expected_nonfinite=[pattern])
                with self.assertRaisesRegex(ValueError, "OP\\[:KINDS\\]"):
                    nanscope.torch.enable_dump_debug_info(self.logdir(),
                                                          expected_nonfinite=[pattern])
        with self.assertRaises(TypeError):
            nanscope.torch.enable_dump_debug_info(self.logdir(), expected_nonfinite=[3])
        with self.assertRaises(TypeError):
            nanscope.torch.enable_dump_debug_info(self.logdir(), expected_nonfinite=5)
        self.assertFalse(os.path.exists(self.logdir()))  # nothing started, nothing written
        # A refused call leaves nothing enabled.
        _, logdir, _ = self.record(lambda: torch.ones(1))
        self.assertEqual(self.ops(logdir), ["aten::ones"])

    def test_well_formed_patterns(self):
        good = ["aten::log", "aten::log:-inf", "aten::masked_fill:-inf", "Select*:-inf,nan",
                " aten::div : nan , +inf ", "aten::*:any", "aten::log_?oftmax:inf", "x" * 256,
                "aten::"]
        _, _, session = self.record(lambda: torch.ones(1), expected_nonfinite=good)
        expected = tuple(p.strip() for p in good)
        self.assertEqual(session.expected_nonfinite, expected)
        lines = self.read_side_file().splitlines()
        self.assertTrue(lines[0].startswith("# "))
        self.assertEqual(lines[1:], list(expected))
        umask = os.umask(0)
        os.umask(umask)
        self.assertEqual(stat.S_IMODE(os.stat(self.side_file()).st_mode), 0o666 & ~umask)
        # A single str is one pattern, not its characters.
        _, _, session = self.record(lambda: torch.ones(1), name="one",
                                    expected_nonfinite="aten::log:-inf")
        self.assertEqual(session.expected_nonfinite, ("aten::log:-inf",))

    def test_no_patterns_no_file(self):
        self.record(lambda: torch.ones(1))
        self.record(lambda: torch.ones(1), name="empty", expected_nonfinite=[])
        self.assertFalse(os.path.exists(self.side_file()))
        self.assertFalse(os.path.exists(self.side_file("empty")))

    def test_the_dump_root_is_created_and_an_existing_file_is_merged(self):
        root = os.path.join(self.dir, "deep", "er", "logdir")
        os.makedirs(root)
        path = os.path.join(root, "nanscope_expected.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("# mine\naten::div:nan  # the user's own, with a comment\naten::log:-inf")
        with nanscope.torch.enable_dump_debug_info(
                root, expected_nonfinite=["aten::log:-inf", "aten::sqrt:nan", "aten::sqrt:nan"]):
            torch.ones(1)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text, "# mine\naten::div:nan  # the user's own, with a comment\n"
                               "aten::log:-inf\naten::sqrt:nan\n")
        self.assertEqual([n for n in os.listdir(root) if "nanscope_expected" in n],
                         ["nanscope_expected.txt"])  # no temporary file left beside it

        fresh = os.path.join(self.dir, "new", "logdir")
        with nanscope.torch.enable_dump_debug_info(fresh, expected_nonfinite=["aten::log"]):
            torch.ones(1)
        with open(os.path.join(fresh, "nanscope_expected.txt"), encoding="utf-8") as f:
            self.assertEqual(f.read().splitlines()[1:], ["aten::log"])

    def test_a_refused_dump_root_gets_no_side_file(self):
        self.record(lambda: torch.ones(1))
        with self.assertRaises(FileExistsError):
            nanscope.torch.enable_dump_debug_info(self.logdir(), expected_nonfinite=["aten::log"])
        self.assertFalse(os.path.exists(self.side_file()))

    def test_the_patterns_are_part_of_the_session(self):
        path = self.logdir()
        first = nanscope.torch.enable_dump_debug_info(path, expected_nonfinite=["aten::log"])
        self.assertIs(nanscope.torch.enable_dump_debug_info(path,
                                                            expected_nonfinite=["aten::log"]),
                      first)
        self.assertIs(nanscope.torch.enable_dump_debug_info(path,
                                                            expected_nonfinite=" aten::log"),
                      first)
        with self.assertRaisesRegex(ValueError, "already recording"):
            nanscope.torch.enable_dump_debug_info(path, expected_nonfinite=["aten::div"])
        with self.assertRaisesRegex(ValueError, "already recording"):
            nanscope.torch.enable_dump_debug_info(path)
        nanscope.torch.disable_dump_debug_info()


if __name__ == "__main__":
    unittest.main()
