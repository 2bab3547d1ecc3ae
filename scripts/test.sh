#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds NaNscope from scratch or incrementally and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
