# SPDX-License-Identifier: Apache-2.0
"""The expected_nonfinite patterns: checked against the report's grammar and kept in the side
file <dump_root>/nanscope_expected.txt, which the report reads (free of torch)."""

import os
import secrets

# The side file the report reads the expected patterns from (model/core's intent.hpp):
# TensorFlow's reader only opens tfdbg_events.* files, so it never sees it. Its limits are the
# reader's, which ignores what lies beyond them.
EXPECTED_FILE_NAME = "nanscope_expected.txt"
_EXPECTED_HEADER = ("# Non-finite values this program makes on purpose: OP[:KINDS] a line, "
                    "read by NaNscope (nanscope.torch's expected_nonfinite)\n")
_MAX_PATTERN_BYTES = 256
_MAX_PATTERNS = 256
_MAX_FILE_BYTES = 64 * 1024
_KINDS = ("-inf", "+inf", "inf", "nan", "any")
_BLANKS = " \t\r"


def _check_pattern(pattern):
    """One expected_nonfinite entry, trimmed, checked against the report's grammar: OP[:KINDS],
    where OP may hold '::' ("aten::log") and * and ? globs, and KINDS, after the last ':' that
    is not part of a '::', is a comma-separated list of -inf, +inf, inf, nan, any."""
    if not isinstance(pattern, str):
        raise TypeError(f"expected_nonfinite: {pattern!r} is not a str")
    text = pattern.strip(_BLANKS)
    def bad(why):
        return ValueError(f"expected_nonfinite: {pattern!r} {why}; write OP[:KINDS], "
                          "e.g. \"aten::masked_fill:-inf\" or \"aten::log\"")
    # One pattern a line, and '#' starts a comment there: either would change what is read.
    if "\n" in text or "\r" in text or "#" in text:
        raise bad("holds a line break or '#', which the file it is written to cannot keep")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise bad("is not valid Unicode text") from None
    if size > _MAX_PATTERN_BYTES:
        raise bad(f"is longer than {_MAX_PATTERN_BYTES} bytes")
    op = text
    colon = text.rfind(":")
    if colon >= 0 and not (colon > 0 and text[colon - 1] == ":"):
        words = [w.strip(_BLANKS) for w in text[colon + 1:].split(",")]
        unknown = [w for w in words if w not in _KINDS]
        if unknown:
            raise bad(f"has {unknown[0]!r} where a kind belongs (use {', '.join(_KINDS)}, "
                      "separated by commas)")
        op = text[:colon].strip(_BLANKS)
    if not op:
        raise bad("names no op")
    return text


def expected_patterns(expected_nonfinite):
    """The checked patterns of the expected_nonfinite argument, in order, without repeats."""
    if expected_nonfinite is None:
        return ()
    if isinstance(expected_nonfinite, str):  # one pattern, not its characters
        expected_nonfinite = [expected_nonfinite]
    try:
        items = list(expected_nonfinite)
    except TypeError:
        raise TypeError("expected_nonfinite must be a list of str such as "
                        "[\"aten::masked_fill:-inf\"]") from None
    patterns = []
    for item in items:
        text = _check_pattern(item)
        if text not in patterns:
            patterns.append(text)
    if len(patterns) > _MAX_PATTERNS:
        raise ValueError(f"expected_nonfinite holds {len(patterns)} patterns; the report reads "
                         f"at most {_MAX_PATTERNS}")
    return tuple(patterns)


def _file_patterns(text):
    """The patterns of a side file's text, as the report reads them (comments and blanks
    dropped)."""
    found = []
    for line in text.split("\n"):
        line = line.split("#", 1)[0].strip(_BLANKS)
        if line:
            found.append(line)
    return found


def write_expected(dump_root, patterns):
    """Adds `patterns` to <dump_root>/nanscope_expected.txt: an existing file keeps its lines
    (a user's own patterns and comments) and gets those it lacks, so that recording twice into a
    dump root, or after editing the file, loses nothing and repeats nothing. Written beside and
    renamed over, so that a report reading meanwhile sees the old file or the new, never half."""
    if not patterns:
        return
    os.makedirs(dump_root, exist_ok=True)
    path = os.path.join(dump_root, EXPECTED_FILE_NAME)
    try:
        with open(path, "r", encoding="utf-8") as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    present = _file_patterns(old)
    added = [p for p in patterns if p not in present]
    if old and not added:
        return
    if len(present) + len(added) > _MAX_PATTERNS:
        raise ValueError(f"{path} would hold {len(present) + len(added)} patterns; the report "
                         f"reads at most {_MAX_PATTERNS}")
    text = old if old else _EXPECTED_HEADER
    if not text.endswith("\n"):
        text += "\n"
    text += "".join(p + "\n" for p in added)
    if len(text.encode("utf-8")) > _MAX_FILE_BYTES:
        raise ValueError(f"{path} would be over {_MAX_FILE_BYTES} bytes, which the report "
                         "does not read past")
    # Not mkstemp: its 0600 would make the file unreadable to whoever else reads the logdir.
    temp = os.path.join(dump_root,
                        f".{EXPECTED_FILE_NAME}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
