// SPDX-License-Identifier: Apache-2.0
#include "pystack.hpp"

#include <algorithm>
#include <frameobject.h>
#include <functional>
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

int lastInstruction(PyFrameObject* frame)
{
#if PY_VERSION_HEX >= 0x030B0000
    return PyFrame_GetLasti(frame);
#else
    return frame->f_lasti;
#endif
}

} // namespace

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

std::string modulePathAt(PyObject* names, int depth)
{
    if (depth <= 0 || names == nullptr || !PyList_Check(names))
        return {};
    const Py_ssize_t size = PyList_GET_SIZE(names);
    const Py_ssize_t index = std::min<Py_ssize_t>(depth, size) - 1;
    if (index < 0)
        return {};
    PyObject* name = PyList_GET_ITEM(names, index);
    const char* text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
    PyErr_Clear();
    return text ? text : std::string();
}

StackCache::~StackCache()
{
    clear();
}

void StackCache::clear()
{
    m_stacks.clear();
    m_lines.clear();
    auto codes = std::move(m_codes);
    m_codes.clear();
    for (auto& entry : codes)
        Py_DECREF(entry.first);
}

std::size_t StackCache::FramesHash::operator()(const std::vector<Frame>& frames) const
{
    std::size_t h = frames.size();
    for (const auto& [code, line] : frames) {
        h ^= std::hash<const void*>{}(code) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h ^= std::hash<int>{}(line) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    }
    return h;
}

std::size_t StackCache::LastInstructionHash::operator()(const Frame& key) const
{
    return std::hash<const void*>{}(key.first) ^ (std::hash<int>{}(key.second) << 1);
}

const StackCache::Code& StackCache::code(PyObject* object, const StackOptions& options)
{
    if (auto it = m_codes.find(object); it != m_codes.end())
        return it->second;
    auto* code = reinterpret_cast<PyCodeObject*>(object);
    Code entry;
    entry.file = std::string(utf8(code->co_filename));
    entry.skipped = !options.skipPrefix.empty() && entry.file.starts_with(options.skipPrefix);
#if PY_VERSION_HEX >= 0x030B0000
    entry.function = std::string(utf8(code->co_qualname));
#else
    entry.function = std::string(utf8(code->co_name));
#endif
    Py_INCREF(object);
    return m_codes.emplace(object, std::move(entry)).first->second;
}

int StackCache::line(PyFrameObject* frame, PyObject* code)
{
    // The line of a frame is computed from its last instruction by walking the code's line
    // table: cached by instruction, it is computed once per call site.
    const Frame key{code, lastInstruction(frame)};
    if (auto it = m_lines.find(key); it != m_lines.end())
        return it->second;
    if (m_lines.size() >= kMaxLines)
        m_lines.clear();
    const int number = PyFrame_GetLineNumber(frame);
    m_lines.emplace(key, number);
    return number;
}

StackCache::Captured StackCache::capture(Recorder& recorder, const StackOptions& options)
{
    if (m_codes.size() >= kMaxCodes)
        clear();
    Captured captured;
    m_scratch.clear();
    walkFrames([&](PyFrameObject* frame, PyCodeObject* pyCode) {
        auto* object = reinterpret_cast<PyObject*>(pyCode);
        if (object == options.moduleCallCode)
            ++captured.moduleCalls;
        if (m_scratch.size() >= options.maxFrames)
            return options.moduleCallCode != nullptr; // keep counting module calls
        if (code(object, options).skipped)
            return true;
        m_scratch.emplace_back(object, line(frame, object));
        return true;
    });
    std::reverse(m_scratch.begin(), m_scratch.end()); // outermost first
    if (auto it = m_stacks.find(m_scratch); it != m_stacks.end()) {
        captured.id = it->second;
        return captured;
    }
    captured.frames.reserve(m_scratch.size());
    for (const auto& [object, number] : m_scratch) {
        const Code& c = m_codes.at(object);
        captured.frames.emplace_back(c.file, number, c.function);
    }
    if (auto id = recorder.internStack(captured.frames)) {
        m_stacks.emplace(m_scratch, *id);
        captured.id = *id;
        captured.frames.clear();
    }
    return captured;
}

} // namespace nanscope::python
