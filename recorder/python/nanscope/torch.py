# SPDX-License-Identifier: Apache-2.0
"""Records a PyTorch program's aten ops into a tfdbg2 logdir, with TensorFlow's interface.

    import nanscope.torch
    nanscope.torch.enable_dump_debug_info("/tmp/logdir")   # or: with nanscope.torch.enable_…(…):

From then on every aten op the thread runs (forward, backward and optimizer) is recorded as an
eager execution, observed from C++ through the RecordFunction callbacks of PyTorch's profiler
where the package was built against this torch's headers (else, and with
stop_at_first_nonfinite, by a Python dispatch mode; NANSCOPE_TORCH_OBSERVER=dispatch asks for
the dispatch mode): its op type ("aten::log"), the nn.Module it ran in ("MLP.fc1"), the ids of its
input and output tensors, the Python stack with its source files, and the summaries of the
tensor debug mode, computed in C++ on the tensor's memory. A backward op names the forward op it
differentiates (found through hooks on the autograd node that the forward op created).

Module paths start at the class name of the outermost module called ("MLP.layers.3.attn"); a
module shared by several parents keeps the first path it was called under. Ops of other threads
are recorded inside ``with nanscope.torch.record_thread():`` in that thread.
"""

import atexit
import os
import re
import threading
import weakref

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from ._native import native as _nanscope
from ._compile import force_eager, warn_if_compiled_graphs_unseen
from ._expected import EXPECTED_FILE_NAME, expected_patterns, write_expected
from ._job import job_identity
from ._stop import NonFiniteError, nonfinite_error

__all__ = [
    "enable_dump_debug_info",
    "disable_dump_debug_info",
    "record_thread",
    "DumpDebugInfo",
    "NonFiniteError",
]

# torch dtypes and TensorFlow's DataType numbers (the tfdbg2 wire values). Others (quantized
# types, complex32) have no TensorFlow equivalent: their tensors are skipped, with a count.
_DTYPES = {
    torch.float32: 1,
    torch.float64: 2,
    torch.int32: 3,
    torch.uint8: 4,
    torch.int16: 5,
    torch.int8: 6,
    torch.complex64: 8,
    torch.int64: 9,
    torch.bool: 10,
    torch.bfloat16: 14,
    torch.complex128: 18,
    torch.float16: 19,
}

# What anomaly detection itself runs after each backward node: not the program's ops.
_ANOMALY_OPS = frozenset({"aten::isnan", "aten::any", "aten::_local_scalar_dense"})

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
# The framework's own files: a stop's message names the user's frame, the innermost outside them.
_FRAMEWORK_DIRS = (_PACKAGE_DIR, os.path.dirname(os.path.abspath(torch.__file__)) + os.sep)


# The cudaStream_t of a device's current stream, as an int. torch's private accessor returns the
# raw handle without making a Stream object on every op; where a torch lacks
# it, the public way.
_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)


def _current_stream(device_index):
    if _raw_stream is not None:
        return _raw_stream(device_index)
    return torch.cuda.current_stream(device_index).cuda_stream


_nanscope.configure(
    torch.Tensor,
    torch.strided,
    _DTYPES,
    _current_stream,
    _PACKAGE_DIR,
    torch.nn.Module._call_impl.__code__,
)

_lock = threading.Lock()
_session = None


def _observer_for(stop_at_first_nonfinite):
    """ "cpp" (the C++ op observer) or "dispatch" (the Python dispatch mode). The C++ observer
    cannot raise in the program's thread (torch swallows a callback's exceptions), so a
    recording that stops at its first non-finite value uses the dispatch mode."""
    if stop_at_first_nonfinite or not _nanscope.has_op_observer():
        return "dispatch"
    return "dispatch" if os.environ.get("NANSCOPE_TORCH_OBSERVER") == "dispatch" else "cpp"


def _dtype_numbers(tensor_dtypes):
    """TensorFlow's tensor_dtypes argument: a list of dtypes or names, or a predicate."""
    if tensor_dtypes is None:
        return []
    if callable(tensor_dtypes):
        chosen = [n for d, n in _DTYPES.items() if tensor_dtypes(d)]
        if not chosen:
            raise ValueError("tensor_dtypes selects no dtype that can be recorded")
        return chosen
    if isinstance(tensor_dtypes, (str, torch.dtype)):
        tensor_dtypes = [tensor_dtypes]
    numbers = []
    for given in tensor_dtypes:
        d = given
        if isinstance(d, str):
            name = d[len("torch."):] if d.startswith("torch.") else d
            d = getattr(torch, name, None)
        if not isinstance(d, torch.dtype) or d not in _DTYPES:
            # Named as given: a name that is no torch attribute would read as None.
            raise ValueError(f"tensor_dtypes: {given!r} is not a dtype that can be recorded")
        numbers.append(_DTYPES[d])
    return numbers


