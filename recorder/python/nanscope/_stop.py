# SPDX-License-Identifier: Apache-2.0
"""NonFiniteError: what stop_at_first_nonfinite raises, and its message."""


class NonFiniteError(FloatingPointError):
    """The recording stopped at the first non-finite value the program did not make on purpose.

    origin: the op that made it, a dict with op_type, op_name, module_path, kinds ("nan",
      "-inf" …) and stack (outermost first, as (file, line, function) tuples);
    stopped_at: when the origin made infinities, the op that turned them into NaN (or took them
      out of the record with item()), where the program was stopped; else None;
    filename, lineno: the user's frame of the origin (the innermost frame outside the
      framework's own files);
    logdir: where everything recorded up to it is, complete: open it with NaNscope.
    """

    __module__ = "nanscope"  # as the user imports it

    def __init__(self, message, origin=None, stopped_at=None, logdir=None, filename=None,
                 lineno=None):
        super().__init__(message)
        self.origin = origin
        self.stopped_at = stopped_at
        self.logdir = logdir
        self.filename = filename
        self.lineno = lineno


def user_frame(stack, framework_dirs):
    """The innermost frame outside `framework_dirs` (the innermost frame when all are inside)."""
    for frame in reversed(stack):
        path = frame[0]
        if not any(path.startswith(d) for d in framework_dirs):
            return frame
    return stack[-1] if stack else None


def _describe(op, framework_dirs):
    text = op["op_type"]
    if op["op_name"] and op["op_name"] != op["op_type"]:
        text += f" (op {op['op_name']})"
    if op["module_path"]:
        text += f" in {op['module_path']}"
    frame = user_frame(op["stack"], framework_dirs)
    if frame:
        file, line, function = frame
        text += f" at {file}:{line}" if line > 0 else f" at {file}"
        if function:
            text += f" ({function})"
    return text


def nonfinite_error(stop, framework_dirs):
    """The NonFiniteError of a stop (the recorder's description of it), naming the user's frames:
    those outside `framework_dirs` (torch's own files)."""
    origin = stop["origin"]
    stopped_at = stop["stopped_at"]
    text = f"{_describe(origin, framework_dirs)} made {origin['kinds']}"
    if stopped_at is not None:
        text += f", which {_describe(stopped_at, framework_dirs)} {stop['stopped_how']}"
    logdir = stop["logdir"]
    message = (f"{text}: the first non-finite value that is not intended. NaNscope stopped the "
               f"recording there; everything recorded up to it is in {logdir} "
               f"(open it with: nanscope {logdir})")
    if stop["events_late"]:
        message += (f"; {stop['events_late']} later ops were recorded before the device's "
                    "summaries told")
    frame = user_frame(origin["stack"], framework_dirs)
    return NonFiniteError(message, origin, stopped_at, logdir,
                          filename=frame[0] if frame else None,
                          lineno=frame[1] if frame else None)
