# SPDX-License-Identifier: GPL-3.0-or-later
"""Reads the executions, stack frames and source files of a tfdbg2 logdir for the tests: TFRecord
framing and protobuf's wire format, decoded here so that the tests depend on nothing but Python
(and check the bytes the recorder wrote, not our own reader)."""

import glob
import os
import struct


def _varint(data, pos):
    result = shift = 0
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def fields(data):
    """(field number, wire type, value) of a message: ints, bytes, or raw 8/4-byte blobs."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 2:
            size, pos = _varint(data, pos)
            value, pos = data[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"wire type {wire}")
        yield number, wire, value


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _packed_ints(wire, value):
    if wire == 0:
        return [_signed(value)]
    out, pos = [], 0
    while pos < len(value):
        v, pos = _varint(value, pos)
        out.append(_signed(v))
    return out


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos + 12 <= len(data):
        (length,) = struct.unpack_from("<Q", data, pos)
        yield data[pos + 12:pos + 12 + length]
        pos += 12 + length + 4


class Tensor:
    def __init__(self, data):
        self.dtype = 0
        self.shape = []
        self.values = []
        self.scomplex = []
        content = b""
        for number, wire, value in fields(data):
            if number == 1:
                self.dtype = value
            elif number == 2:
                for n, _, dim in fields(value):
                    if n == 2:
                        self.shape.append(dict((k, v) for k, _, v in fields(dim)).get(1, 0))
            elif number == 4:
                content = value
            elif number == 9 and wire == 2:  # scomplex_val, packed floats
                self.scomplex = list(struct.unpack(f"<{len(value) // 4}f", value))
        if self.dtype == 2 and content:  # DT_DOUBLE summaries
            self.values = list(struct.unpack(f"<{len(content) // 8}d", content))
        self.content = content


class Execution:
    def __init__(self, data, wall_time):
        self.wall_time = wall_time
        self.op_type = ""
        self.input_ids = []
        self.output_ids = []
        self.mode = 0
        self.tensors = []
        self.frame_ids = []
        self.module_path = ""
        self.forward_op_type = ""
        self.forward_frame_ids = []
        for number, wire, value in fields(data):
            if number == 1:
                self.op_type = value.decode()
            elif number == 4:
                self.input_ids += _packed_ints(wire, value)
            elif number == 5:
                self.output_ids += _packed_ints(wire, value)
            elif number == 6:
                self.mode = value
            elif number == 7:
                self.tensors.append(Tensor(value))
            elif number == 8:
                self.frame_ids = [v.decode() for n, _, v in fields(value) if n == 2]
            elif number == 1000:
                for n, _, v in fields(value):
                    if n == 1:
                        self.module_path = v.decode()
                    elif n == 2:
                        self.forward_op_type = v.decode()
                    elif n == 4:
                        self.forward_frame_ids = [x.decode() for k, _, x in fields(v) if k == 2]


class Logdir:
    def __init__(self, path):
        prefixes = glob.glob(os.path.join(path, "*.metadata"))
        if len(prefixes) != 1:
            raise ValueError(f"{path} holds {len(prefixes)} runs")
        prefix = prefixes[0][:-len(".metadata")]
        self.executions = []
        for record in records(prefix + ".execution"):
            wall = 0.0
            for number, _, value in fields(record):
                if number == 1:
                    (wall,) = struct.unpack("<d", value)
                elif number == 9:
                    self.executions.append(Execution(value, wall))
        self.files = []
        for record in records(prefix + ".source_files"):
            for number, _, value in fields(record):
                if number == 4:
                    f = dict((n, v) for n, _, v in fields(value) if n in (1, 2))
                    lines = [v.decode() for n, _, v in fields(value) if n == 3]
                    self.files.append((f[1].decode(), lines))
        self.frames = {}
        for record in records(prefix + ".stack_frames"):
            for number, _, value in fields(record):
                if number == 6:
                    f = dict((n, v) for n, _, v in fields(value))
                    flc = dict((n, v) for n, _, v in fields(f.get(2, b"")))
                    self.frames[f[1].decode()] = (
                        self.files[flc.get(1, 0)][0] if self.files else "",
                        flc.get(2, 0), flc.get(4, b"").decode())

    def stack(self, execution, forward=False):
        """(file, line, function) outermost first."""
        ids = execution.forward_frame_ids if forward else execution.frame_ids
        return [self.frames[i] for i in ids]