# Escapes that Python's re reads one way and the recorder's matcher (C++'s std::regex,
# ECMAScript) another: ECMAScript takes an unknown letter escape for the letter itself, so
# r"\Aaten::log" would select nothing. The anchors become ECMAScript's; \N{…} and \U have no
# ECMAScript spelling and are refused. Syntax that ECMAScript lacks altogether ((?P<name>…),
# (?i), lookbehind) is refused by the recorder's own compilation, with its message.
_ESCAPES_TO_ECMASCRIPT = {"A": "^", "Z": "$", "a": r"\x07"}
_PYTHON_ONLY_ESCAPES = "NU"


def _ecmascript_regex(op_regex):
    out = []
    i = 0
    while i < len(op_regex):
        if op_regex[i] == "\\" and i + 1 < len(op_regex):
            escape = op_regex[i + 1]
            if escape in _PYTHON_ONLY_ESCAPES:
                raise ValueError(f"op_regex {op_regex!r}: \\{escape} is Python-only syntax that "
                                 "the recorder's matcher (ECMAScript) does not know; write the "
                                 "character itself")
            out.append(_ESCAPES_TO_ECMASCRIPT.get(escape, op_regex[i:i + 2]))
            i += 2
        else:
            out.append(op_regex[i])
            i += 1
    return "".join(out)


def _op_regex_text(op_regex):
    """The pattern as the recorder matches it (ECMAScript, from the op type's start), after
    Python's re has checked it: both must read it alike."""
    if op_regex is None:
        return ""
    if isinstance(op_regex, re.Pattern):
        if op_regex.flags & ~re.UNICODE:  # re.I, re.X …: the recorder sees the text alone
            raise ValueError(f"op_regex {op_regex!r}: its flags cannot be passed to the "
                             "recorder's matcher; spell the pattern without them")
        op_regex = op_regex.pattern
    if not isinstance(op_regex, str):
        raise TypeError("op_regex must be a str or a compiled pattern")
    try:
        re.compile(op_regex)
    except re.error as e:
        raise ValueError(f"op_regex {op_regex!r} is not a valid regular expression: {e}") from e
    translated = _ecmascript_regex(op_regex)
    _nanscope.check_op_regex(translated)
    return translated


_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1


def _dump_root_bytes(dump_root):
    """The dump root as the file system's bytes: a name that is not UTF-8 (which Python spells
    with surrogate escapes) is a file name all the same."""
    try:
        return os.fsencode(dump_root)
    except UnicodeError as e:
        raise ValueError(f"dump_root {dump_root!r} is not a file name: {e}") from e


class _Mode(TorchDispatchMode):
    """Sees every aten op below autograd: forward, backward and optimizer alike."""

    def __init__(self, session):
        super().__init__()
        self._session = session

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        session = self._session
        if session.recorder is not None:
            session.on_op(func, args, kwargs, out)
        return out


