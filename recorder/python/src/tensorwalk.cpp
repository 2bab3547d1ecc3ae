// SPDX-License-Identifier: Apache-2.0
#include "tensorwalk.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace nanscope::python {
namespace {

// A new reference to an attribute, or nullptr with the error cleared.
PyObject* attribute(PyObject* object, const char* name)
{
    PyObject* value = PyObject_GetAttrString(object, name);
    if (!value)
        PyErr_Clear();
    return value;
}

bool truthy(PyObject* object, const char* name)
{
    PyObject* value = attribute(object, name);
    const bool result = value && PyObject_IsTrue(value) == 1;
    Py_XDECREF(value);
    PyErr_Clear();
    return result;
}

// A tuple of ints (torch.Size, stride()) as int64s; false when it is not one.
bool int64s(PyObject* sequence, std::vector<std::int64_t>& out)
{
    if (!sequence || !PyTuple_Check(sequence))
        return false;
    const Py_ssize_t n = PyTuple_GET_SIZE(sequence);
    out.resize(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
        const long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(sequence, i));
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return false;
        }
        out[static_cast<std::size_t>(i)] = v;
    }
    return true;
}

bool callInt64s(PyObject* object, const char* method, std::vector<std::int64_t>& out)
{
    PyObject* result = PyObject_CallMethod(object, method, nullptr);
    const bool ok = int64s(result, out);
    Py_XDECREF(result);
    PyErr_Clear();
    return ok;
}

// The address a method returns (data_ptr()); the interpreter turns the int into a pointer.
const void* callPointer(PyObject* object, const char* method, bool& ok)
{
    PyObject* result = PyObject_CallMethod(object, method, nullptr);
    const void* value = nullptr;
    ok = result && PyLong_Check(result);
    if (ok) {
        value = PyLong_AsVoidPtr(result);
        ok = !PyErr_Occurred();
    }
    Py_XDECREF(result);
    PyErr_Clear();
    return value;
}

} // namespace

bool isContiguous(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides)
{
    std::int64_t expected = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (shape[i] == 0)
            return true; // no elements: nothing to read
        if (shape[i] != 1 && strides[i] != expected)
            return false;
        expected *= shape[i];
    }
    return true;
}

namespace {

std::string reprOf(PyObject* object)
{
    PyObject* text = object ? PyObject_Str(object) : nullptr;
    std::string result = "unknown";
    if (text) {
        if (const char* utf8 = PyUnicode_AsUTF8(text))
            result = utf8;
        Py_DECREF(text);
    }
    PyErr_Clear();
    return result;
}

std::unique_ptr<DescribedTensor> skipped(std::unique_ptr<DescribedTensor> t, std::string reason)
{
    t->skipReason = std::move(reason);
    t->view.dtype = DType::Invalid;
    t->view.data = nullptr;
    t->gathered.clear();
    t->dense.reset();
    return t;
}

} // namespace

void collectTensors(PyObject* object, PyObject* tensorType, std::vector<PyObject*>& tensors,
                    int maxDepth)
{
    if (!object || maxDepth < 0)
        return;
    if (PyObject_TypeCheck(object, reinterpret_cast<PyTypeObject*>(tensorType))) {
        tensors.push_back(object);
        return;
    }
    if (PyTuple_Check(object) || PyList_Check(object)) {
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(object);
        for (Py_ssize_t i = 0; i < n; ++i)
            collectTensors(PySequence_Fast_GET_ITEM(object, i), tensorType, tensors, maxDepth - 1);
    } else if (PyDict_Check(object)) {
        PyObject* key = nullptr;
        PyObject* value = nullptr;
        Py_ssize_t pos = 0;
        while (PyDict_Next(object, &pos, &key, &value))
            collectTensors(value, tensorType, tensors, maxDepth - 1);
    }
}

bool isDensePermutation(const std::vector<std::int64_t>& shape,
                        const std::vector<std::int64_t>& strides)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> dims; // (stride, size), size > 1
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0)
            return true; // no elements
        if (shape[i] != 1)
            dims.emplace_back(strides[i], shape[i]);
    }
    std::sort(dims.begin(), dims.end());
    std::int64_t expected = 1;
    for (const auto& [stride, size] : dims) {
        if (stride != expected)
            return false;
        expected *= size;
    }
    return true;
}

bool readableInPlace(const std::vector<std::int64_t>& shape,
                     const std::vector<std::int64_t>& strides, bool orderMatters)
{
    return isContiguous(shape, strides) || (!orderMatters && isDensePermutation(shape, strides));
}

std::optional<std::string> pointAtHostElements(const void* data, std::size_t elementSize,
                                               std::int64_t count,
                                               const std::vector<std::int64_t>& shape,
                                               const std::vector<std::int64_t>& strides,
                                               bool orderMatters, TensorView& view,
                                               std::vector<unsigned char>& gathered)
{
    if (readableInPlace(shape, strides, orderMatters)) {
        view.data = data;
        return std::nullopt;
    }
    for (const auto s : strides)
        if (s < 0)
            return "negative strides";
    if (static_cast<std::uint64_t>(count) > kMaxGatherBytes / std::max<std::size_t>(elementSize, 1))
        return "non-contiguous tensor too large to gather";
    gatherStrided(static_cast<const unsigned char*>(data), elementSize, shape, strides, gathered);
    view.data = gathered.data();
    return std::nullopt;
}

