// SPDX-License-Identifier: Apache-2.0
#include "pystack.hpp"

#include <algorithm>
#include <frameobject.h>
#include <string_view>

namespace nanscope::python {
namespace {

std::string_view utf8(PyObject* text)
{
    Py_ssize_t size = 0;
    const char* data = text ? PyUnicode_AsUTF8AndSize(text, &size) : nullptr;
    if (!data) {
        PyErr_Clear();
        return {};
    }
    return {data, static_cast<std::size_t>(size)};
}

// Walks the thread's frames from the innermost, calling `visit(frame, code)` until it returns
// false. References are released as it goes.
template <typename Visit>
void walkFrames(Visit&& visit)
{
    PyFrameObject* frame = PyThreadState_GetFrame(PyThreadState_Get());
    while (frame) {
        PyCodeObject* code = PyFrame_GetCode(frame);
        const bool more = visit(frame, code);
        Py_DECREF(code);
        PyFrameObject* back = more ? PyFrame_GetBack(frame) : nullptr;
        Py_DECREF(frame);
        frame = back;
    }
}

} // namespace

PythonStack capturePythonStack(const StackOptions& options)
{
    PythonStack stack;
    std::vector<CodeLocation> innermostFirst;
    walkFrames([&](PyFrameObject* frame, PyCodeObject* code) {
        if (reinterpret_cast<PyObject*>(code) == options.moduleCallCode)
            ++stack.moduleCalls;
        if (innermostFirst.size() >= options.maxFrames)
            return options.moduleCallCode != nullptr; // keep counting module calls
        const std::string_view file = utf8(code->co_filename);
        if (!options.skipPrefix.empty() && file.starts_with(options.skipPrefix))
            return true;
#if PY_VERSION_HEX >= 0x030B0000
        const std::string_view function = utf8(code->co_qualname);
#else
        const std::string_view function = utf8(code->co_name);
#endif
        innermostFirst.emplace_back(std::string(file), PyFrame_GetLineNumber(frame),
                                    std::string(function));
        return true;
    });
    stack.frames.assign(std::make_move_iterator(innermostFirst.rbegin()),
                        std::make_move_iterator(innermostFirst.rend()));
    return stack;
}

int moduleCallDepth(PyObject* moduleCallCode)
{
    int depth = 0;
    walkFrames([&](PyFrameObject*, PyCodeObject* code) {
        if (reinterpret_cast<PyObject*>(code) == moduleCallCode)
            ++depth;
        return true;
    });
    return depth;
}

} // namespace nanscope::python
