// SPDX-License-Identifier: Apache-2.0
#include "tensorids.hpp"

namespace nanscope::python {
namespace {

PyMethodDef g_onDeath = {"_nanscope_tensor_died", nullptr, METH_O, nullptr};

} // namespace

TensorIds::TensorIds(std::function<std::int64_t()> fresh) : m_fresh(std::move(fresh))
{
    g_onDeath.ml_meth = &TensorIds::onDeath;
    m_capsule = PyCapsule_New(this, nullptr, nullptr);
    if (m_capsule)
        m_callback = PyCFunction_New(&g_onDeath, m_capsule);
    PyErr_Clear();
}

TensorIds::~TensorIds()
{
    clear();
    Py_XDECREF(m_callback);
    Py_XDECREF(m_capsule);
}

void TensorIds::releaseDead()
{
    auto released = std::move(m_released);
    m_released.clear();
    for (PyObject* weakref : released)
        Py_DECREF(weakref);
}

void TensorIds::clear()
{
    releaseDead();
    // Dropping a weak reference cancels its callback, so none fires into a cleared map.
    auto ids = std::move(m_ids);
    m_ids.clear();
    m_objectOfWeakref.clear();
    for (auto& [object, entry] : ids)
        Py_DECREF(entry.weakref);
}

std::int64_t TensorIds::idOf(PyObject* object)
{
    releaseDead();
    if (auto it = m_ids.find(object); it != m_ids.end())
        return it->second.id;
    if (!m_callback)
        return -1;
    PyObject* weakref = PyWeakref_NewRef(object, m_callback);
    if (!weakref) {
        PyErr_Clear();
        return -1;
    }
    const std::int64_t id = m_fresh();
    m_ids.emplace(object, Entry{id, weakref});
    m_objectOfWeakref.emplace(weakref, object);
    return id;
}

PyObject* TensorIds::onDeath(PyObject* self, PyObject* weakref)
{
    auto* ids = static_cast<TensorIds*>(PyCapsule_GetPointer(self, nullptr));
    if (ids) {
        if (auto it = ids->m_objectOfWeakref.find(weakref); it != ids->m_objectOfWeakref.end()) {
            ids->m_ids.erase(it->second);
            ids->m_objectOfWeakref.erase(it);
            // The reference the map held is released later: the weak reference is still in
            // use by the interpreter's call of this callback.
            ids->m_released.push_back(weakref);
        }
    }
    PyErr_Clear();
    Py_RETURN_NONE;
}

} // namespace nanscope::python