void gatherStrided(const unsigned char* base, std::size_t elementSize,
                   const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                   std::vector<unsigned char>& out)
{
    std::size_t count = 1;
    for (const auto d : shape)
        count *= static_cast<std::size_t>(d);
    out.resize(count * elementSize);
    if (count == 0)
        return;
    const std::size_t rank = shape.size();
    std::vector<std::int64_t> index(rank, 0);
    unsigned char* dst = out.data();
    std::ptrdiff_t offset = 0; // in elements
    for (std::size_t n = 0; n < count; ++n) {
        std::memcpy(dst, base + offset * static_cast<std::ptrdiff_t>(elementSize), elementSize);
        dst += elementSize;
        // An odometer over the indices, innermost fastest.
        for (std::size_t i = rank; i-- > 0;) {
            offset += strides[i];
            if (++index[i] < shape[i])
                break;
            offset -= strides[i] * shape[i];
            index[i] = 0;
        }
    }
}

std::unique_ptr<DescribedTensor> describeTensor(PyObject* tensor, const TorchVocabulary& torch,
                                                const DescribeOptions& options)
{
    auto t = std::make_unique<DescribedTensor>();
    PyObject* dtype = attribute(tensor, "dtype");
    const auto known = dtype ? torch.dtypes.find(dtype) : torch.dtypes.end();
    if (known == torch.dtypes.end()) {
        std::string name = reprOf(dtype);
        Py_XDECREF(dtype);
        return skipped(std::move(t), "dtype " + name + " has no tfdbg2 equivalent");
    }
    Py_DECREF(dtype);
    t->view.dtype = known->second;

    PyObject* layout = attribute(tensor, "layout");
    const bool strided = layout == torch.strided;
    if (!strided) {
        std::string name = reprOf(layout);
        Py_XDECREF(layout);
        return skipped(std::move(t), "layout " + name + " is not strided");
    }
    Py_DECREF(layout);
    if (truthy(tensor, "is_nested"))
        return skipped(std::move(t), "nested tensor");

    PyObject* shape = attribute(tensor, "shape");
    const bool shapeOk = int64s(shape, t->shape);
    Py_XDECREF(shape);
    if (!shapeOk)
        return skipped(std::move(t), "the shape cannot be read");
    t->view.shape = t->shape;

    const bool onCpu = truthy(tensor, "is_cpu");
    const bool onCuda = !onCpu && truthy(tensor, "is_cuda");
    if (!onCpu && !onCuda) {
        PyObject* device = attribute(tensor, "device");
        std::string name = reprOf(device);
        Py_XDECREF(device);
        return skipped(std::move(t), "device " + name + " cannot be read");
    }
    if (onCuda && !options.deviceSupported)
        return skipped(std::move(t), "CUDA tensor: this build or machine cannot read device "
                                     "memory");
    if (!options.readValues)
        return t; // the mode reads no values: dtype and shape are all it needs

    std::vector<std::int64_t> strides;
    if (!callInt64s(tensor, "stride", strides) || strides.size() != t->shape.size())
        return skipped(std::move(t), "the strides cannot be read");
    bool ok = false;
    const void* data = callPointer(tensor, "data_ptr", ok);
    if (!ok)
        return skipped(std::move(t), "the data pointer cannot be read");
    const auto count = elementCount(t->shape);
    if (!count)
        return skipped(std::move(t), "the shape is invalid");
    if (*count > 0 && data == nullptr)
        return skipped(std::move(t), "the tensor has no storage");

    const std::size_t size = elementSize(t->view.dtype);
    if (onCuda) {
        if (!readableInPlace(t->shape, strides, options.orderMatters)) {
            // A view (sliced, expanded; transposed when the order matters) is read through a dense
            // copy that torch makes on the current stream, the stream the summary then runs on: the
            // copy is freed when the op's record ends, and the caching allocator hands its memory
            // only to work queued after the summary on that stream.
            PyObject* dense = PyObject_CallMethod(tensor, "contiguous", nullptr);
            bool denseOk = false;
            const void* denseData = dense ? callPointer(dense, "data_ptr", denseOk) : nullptr;
            if (!denseOk) {
                Py_XDECREF(dense);
                PyErr_Clear();
                return skipped(std::move(t), "a non-contiguous CUDA tensor could not be copied");
            }
            t->dense.reset(dense);
            data = denseData;
        }
        PyObject* deviceIndex = attribute(tensor, "get_device");
        PyObject* index = deviceIndex ? PyObject_CallNoArgs(deviceIndex) : nullptr;
        Py_XDECREF(deviceIndex);
        PyObject* stream = index && torch.currentStream
                               ? PyObject_CallOneArg(torch.currentStream, index)
                               : nullptr;
        Py_XDECREF(index);
        const auto handle = stream ? PyLong_AsVoidPtr(stream) : nullptr;
        Py_XDECREF(stream);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return skipped(std::move(t), "the CUDA stream cannot be read");
        }
        t->view.space = MemorySpace::Device;
        t->view.stream = handle;
        t->view.data = data;
        return t;
    }
    if (auto reason = pointAtHostElements(data, size, *count, t->shape, strides,
                                          options.orderMatters, t->view, t->gathered))
        return skipped(std::move(t), std::move(*reason));
    return t;
}

} // namespace nanscope::python