class DumpDebugInfo:
    """The recording that enable_dump_debug_info started; a context manager that disables it."""

    def __init__(self, dump_root, tensor_debug_mode, circular_buffer_size, op_regex,
                 tensor_dtypes, expected_nonfinite=(), stop_at_first_nonfinite=False,
                 stop_lag_events=64):
        self.dump_root = os.fspath(dump_root)
        self.tensor_debug_mode = tensor_debug_mode
        self.circular_buffer_size = circular_buffer_size
        self.expected_nonfinite = tuple(expected_nonfinite)
        self.stop_at_first_nonfinite = stop_at_first_nonfinite
        self._key = (self.dump_root, tensor_debug_mode, circular_buffer_size, op_regex,
                     tuple(tensor_dtypes), self.expected_nonfinite, stop_at_first_nonfinite,
                     stop_lag_events)
        run_id, host_name = job_identity(torch)
        recorder = _nanscope.Recorder(_dump_root_bytes(self.dump_root), tensor_debug_mode,
                                      circular_buffer_size, op_regex, tensor_dtypes,
                                      run_id=run_id, host_name=host_name,
                                      stop_at_first_nonfinite=stop_at_first_nonfinite,
                                      expected_nonfinite=list(self.expected_nonfinite),
                                      stop_lag_events=stop_lag_events)
        self.run_id = recorder.run_id        # shared by the ranks of a distributed job
        self.host_name = recorder.host_name  # "<host>-rank<N>" in one
        # After the recorder opened: a dump root it refuses gets no side file either.
        try:
            write_expected(self.dump_root, self.expected_nonfinite)
        except BaseException:
            recorder.close()
            raise
        self.recorder = recorder
        self.stopped = None  # the NonFiniteError, once stop_at_first_nonfinite stopped it
        self._local = threading.local()
        self._op_types = {}
        self._module_names = weakref.WeakKeyDictionary()
        self._errors = {}
        self._thread = threading.get_ident()
        self.observer = _observer_for(stop_at_first_nonfinite)
        self._mode = _Mode(self)
        self._hooks = [
            torch.nn.modules.module.register_module_forward_pre_hook(self._module_enter),
            torch.nn.modules.module.register_module_forward_hook(self._module_exit),
        ]
        self._observing = self._observe_this_thread()
        self._restore_compile_stance = force_eager(torch, self.observer)

    # ---- the public face ------------------------------------------------------------------

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        disable_dump_debug_info()
        return False

    def flush(self):
        """Writes what the recorder holds in memory (the circular buffers too)."""
        if self.recorder is not None:
            self.recorder.flush()

    def skipped(self):
        """Tensors recorded without values, and ops not recorded, counted by reason."""
        if self.recorder is not None:
            counts = dict(self.recorder.skipped())
        else:
            counts = dict(getattr(self, "_final_skipped", {}))
        for reason, n in self._errors.items():
            counts[reason] = counts.get(reason, 0) + n
        return counts

    def stats(self):
        """The recorder's counters (executions recorded, bytes written, …)."""
        if self.recorder is not None:
            return self.recorder.stats()
        return dict(getattr(self, "_final_stats", {}))

    def _profile_phases(self, on=True):
        """For the overhead benchmark: from now on, time the recorder's work per op, phase by
        phase (or stop); _phase_times() returns {phase: nanoseconds, "calls": ops}."""
        if self.recorder is not None:
            self.recorder.profile_phases(on)

    def _phase_times(self):
        return dict(self.recorder.phase_times()) if self.recorder is not None else {}

    # ---- per op ---------------------------------------------------------------------------

    def _observe_this_thread(self):
        """Starts observing this thread's ops; returns what _unobserve_this_thread takes (None
        where the thread is observed already: record_thread() in the thread that enabled)."""
        if getattr(self._local, "observed", False):
            return None
        self._local.observed = True
        if self.observer == "cpp":
            return self.recorder.observe(self._state())
        mode = self._mode if threading.get_ident() == self._thread else _Mode(self)
        mode.__enter__()
        return mode

    def _unobserve_this_thread(self, observing):
        if observing is None:
            return
        self._local.observed = False
        if self.observer == "cpp":
            _nanscope.Recorder.stop_observing(observing)
        else:
            observing.__exit__(None, None, None)

    def _state(self):
        local = self._local
        try:
            return local.names
        except AttributeError:
            local.names = []
            local.modules = []
            # A backward node's pre-hook may have set `current` on this thread (one of
            # autograd's device threads) before the thread's first op.
            if not hasattr(local, "current"):
                local.current = None
            local.pending = None
            return local.names

    def on_op(self, func, args, kwargs, out):
        try:
            names = self._state()
            local = self._local
            if local.pending is not None:
                self._link_backward(local)
            op_type = self._op_types.get(func)
            if op_type is None:
                op_type = self._op_types.setdefault(func, func._schema.name)
            if op_type in _ANOMALY_OPS and torch.is_anomaly_enabled():
                return
            current = local.current
            want_forward = current is None and torch.is_grad_enabled()
            try:
                forward = self.recorder.record(op_type, args, kwargs, out, names, current,
                                               want_forward)
            except _nanscope.StopSignal:
                raise self._stop() from None
            if forward is not None:
                # Weak references: a strong one held past the op makes torch 1.13 hand the
                # program a detached alias of a factory's result, an op it would not have run.
                outputs = out if isinstance(out, (tuple, list)) else (out,)
                local.pending = ([weakref.ref(t) for t in outputs if isinstance(t, torch.Tensor)],
                                 forward)
        except NonFiniteError:
            raise
        except Exception as e:  # the program's own work must go on
            reason = f"not recorded: {type(e).__name__}: {e}"
            self._errors[reason] = self._errors.get(reason, 0) + 1

    def _stop(self):
        """The recording stopped at its first non-finite value (the recorder already wrote and
        synced everything): it ends here, and the program is told by a NonFiniteError. The
        dispatch mode stays entered, doing nothing, until disable_dump_debug_info: leaving it
        from inside its own dispatch would unbalance torch's stack of modes."""
        recorder = self.recorder
        stop = recorder.nonfinite_stop()
        self.recorder = None
        for h in self._hooks:
            h.remove()
        self._hooks = []
        self._final_skipped = dict(recorder.skipped())
        try:
            recorder.close()
        finally:
            self._final_stats = recorder.stats()
        self.stopped = nonfinite_error(stop, _FRAMEWORK_DIRS)
        return self.stopped

    def _link_backward(self, local):
        """Hooks the autograd nodes that the previous op's outputs got, now that they have them:
        the node's pre-hook marks the backward ops that follow as differentiating that op, its
        post-hook ends the mark."""
        outputs, forward = local.pending
        local.pending = None
        seen = []
        for ref in outputs:
            t = ref()
            if t is None:
                continue
            node = t.grad_fn
            if node is None or any(node is s for s in seen):
                continue
            seen.append(node)
            node.register_prehook(_EnterNode(local, forward))
            node.register_hook(_LeaveNode(local))

    # ---- modules ----------------------------------------------------------------------------

    def _module_name(self, module, parent, parent_name):
        name = self._module_names.get(module)
        if name is None:
            if parent is None:
                name = type(module).__name__
            else:
                attribute = next((k for k, m in parent._modules.items() if m is module), None)
                name = parent_name + "." + (attribute or type(module).__name__)
            self._module_names[module] = name
        return name

    def _module_enter(self, module, inputs):
        if self.recorder is None:
            return None
        try:
            names = self._state()
            modules = self._local.modules
            # The module calls on the Python stack, this one included: entries of calls that
            # ended by an exception are dropped here.
            depth = _nanscope.module_call_depth()
            del names[max(depth - 1, 0):]
            del modules[max(depth - 1, 0):]
            parent = modules[-1] if modules else None
            names.append(self._module_name(module, parent, names[-1] if names else ""))
            modules.append(module)
        except Exception as e:
            reason = f"module path lost: {type(e).__name__}: {e}"
            self._errors[reason] = self._errors.get(reason, 0) + 1
        return None

    def _module_exit(self, module, inputs, output):
        if self.recorder is None:
            return None
        names = self._state()
        depth = _nanscope.module_call_depth()
        del names[max(depth - 1, 0):]
        del self._local.modules[max(depth - 1, 0):]
        return None

    # ---- the end ----------------------------------------------------------------------------

    def _abandon_in_child(self):
        """After os.fork(), in the child: the recording is the parent's. Its threads did not come
        along and its files are the parent's, so the child neither closes, flushes nor destroys
        the recorder (a join or a condition variable another thread held would hang it); it lets
        go of it and runs unrecorded."""
        recorder, self.recorder = self.recorder, None
        for h in self._hooks:
            h.remove()
        self._hooks = []
        if recorder is not None:
            self._final_skipped = {}
            self._final_stats = {}
            recorder.abandon()

    def _close(self):
        recorder, self.recorder = self.recorder, None
        restore, self._restore_compile_stance = self._restore_compile_stance, None
        if restore is not None:
            restore()
        for h in self._hooks:
            h.remove()
        self._hooks = []
        if threading.get_ident() == self._thread:
            if self.observer == "cpp":
                _nanscope.Recorder.stop_observing(self._observing)
            else:
                current = torch.utils._python_dispatch._get_current_dispatch_mode()
                if current is self._mode:
                    self._mode.__exit__(None, None, None)
        if recorder is not None:
            self._final_skipped = dict(recorder.skipped())
            recorder.close()
            self._final_stats = recorder.stats()


