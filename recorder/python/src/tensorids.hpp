// SPDX-License-Identifier: Apache-2.0
// Eager tensor ids for Python tensor objects: one id per object for as long as it lives. A weak
// reference per object drops its entry when the object dies, so that a new object at the same
// address (id() reuse) gets a new id. Every method needs the GIL.
#pragma once

#include <Python.h>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace nanscope::python {

class TensorIds
{
public:
    explicit TensorIds(std::function<std::int64_t()> fresh);
    ~TensorIds();
    TensorIds(const TensorIds&) = delete;
    TensorIds& operator=(const TensorIds&) = delete;

    // The object's id, assigned on first sight; -1 when the object cannot be weakly referenced.
    std::int64_t idOf(PyObject* object);
    std::size_t size() const { return m_ids.size(); }

    // Forgets every object; their weak references are dropped.
    void clear();

private:
    static PyObject* onDeath(PyObject* self, PyObject* weakref);
    void releaseDead();

    struct Entry
    {
        std::int64_t id;
        PyObject* weakref; // owned
    };
    std::function<std::int64_t()> m_fresh;
    std::unordered_map<PyObject*, Entry> m_ids;
    std::unordered_map<PyObject*, PyObject*> m_objectOfWeakref;
    std::vector<PyObject*> m_released; // weak references of dead objects, to drop
    PyObject* m_callback = nullptr;    // owned; a builtin bound to this
    PyObject* m_capsule = nullptr;     // owned; carries `this` to the callback
};

} // namespace nanscope::python
