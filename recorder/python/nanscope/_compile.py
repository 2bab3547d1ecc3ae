# SPDX-License-Identifier: Apache-2.0
"""What a recording sees of code compiled with torch.compile, by torch version.

The recorder sees aten ops through a TorchDispatchMode. From torch 2.5, Dynamo runs a frame
eagerly (without compiling it) while such a mode is active, so every op of a compiled function is
recorded, at eager speed. Torch 2.0 to 2.4 ignore the mode: a compiled graph runs its fused
kernels and none of its ops is recorded; the ops around it see its inputs and outputs. Torch
before 2.0 has no torch.compile."""

import re
import warnings

ALL_OPS = "all ops"
NOT_INSIDE = "not inside compiled graphs"
NO_COMPILE = "no torch.compile"


def _release(version):
    """(major, minor) of a torch version string ("2.4.1+cu121", "2.11.0a0+git…")."""
    match = re.match(r"(\d+)\.(\d+)", str(version))
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def compiled_code_seen(version):
    """ALL_OPS, NOT_INSIDE or NO_COMPILE for a torch version string."""
    release = _release(version)
    if release < (2, 0):
        return NO_COMPILE
    return NOT_INSIDE if release < (2, 5) else ALL_OPS


def warn_if_compiled_graphs_unseen(torch):
    """Warns once per recording, where compiled graphs run unrecorded."""
    if compiled_code_seen(torch.__version__) != NOT_INSIDE:
        return
    warnings.warn(
        f"NaNscope: torch {torch.__version__} runs functions compiled with torch.compile as "
        "fused kernels whose ops are not recorded (only their inputs and outputs, through the "
        "ops around them). To record every op, set TORCHDYNAMO_DISABLE=1 (or "
        "torch._dynamo.config.disable = True) while recording, or use torch 2.5 or later, which "
        "runs compiled functions eagerly while NaNscope records.", RuntimeWarning, stacklevel=3)
