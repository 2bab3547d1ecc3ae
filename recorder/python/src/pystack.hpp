// SPDX-License-Identifier: Apache-2.0
// The calling thread's Python stack as the recorder's code locations, outermost first, without
// the frames of NaNscope's own Python package. Needs the GIL.
#pragma once

#include "nanscope/recorder.hpp"

#include <Python.h>
#include <frameobject.h>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nanscope::python {

struct StackOptions
{
    std::string skipPrefix;             // frames of files under this directory are left out
    PyObject* moduleCallCode = nullptr; // borrowed; kept alive by the package
    std::size_t maxFrames = 256;        // the innermost frames of a deeper stack
};

// The module nesting depth alone (no strings built).
int moduleCallDepth(PyObject* moduleCallCode);

// The entry of a thread's stack of module paths (a list of str) at module-call depth `depth`,
// the path of the module the op ran in; empty outside modules.
std::string modulePathAt(PyObject* names, int depth);

// The Python stacks of recorded ops, interned in the recorder: a stack seen before costs a walk
// over its frames and two hash lookups, with no string built and no frame looked up by name.
// Holds a reference to every code object it has seen, so that an address it keys on is never
// another code object's; bounded, and emptied when full. Needs the GIL.
class StackCache
{
public:
    StackCache() = default;
    ~StackCache();
    StackCache(const StackCache&) = delete;
    StackCache& operator=(const StackCache&) = delete;

    struct Captured
    {
        std::optional<StackId> id;        // interned
        std::vector<CodeLocation> frames; // otherwise (the recorder's table is full)
        int moduleCalls = 0;              // frames running moduleCallCode: the module nesting depth
    };

    // The calling thread's stack, outermost first, without the skipped frames and at most
    // options.maxFrames innermost ones.
    Captured capture(Recorder& recorder, const StackOptions& options);

    void clear();

private:
    struct Code
    {
        bool skipped = false; // a frame of NaNscope's own package
        std::string file;
        std::string function;
    };
    using Frame = std::pair<PyObject*, int>; // code object, line
    struct FramesHash
    {
        std::size_t operator()(const std::vector<Frame>& frames) const;
    };
    struct LastInstructionHash
    {
        std::size_t operator()(const Frame& key) const;
    };

    const Code& code(PyObject* code, const StackOptions& options);
    int line(PyFrameObject* frame, PyObject* code);

    static constexpr std::size_t kMaxCodes = std::size_t{1} << 16;
    static constexpr std::size_t kMaxLines = std::size_t{1} << 20;

    std::unordered_map<PyObject*, Code> m_codes;                 // each key holds a reference
    std::unordered_map<Frame, int, LastInstructionHash> m_lines; // (code, last instruction)
    std::unordered_map<std::vector<Frame>, StackId, FramesHash> m_stacks;
    std::vector<Frame> m_scratch;
};

} // namespace nanscope::python
