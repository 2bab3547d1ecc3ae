# SPDX-License-Identifier: Apache-2.0
"""Builds the nanscope Python package's extension (nanscope._nanscope, the C++ recorder) with
CMake, for the Python that runs this: a recorder-only build of the repository
(NANSCOPE_RECORDER_ONLY: no protobuf, reader, apps or tests), and nanscope._nanscope_observed,
the same with the C++ op observer, built against this Python's torch where it has C++ headers.
pyproject.toml holds the rest.

Environment: CMAKE_ARGS adds arguments to the configuration (-DNANSCOPE_WITH_CUDA=OFF, a
compiler launcher …); CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    """The release that CMakeLists.txt names: one place for the C++ and the Python package."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(NaNscope\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt names no project version")
    return match.group(1)


def torch_abi_arguments():
    """The C++ op observer links against torch, so everything in the extension must use torch's
    C++ ABI: pip's wheels before torch 2.7 use the old one (_GLIBCXX_USE_CXX11_ABI=0)."""
    try:
        import torch
    except ImportError:
        return []  # no torch here: nothing of it is linked
    if getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", True):
        return []
    return ["-DCMAKE_CXX_FLAGS=-D_GLIBCXX_USE_CXX11_ABI=0"]


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        import pybind11

        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DNANSCOPE_RECORDER_ONLY=ON",
            "-DNANSCOPE_BUILD_SDK=OFF",
            "-DNANSCOPE_BUILD_PYTHON=ON",
            "-DNANSCOPE_NATIVE_STACKS=OFF",  # Python's stacks are recorded, not native ones
            f"-DPython3_EXECUTABLE={sys.executable}",
            f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
        ] + torch_abi_arguments() + shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        command = ["cmake", "--build", str(build), "--target", "nanscope_python"]
        # Every core unless told otherwise: built one file at a time, the module with torch's
        # headers took 161 s on a 16-core machine.
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        command += ["--parallel", jobs]
        subprocess.run(command, check=True)
        # _nanscope, and _nanscope_observed where torch's headers were found (CMakeLists.txt in
        # recorder/python): both go into the package.
        built = sorted((build / "python" / "nanscope").glob("_nanscope*.so"))
        if not any(path.name.startswith("_nanscope.") for path in built):
            raise RuntimeError(f"the build made no nanscope/_nanscope*.so in {build}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        for path in built:
            name = target.name if path.name.startswith("_nanscope.") else path.name
            self.copy_file(str(path), str(target.parent / name))


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("nanscope._nanscope")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