class _EnterNode:
    __slots__ = ("local", "forward")

    def __init__(self, local, forward):
        self.local = local
        self.forward = forward

    def __call__(self, grad_outputs):
        self.local.current = self.forward


class _LeaveNode:
    __slots__ = ("local",)

    def __init__(self, local):
        self.local = local

    def __call__(self, grad_inputs, grad_outputs):
        self.local.current = None


def enable_dump_debug_info(dump_root, tensor_debug_mode="FULL_HEALTH", circular_buffer_size=1000,
                           op_regex=None, tensor_dtypes=None, expected_nonfinite=None,
                           stop_at_first_nonfinite=False, stop_lag_events=64):
    """Starts recording this thread's aten ops into `dump_root`, as TensorFlow's
    tf.debugging.experimental.enable_dump_debug_info does for TensorFlow's ops.

    tensor_debug_mode: NO_TENSOR, CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH, SHAPE or FULL_TENSOR.
    circular_buffer_size: > 0 keeps only the last N executions, written at flush and exit;
      <= 0 writes every execution as it comes.
    op_regex: only ops whose type ("aten::log") matches from its start are summarised.
    tensor_dtypes: only tensors of these dtypes (torch dtypes or names, or a predicate) are.
    expected_nonfinite: non-finite values the program makes on purpose, which NaNscope then
      sets aside instead of naming their op as the origin: a list of patterns OP[:KINDS], OP an
      op type or name with * and ? globs, KINDS after the last single ':' a comma-separated list
      of -inf, +inf, inf, nan, any (the default), e.g. ["aten::log:-inf", "aten::div:nan"].
      Written to <dump_root>/nanscope_expected.txt (added to the patterns already there), where
      the file can also be edited by hand; TensorFlow's reader does not read it. A malformed
      pattern raises ValueError. Masks (masked_fill, where, full … with -inf, softmax of them),
      and the outputs of torch.empty and its kin (recorded without health or values), need no
      pattern.
    stop_at_first_nonfinite: stop at the first non-finite value the program did not make on
      purpose (masks, expected_nonfinite and the infinities softmax absorbs are set aside; an
      infinity that an op turns into NaN is named as the origin, at the op that made it NaN).
      Everything recorded up to it is written, then the op raises nanscope.NonFiniteError (a
      FloatingPointError) naming the op, its module, the user's file and line, and the logdir;
      recording ends there. Needs a mode that reads values (not NO_TENSOR or SHAPE).
    stop_lag_events: CUDA tensors are summarised asynchronously: the error may come up to this
      many ops after the op that made the value (still naming that op). 0 waits for every op's
      summary (a synchronisation per op).

    A second call with the same arguments returns the running recording; with other arguments
    it raises ValueError. Returns a DumpDebugInfo, which is also a context manager.
    """
    global _session
    if not isinstance(tensor_debug_mode, str):
        raise TypeError("tensor_debug_mode must be a str such as \"FULL_HEALTH\"")
    if not isinstance(circular_buffer_size, int):
        raise TypeError("circular_buffer_size must be an int")
    if not isinstance(stop_lag_events, int) or not 0 <= stop_lag_events <= _INT_MAX:
        raise ValueError(f"stop_lag_events must be an int from 0 to 2**31 - 1, not "
                         f"{stop_lag_events!r}")
    if not _INT_MIN <= circular_buffer_size <= _INT_MAX:
        raise ValueError(f"circular_buffer_size must be below 2**31 (and above -2**31), not "
                         f"{circular_buffer_size}")
    _dump_root_bytes(os.fspath(dump_root))
    regex = _op_regex_text(op_regex)
    dtypes = _dtype_numbers(tensor_dtypes)
    expected = expected_patterns(expected_nonfinite)
    with _lock:
        stop = bool(stop_at_first_nonfinite)
        key = (os.fspath(dump_root), tensor_debug_mode, circular_buffer_size, regex, tuple(dtypes),
               expected, stop, stop_lag_events)
        if _session is not None and _session.stopped is not None:
            _session._close()  # stopped at a NaN: its dispatch mode is left here, outside it
            _session = None
        if _session is not None:
            if _session._key == key:
                return _session
            raise ValueError(
                "NaNscope is already recording into %s with tensor_debug_mode %s; call "
                "disable_dump_debug_info() first to record with other arguments"
                % (_session.dump_root, _session.tensor_debug_mode))
        _session = DumpDebugInfo(dump_root, tensor_debug_mode, circular_buffer_size, regex,
                                 dtypes, expected, stop, stop_lag_events)
        warn_if_compiled_graphs_unseen(torch, _session.observer)
        return _session


def disable_dump_debug_info():
    """Stops recording and writes everything recorded. Does nothing when not recording."""
    global _session
    with _lock:
        session, _session = _session, None
    if session is not None:
        session._close()


class record_thread:
    """Records the ops of the thread that enters it (threads other than the one that called
    enable_dump_debug_info run unrecorded otherwise)."""

    def __enter__(self):
        session = _session
        self._session = None
        if session is not None and session.recorder is not None:
            self._observing = session._observe_this_thread()
            self._session = session
        return self

    def __exit__(self, *exc):
        if self._session is not None:
            self._session._unobserve_this_thread(self._observing)
        return False


def _after_fork_in_child():
    global _session, _lock
    # The lock may have been held by another thread of the parent at the fork.
    _lock = threading.Lock()
    session, _session = _session, None
    if session is not None:
        session._abandon_in_child()


atexit.register(disable_dump_debug_info)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
