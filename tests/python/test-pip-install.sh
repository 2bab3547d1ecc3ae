#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `pip install` as a PyTorch user runs it: into a fresh venv that sees the system's torch, offline
# and without build isolation, from the repository. Then, away from the source tree, the installed
# package records a NaN and nanscope-report names its op.
#
#   test-pip-install.sh PYTHON REPOSITORY NANSCOPE_REPORT
set -euo pipefail
python=$1 repository=$2 report=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$python" -m venv --system-site-packages "$work/venv"
launcher=""
command -v ccache > /dev/null && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
CMAKE_ARGS="-DNANSCOPE_WITH_CUDA=OFF $launcher" CMAKE_BUILD_PARALLEL_LEVEL=2 \
    "$work/venv/bin/python" -m pip install --quiet --no-index --no-build-isolation \
    --no-cache-dir "$repository"

cd "$work"
"$work/venv/bin/python" - "$work/logdir" <<'PY'
import os
import sys

import torch

import nanscope.torch

site = os.path.realpath(os.path.join(sys.prefix, "lib"))
assert os.path.realpath(nanscope.__file__).startswith(site), nanscope.__file__
with nanscope.torch.enable_dump_debug_info(sys.argv[1], circular_buffer_size=-1) as session:
    p = torch.tensor([0.5, 0.0, 0.25])
    loss = -torch.log(p).sum()
# The torch here has C++ headers (libtorch-dev): pip built the C++ op observer, and it loads.
assert session.observer == "cpp", session.observer
print("installed", nanscope.__version__, "recorded loss", loss.item())
PY

status=0
"$report" --json "$work/logdir" > "$work/report.json" || status=$?
[ "$status" -eq 1 ] || { echo "nanscope-report exited $status, not 1 (alerts)" >&2; exit 1; }
"$python" - "$work/report.json" <<'PY'
import json
import sys

origin = json.load(open(sys.argv[1]))["origin"]
assert origin["op_type"] == "aten::log", origin
assert "-inf" in origin["health"], origin
print("origin", origin["op_type"], origin["health"])
PY
