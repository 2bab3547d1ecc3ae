# SPDX-License-Identifier: GPL-3.0-or-later
"""A torchrun job: four CPU processes of one gloo job record into one dump root, as every rank
of a torchrun job does, and rank 2 makes the NaN. Each rank writes its own file set, named
<host>-rank<N>; the job shares one run id; no file is shared; the report reads one run of four
hosts. The ranks are started by hand with torchrun's
environment (Debian's torch 1.13 cannot run torch.distributed.run)."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import unittest

import torch.distributed as dist

from logdir import records

REPORT = os.environ["NANSCOPE_REPORT"]
WORLD = 4
NAN_RANK = 2

WORKER = textwrap.dedent("""
    import sys
    import torch
    import torch.distributed as dist
    import nanscope.torch

    dist.init_process_group("gloo")  # env://, as torchrun sets it up
    rank = dist.get_rank()
    session = nanscope.torch.enable_dump_debug_info(sys.argv[1], tensor_debug_mode="FULL_HEALTH",
                                                    circular_buffer_size=-1)
    x = torch.full((4,), float(rank + 1))
    for step in range(3):
        y = x * 2
        if rank == %d and step == 1:
            y = torch.sqrt(y - 100.0)  # the job's first NaN
        dist.all_reduce(y)
        x = y / 10
    nanscope.torch.disable_dump_debug_info()
    print(session.run_id, session.host_name)
    dist.destroy_process_group()
""" % NAN_RANK)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@unittest.skipUnless(dist.is_available() and dist.is_gloo_available(),
                     "torch.distributed with gloo is not available")
class TestRanks(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="nanscope-ranks-")
        self.dump_root = os.path.join(self.dir, "logdir")
        script = os.path.join(self.dir, "worker.py")
        with open(script, "w") as f:
            f.write(WORKER)
        port = str(free_port())
        ranks = []
        for rank in range(WORLD):
            env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=port, RANK=str(rank),
                       LOCAL_RANK=str(rank), WORLD_SIZE=str(WORLD),
                       TORCHELASTIC_RUN_ID="job-" + port)
            ranks.append(subprocess.Popen([sys.executable, script, self.dump_root], env=env,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          text=True))
        self.outputs = []
        for p in ranks:
            out, err = p.communicate(timeout=240)
            self.assertEqual(p.returncode, 0, err)
            self.outputs.append(out.split())

    def tearDown(self):
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_each_rank_writes_its_own_file_set_of_one_run(self):
        run_ids = {run_id for run_id, _ in self.outputs}
        self.assertEqual(len(run_ids), 1, self.outputs)
        hosts = [host for _, host in self.outputs]
        self.assertEqual(hosts, [f"{socket.gethostname()}-rank{r}" for r in range(WORLD)])
        names = sorted(os.listdir(self.dump_root))
        self.assertEqual(len(names), 6 * WORLD, names)
        for rank in range(WORLD):
            mine = [n for n in names if n.split(".")[2] == hosts[rank]]
            self.assertEqual(len(mine), 6, names)
        # Every metadata file names the job's run.
        run_id = run_ids.pop().encode()
        for name in names:
            if name.endswith(".metadata"):
                payload = next(records(os.path.join(self.dump_root, name)))
                self.assertIn(run_id, payload)

    def test_the_report_reads_one_run_of_one_host_per_rank(self):
        done = subprocess.run([REPORT, "--json", self.dump_root], capture_output=True, text=True,
                              timeout=120)
        self.assertEqual(done.returncode, 1, done.stderr)  # alerts found
        report = json.loads(done.stdout)
        self.assertEqual(report["run_id"], self.outputs[0][0])
        executions = {h["name"]: h["executions"] for h in report["hosts"]}
        names = [f"{socket.gethostname()}-rank{r}" for r in range(WORLD)]
        self.assertEqual(sorted(executions), sorted(names))
        # Rank 2 ran two ops more (the subtraction and the square root that made the NaN).
        others = {executions[n] for i, n in enumerate(names) if i != NAN_RANK}
        self.assertEqual(len(others), 1)
        self.assertEqual(executions[names[NAN_RANK]], others.pop() + 2)
        self.assertFalse([d for d in report["diagnostics"] if d["severity"] == "error"])
        # Each rank's NaN shows in its own count, also where alerts are not read (other ranks).
        non_finite = {h["name"]: h["non_finite_executions"] for h in report["hosts"]}
        self.assertGreater(non_finite[names[NAN_RANK]], 0)
        self.assertIn("with NaN or ±inf", subprocess.run(
            [REPORT, self.dump_root], capture_output=True, text=True, timeout=120).stdout)
        # The run's origin is rank 2's square root, whichever rank is read as the main one: the
        # other ranks' NaN came later, through the all-reduce.
        self.assertEqual(report["earliest_origin_host"], names[NAN_RANK])
        by_host = {o["host"]: o for o in report["host_origins"]}
        rank2 = by_host.get(names[NAN_RANK], report["origin"])
        self.assertEqual(rank2["op_type"], "aten::sqrt")
        self.assertEqual(rank2["user_frame"]["line"], 15)  # the worker's sqrt line
        # The other ranks' NaN came in through the all-reduce, and their origins say so.
        for other in [report["origin"]] + report["host_origins"]:
            if other is not rank2:
                self.assertEqual(other["hint_rule"], "collective-input", other)
        done = subprocess.run([REPORT, "--json", "--host", names[NAN_RANK], self.dump_root],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(json.loads(done.stdout)["origin"]["op_type"], "aten::sqrt")


if __name__ == "__main__":
    unittest.main()
