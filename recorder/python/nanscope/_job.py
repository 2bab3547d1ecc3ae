# SPDX-License-Identifier: Apache-2.0
"""Which process of a distributed job records. Every rank of a torchrun job calls
enable_dump_debug_info on one dump root, usually within one second: each rank writes its own
file set, named as TensorFlow names a host's (<host>-rank<N>), and the job shares one run id, so
that the dump root holds one run that TensorFlow's reader and NaNscope read as one. A lone
process keeps the recorder's defaults (this machine's name, a random id)."""

import hashlib
import os
import secrets
import socket

_STORE_KEY = "nanscope/run_id"


def _short_id(text):
    """Eight hex digits, the form of the recorder's own run ids, for any launcher's id."""
    return hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:8]


def _initialised(torch):
    dist = getattr(torch, "distributed", None)
    try:
        if dist is not None and dist.is_available() and dist.is_initialized():
            return dist
    except (RuntimeError, ValueError):
        pass
    return None


def _rank(dist):
    if dist is not None:
        try:
            return dist.get_rank()
        except (RuntimeError, ValueError):
            pass
    text = os.environ.get("RANK", "").strip()
    return int(text) if text.isdigit() else None


def _run_id_from_environment():
    """The launcher's: torchrun's run id, else the rendezvous every rank was given."""
    run = os.environ.get("TORCHELASTIC_RUN_ID", "")
    if run and run != "none":
        return _short_id(run)
    address, port = os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT")
    if address and port:
        return _short_id(f"{address}:{port}:{os.environ.get('WORLD_SIZE', '')}")
    return None


def _run_id_from_store(dist):
    """The job's key-value store: the first rank to ask sets the id. Not a collective, so that
    ranks that never record are not waited for."""
    try:
        store = dist.distributed_c10d._get_default_store()
        value = store.compare_set(_STORE_KEY, "", secrets.token_hex(4))
    except Exception:  # a private API: any torch may lack or change it
        return None
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text or None


def job_identity(torch):
    """(run id, host name) for this process's recorder: ("", "") outside a distributed job, so
    that the recorder picks its defaults. The environment comes first, since every rank sees the
    same one whether or not it has initialised torch.distributed yet."""
    dist = _initialised(torch)
    rank = _rank(dist)
    if rank is None:
        return "", ""
    run_id = _run_id_from_environment()
    if run_id is None and dist is not None:
        run_id = _run_id_from_store(dist)
    return run_id or "", f"{socket.gethostname()}-rank{rank}"
