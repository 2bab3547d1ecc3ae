#!/usr/bin/env bash
# Builds NaNscope from scratch or incrementally and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
