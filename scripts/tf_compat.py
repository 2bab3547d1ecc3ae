#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later

"""Compares TensorFlow's own tfdbg2 reader with nanscope-report on logdirs.

For each logdir: TensorFlow's reader (debug_events_reader.py, with TensorBoard's Debugger V2
multiplexer and alert monitor, run by a tf-reader tool) must load it without errors, and its
counts and first alert must equal `nanscope-report --json`'s. Prints one line per logdir and
exits 1 when any differs. Used by scripts/tf-compat.sh.
"""

import argparse
import json
import subprocess
import sys


def run_json(command):
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    try:
        return json.loads(done.stdout), done
    except json.JSONDecodeError:
        return None, done


def tf_first(alert):
    if not alert:
        return None
    if alert.get("graph_execution_trace_index") is not None:
        return ("graph", alert["graph_execution_trace_index"], alert["op_type"])
    return ("eager", alert["execution_index"], alert["op_type"])


def our_first(alert):
    if not alert:
        return None
    return (alert["source"], alert["index"], alert["op_type"])


def compare(logdir, tf_reader, report, python):
    ours, done = run_json([report, "--json", logdir])
    if ours is None:
        return [f"nanscope-report gave no JSON (exit {done.returncode})"], None
    command = [python, tf_reader, logdir, "--strict-json"]
    if "FULL_TENSOR" in ours["tensor_debug_modes"]:
        command.append("--reentrant-locks")  # TensorFlow's own deadlock, see the tool's README
    theirs, done = run_json(command)
    if theirs is None:
        return [f"tf-reader gave no JSON (exit {done.returncode}): {done.stderr[-400:]}"], None
    problems = []
    for key in ("reader_error", "update_hung"):
        if theirs.get(key):
            problems.append(f"{key}: {str(theirs[key])[:300]}")
    if theirs.get("update_errors"):
        problems.append(f"update_errors: {str(theirs['update_errors'])[:300]}")
    tb = ours["tensorboard"]
    pairs = [
        ("executions", theirs.get("num_executions"), tb["executions"]),
        ("traces", theirs.get("num_graph_execution_traces"), tb["graph_execution_traces"]),
        ("alerts", (theirs.get("alerts") or {}).get("num_alerts"), tb["alerts"]),
        ("first alert", tf_first((theirs.get("alerts") or {}).get("first")),
         our_first(ours["first_alert"])),
    ]
    for name, tf_value, our_value in pairs:
        if tf_value != our_value:
            problems.append(f"{name}: TensorFlow {tf_value}, NaNscope {our_value}")
    summary = (f"{tb['executions']} executions, {tb['graph_execution_traces']} traces, "
               f"{tb['alerts']} alerts, first {our_first(ours['first_alert'])}")
    return problems, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tf-reader", required=True, help="path of tf_reader.py")
    parser.add_argument("--report", required=True, help="path of nanscope-report")
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="the Python that runs tf_reader.py: Debian's, with python3-protobuf "
                        "and python3-numpy")
    parser.add_argument("logdirs", nargs="+")
    args = parser.parse_args()
    failed = 0
    for logdir in args.logdirs:
        problems, summary = compare(logdir, args.tf_reader, args.report, args.python)
        if problems:
            failed += 1
            print(f"DIFFERS  {logdir}")
            for p in problems:
                print(f"         {p}")
        else:
            print(f"same     {logdir}: {summary}")
    print(f"{len(args.logdirs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
