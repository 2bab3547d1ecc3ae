#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every source file names its licence in an SPDX line, and the licence is its folder's.

The line is the file's first, or its second after a shebang (#!) or an XML declaration
(<?xml ...?>), written in the file's own comment syntax, e.g.

    // SPDX-License-Identifier: Apache-2.0
    # SPDX-License-Identifier: GPL-3.0-or-later

The rules (which files are source, which folders are under which licence) are the tables below.

    usage: check_spdx.py [--fix] [SOURCE_DIR]

Files come from `git ls-files` (tracked, and untracked but not ignored) when SOURCE_DIR is the
top of a git checkout, otherwise from walking the tree without its build directories. Exit
status 0 when every file is right, 1 otherwise, with one line per offending file. --fix adds the
line to the files that have none (it never changes a line that names another licence).
"""

import fnmatch
import os
import shutil
import subprocess
import sys

# --- Rules ---------------------------------------------------------------------------------------

# The licence of every file that no entry below names.
DEFAULT_LICENCE = "GPL-3.0-or-later"

# Paths under another licence: a folder (ending in "/") or one file. The longest match wins.
LICENCES = {
    # The recorder SDK (the format library, the recorder, public headers, SDK files, examples)
    # and the summaries and GPU kernels it links: programs link them into themselves.
    "format/": "Apache-2.0",
    "recorder/": "Apache-2.0",
    "summary/": "Apache-2.0",
    "gpu/": "Apache-2.0",
    # The version header, installed with the SDK's headers.
    "cmake/version.hpp.in": "Apache-2.0",
    # What builds the Python package (the recorder for PyTorch) with pip.
    "setup.py": "Apache-2.0",
    "pyproject.toml": "Apache-2.0",
}

# Comment syntaxes: what comes before and after "SPDX-License-Identifier: <licence>".
SLASHES = ("// ", "")
C_BLOCK = ("/* ", " */")  # C files: the C header is C89
HASH = ("# ", "")
XML = ("<!-- ", " -->")

# Source files by the end of their name; the longest match wins. A file that matches none but
# starts with a shebang is a script (HASH).
SOURCES = {
    ".cpp": SLASHES,
    ".hpp": SLASHES,
    ".cu": SLASHES,
    ".cuh": SLASHES,
    ".proto": SLASHES,
    ".hpp.in": SLASHES,
    ".c": C_BLOCK,
    ".h": C_BLOCK,
    "CMakeLists.txt": HASH,
    ".cmake": HASH,
    ".cmake.in": HASH,
    ".pc.in": HASH,
    ".sh": HASH,
    ".py": HASH,
    ".yml": HASH,
    ".yaml": HASH,
    ".supp": HASH,  # sanitizer suppressions
    ".dict": HASH,  # libFuzzer dictionaries
    ".desktop": HASH,
    ".clang-format": HASH,
    ".gitignore": HASH,
    ".xml": XML,
    ".xml.in": XML,
    ".plist.in": XML,
    ".wxs.in": XML,
}

# Never checked, even when a rule above matches (fnmatch patterns on the path).
IGNORED = [
    "fuzz/corpus/*",  # fuzzer inputs: bytes, not text
    "LICENSES/*",
]

# Files that must be identical copies of another (the SDK carries its own licence text).
COPIES = {
    "recorder/LICENSE": "LICENSES/Apache-2.0.txt",
}

# The packages' machine-readable copyright file (Debian's DEP-5): its Files paragraphs must say
# what LICENCES and DEFAULT_LICENCE say.
COPYRIGHT = "packaging/copyright"

# Folders never walked when SOURCE_DIR is not a git checkout (a folder holding CMakeCache.txt,
# a build directory, is skipped as well).
SKIPPED_DIRS = {".git", "build", "out", ".cache", "__pycache__"}

# --- End of rules --------------------------------------------------------------------------------

TAG = "SPDX-License-Identifier:"


def list_files(root):
    """Paths relative to root, with "/" separators, sorted."""
    git = shutil.which("git")
    if git:
        top = subprocess.run([git, "-C", root, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True)
        if top.returncode == 0 and os.path.samefile(top.stdout.strip(), root):
            out = subprocess.run(
                [git, "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                capture_output=True, check=True).stdout
            paths = {p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p}
            return sorted(p for p in paths
                          if os.path.isfile(os.path.join(root, p))
                          and not os.path.islink(os.path.join(root, p)))
    paths = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS
                         and not os.path.exists(os.path.join(folder, d, "CMakeCache.txt")))
        for name in files:
            full = os.path.join(folder, name)
            if not os.path.islink(full):
                paths.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return sorted(paths)


def longest_match(table, matches):
    keys = [key for key in table if matches(key)]
    return table[max(keys, key=len)] if keys else None


def expected_licence(path):
    return longest_match(LICENCES, lambda key: path.startswith(key) if key.endswith("/")
                         else path == key) or DEFAULT_LICENCE


def comment_style(path, head):
    if any(fnmatch.fnmatchcase(path, pattern) for pattern in IGNORED):
        return None
    name = path.rsplit("/", 1)[-1]
    style = longest_match(SOURCES, name.endswith)
    if style is None and head.startswith(b"#!"):
        style = HASH
    return style


def spdx_line_index(lines):
    """The index of the line that must hold the SPDX tag."""
    if lines and (lines[0].startswith(b"#!") or lines[0].startswith(b"<?xml")):
        return 1
    return 0


def check(root, path, style, fix):
    """None when the file is right (or was fixed), else what is wrong with it."""
    full = os.path.join(root, path)
    with open(full, "rb") as f:
        data = f.read()
    lines = data.splitlines(keepends=True)
    index = spdx_line_index(lines)
    licence = expected_licence(path)
    wanted = f"{style[0]}{TAG} {licence}{style[1]}"
    line = lines[index].decode("utf-8", "replace").rstrip() if index < len(lines) else ""
    if line == wanted:
        return None
    if TAG in line:
        found = line.split(TAG, 1)[1].strip().removesuffix(style[1].strip()).strip()
        if found != licence:
            return f"names {found}, but files here are {licence}: line {index + 1} should be {wanted!r}"
        return f"line {index + 1} should read {wanted!r}, not {line!r}"
    elsewhere = [n + 1 for n, l in enumerate(lines) if TAG.encode() in l]
    if elsewhere:
        return f"the SPDX line is on line {elsewhere[0]}; it must be line {index + 1}: {wanted!r}"
    if not fix:
        return f"no SPDX line: line {index + 1} should be {wanted!r}"
    newline = b"\r\n" if lines and lines[0].endswith(b"\r\n") else b"\n"
    if index == 1 and not lines[0].endswith((b"\n", b"\r")):
        lines[0] += newline
    insert = [wanted.encode() + newline]
    following = lines[index].strip() if index < len(lines) else b""
    if following and not following.startswith((b"//", b"/*", b"#", b"<!--")):
        insert.append(newline)  # code, not a comment, follows: keep the line on its own
    lines[index:index] = insert
    with open(full, "wb") as f:
        f.write(b"".join(lines))
    print(f"{path}: added {wanted!r}")
    return None


def dep5_paragraphs(text):
    """The Files paragraphs of a DEP-5 copyright file: {pattern: licence}."""
    rules = {}
    for paragraph in text.split("\n\n"):
        fields = {}
        for line in paragraph.splitlines():
            if line and not line[0].isspace() and ":" in line:
                name, value = line.split(":", 1)
                fields[name] = value.strip()
        if "Files" in fields:
            for pattern in fields["Files"].split():
                rules[pattern] = fields.get("License", "")
    return rules


def check_copyright(root):
    """The packages' copyright file (packaging/copyright, DEP-5) says what the rules above say."""
    path = os.path.join(root, COPYRIGHT)
    try:
        with open(path, encoding="utf-8") as f:
            rules = dep5_paragraphs(f.read())
    except OSError as error:
        return [f"{COPYRIGHT}: cannot read it: {error.strerror}"]
    wanted = {"*": DEFAULT_LICENCE}
    wanted.update({(key + "*" if key.endswith("/") else key): licence
                   for key, licence in LICENCES.items()})
    if rules == wanted:
        return []
    return [f"{COPYRIGHT}: its Files paragraphs say {rules}, but the rules here say {wanted}"]


