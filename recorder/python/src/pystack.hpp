// SPDX-License-Identifier: Apache-2.0
// The calling thread's Python stack as the recorder's code locations, outermost first, without
// the frames of NaNscope's own Python package. Needs the GIL.
#pragma once

#include "nanscope/recorder.hpp"

#include <Python.h>
#include <string>
#include <vector>

namespace nanscope::python {

struct PythonStack
{
    std::vector<CodeLocation> frames; // outermost first
    // How many frames run `moduleCallCode` (torch's Module._call_impl): the module nesting depth.
    int moduleCalls = 0;
};

struct StackOptions
{
    std::string skipPrefix;             // frames of files under this directory are left out
    PyObject* moduleCallCode = nullptr; // borrowed; kept alive by the package
    std::size_t maxFrames = 256;        // the innermost frames of a deeper stack
};

PythonStack capturePythonStack(const StackOptions& options);

// The module nesting depth alone (no strings built).
int moduleCallDepth(PyObject* moduleCallCode);

} // namespace nanscope::python
