# SPDX-License-Identifier: Apache-2.0
"""What a recording sees of code compiled with torch.compile, by torch version and observer.

A compiled graph runs fused kernels, which are no aten ops: none of its ops would be recorded,
only its inputs and outputs, through the ops around it. So the recording makes compiled
functions run eagerly, at eager speed, where torch lets it:
  - the C++ op observer sets torch.compiler's stance to "force_eager" while it records (torch 2.6
    and later; the stance before is restored when the recording ends);
  - under the Python dispatch mode, torch 2.5 and later run a frame eagerly by themselves.
Other torch 2.x releases run the compiled kernels unseen, and the recording warns once. Torch
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


def compiled_code_seen(version, observer="dispatch"):
    """ALL_OPS, NOT_INSIDE or NO_COMPILE for a torch version string and an observer ("cpp" or
    "dispatch")."""
    release = _release(version)
    if release < (2, 0):
        return NO_COMPILE
    first_eager = (2, 6) if observer == "cpp" else (2, 5)
    return NOT_INSIDE if release < first_eager else ALL_OPS


def force_eager(torch, observer):
    """For the C++ observer on a torch that can: makes torch.compile run eagerly from now on, and
    returns the callable that restores the stance before. None where nothing was changed."""
    set_stance = getattr(getattr(torch, "compiler", None), "set_stance", None)
    if observer != "cpp" or set_stance is None:
        return None
    try:
        from torch._dynamo import eval_frame  # set_stance imports it as well

        previous = getattr(getattr(eval_frame, "_stance", None), "stance", "default")
    except ImportError:
        previous = "default"
    set_stance("force_eager")
    return lambda: set_stance(previous)


def warn_if_compiled_graphs_unseen(torch, observer="dispatch"):
    """Warns once per recording, where compiled graphs run unrecorded."""
    if compiled_code_seen(torch.__version__, observer) != NOT_INSIDE:
        return
    warnings.warn(
        f"NaNscope: torch {torch.__version__} runs functions compiled with torch.compile as "
        "fused kernels whose ops are not recorded (only their inputs and outputs, through the "
        "ops around them). To record every op, set TORCHDYNAMO_DISABLE=1 (or "
        "torch._dynamo.config.disable = True) while recording, or use torch 2.6 or later, whose "
        "compiled functions run eagerly while NaNscope records.", RuntimeWarning, stacklevel=3)
