// SPDX-License-Identifier: Apache-2.0
// Finds the tensors in an op's arguments and results, and describes each one's memory for the
// recorder without running any torch op on it. Needs the GIL.
#pragma once

#include "nanscope/recorder.hpp"

#include <Python.h>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace nanscope::python {

// The objects of torch that the walk compares against, set once by the package.
struct TorchVocabulary
{
    PyObject* tensorType = nullptr;              // torch.Tensor
    PyObject* strided = nullptr;                 // torch.strided
    PyObject* currentStream = nullptr;           // callable(device_index) -> int (cudaStream_t)
    std::unordered_map<PyObject*, DType> dtypes; // torch.float32 -> Float32, …
};

// Appends the tensors found in `object` (a tensor, or tuples, lists and dict values holding
// tensors, to `maxDepth` levels), in order.
void collectTensors(PyObject* object, PyObject* tensorType, std::vector<PyObject*>& tensors,
                    int maxDepth = 8);

// Drops a Python reference (the GIL must be held, as it is wherever records are made).
struct PyReferenceDrop
{
    void operator()(PyObject* object) const { Py_XDECREF(object); }
};

struct DescribedTensor
{
    std::vector<std::int64_t> shape;
    TensorView view;                     // view.shape points into `shape`
    std::vector<unsigned char> gathered; // the values of a non-contiguous host tensor, in order
    std::unique_ptr<PyObject, PyReferenceDrop> dense; // a non-contiguous CUDA tensor's dense copy
    std::string skipReason;                           // set: recorded without values, counted
};

// Non-contiguous tensors larger than this are not gathered (an expanded view may span far
// more elements than its storage holds).
inline constexpr std::size_t kMaxGatherBytes = std::size_t{256} << 20;

struct DescribeOptions
{
    bool readValues = false;      // the mode reads values: gather non-contiguous tensors
    bool deviceSupported = false; // this build and machine read CUDA memory
    bool orderMatters = false;    // the mode writes values in order (FULL_TENSOR)
};

// Describes one tensor. A tensor the recorder cannot read gets a skip reason and an Invalid
// dtype (the recorder then writes no values for it).
std::unique_ptr<DescribedTensor> describeTensor(PyObject* tensor, const TorchVocabulary& torch,
                                                const DescribeOptions& options);

// Whether a row-major walk of `shape` with `strides` reads consecutive elements.
bool isContiguous(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides);

// Whether the elements fill the memory from the first one on without gaps or overlaps, in
// some order of the dimensions (a transposed or permuted contiguous tensor): then they are that
// memory's first elements, read as one flat run by a summary that counts and does not care
// about order.
bool isDensePermutation(const std::vector<std::int64_t>& shape,
                        const std::vector<std::int64_t>& strides);

// Whether the summary can read the elements where they are: contiguous, or a dense
// permutation when order does not matter.
bool readableInPlace(const std::vector<std::int64_t>& shape,
                     const std::vector<std::int64_t>& strides, bool orderMatters);

// Points `view` at a host tensor's `count` elements: at its memory when readableInPlace, else
// at a row-major copy gathered into `gathered`. The reason when it cannot (negative strides, a
// copy over kMaxGatherBytes).
std::optional<std::string> pointAtHostElements(const void* data, std::size_t elementSize,
                                               std::int64_t count,
                                               const std::vector<std::int64_t>& shape,
                                               const std::vector<std::int64_t>& strides,
                                               bool orderMatters, TensorView& view,
                                               std::vector<unsigned char>& gathered);

// Copies the elements of a strided tensor into `out` in row-major order.
void gatherStrided(const unsigned char* base, std::size_t elementSize,
                   const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                   std::vector<unsigned char>& out);

} // namespace nanscope::python