def main(argv):
    fix = "--fix" in argv
    args = [a for a in argv if a != "--fix"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: check_spdx.py [--fix] [SOURCE_DIR]", file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(args[0] if args else os.path.join(here, "..", ".."))

    problems = []
    checked = 0
    for path in list_files(root):
        with open(os.path.join(root, path), "rb") as f:
            head = f.read(2)
        style = comment_style(path, head)
        if style is None:
            continue
        checked += 1
        problem = check(root, path, style, fix)
        if problem:
            problems.append(f"{path}: {problem}")

    for copy, original in COPIES.items():
        try:
            with open(os.path.join(root, copy), "rb") as a, open(os.path.join(root, original), "rb") as b:
                same = a.read() == b.read()
        except OSError as error:
            problems.append(f"{copy}: cannot compare with {original}: {error.strerror}")
            continue
        if not same:
            problems.append(f"{copy}: differs from {original}, of which it must be a copy")
    for licence in sorted(set(LICENCES.values()) | {DEFAULT_LICENCE}):
        if not os.path.isfile(os.path.join(root, "LICENSES", f"{licence}.txt")):
            problems.append(f"LICENSES/{licence}.txt: missing (the text of a licence in use)")

    problems += check_copyright(root)

    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s), {checked} source files checked. The rules are at the "
              f"top of {os.path.relpath(os.path.abspath(__file__), root)}; --fix adds missing SPDX "
              "lines.")
        return 1
    print(f"{checked} source files, each with its SPDX line; licence texts in place; "
          f"{COPYRIGHT} agrees")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
