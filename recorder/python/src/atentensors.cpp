// SPDX-License-Identifier: Apache-2.0
#include "atentensors.hpp"

#include "tensorwalk.hpp"

#include <ATen/record_function.h>
#include <algorithm>
#include <c10/core/GradMode.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <cctype>
#include <map>
#include <sstream>

namespace nanscope::python {
namespace {

std::string lowercase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// The name Python gives a scalar type (torch.<name>), for skip reasons that read alike on both
// observers.
std::string pythonName(c10::ScalarType type)
{
    switch (type) {
    case c10::ScalarType::Byte:
        return "uint8";
    case c10::ScalarType::Char:
        return "int8";
    case c10::ScalarType::Short:
        return "int16";
    case c10::ScalarType::Int:
        return "int32";
    case c10::ScalarType::Long:
        return "int64";
    case c10::ScalarType::Half:
        return "float16";
    case c10::ScalarType::Float:
        return "float32";
    case c10::ScalarType::Double:
        return "float64";
    case c10::ScalarType::ComplexHalf:
        return "complex32";
    case c10::ScalarType::ComplexFloat:
        return "complex64";
    case c10::ScalarType::ComplexDouble:
        return "complex128";
    case c10::ScalarType::Bool:
        return "bool";
    case c10::ScalarType::BFloat16:
        return "bfloat16";
    case c10::ScalarType::QInt8:
        return "qint8";
    case c10::ScalarType::QUInt8:
        return "quint8";
    case c10::ScalarType::QInt32:
        return "qint32";
    default:
        return lowercase(c10::toString(type));
    }
}

std::string pythonName(c10::Layout layout)
{
    switch (layout) {
    case c10::Layout::Sparse:
        return "sparse_coo";
    case c10::Layout::SparseCsr:
        return "sparse_csr";
    case c10::Layout::Mkldnn:
        return "_mkldnn";
    default: {
        std::ostringstream text;
        text << layout;
        return lowercase(text.str());
    }
    }
}

// The address of a tensor's first element without writing through it: torch 2.1 and later
// copy a lazily cloned (copy-on-write) storage on data_ptr(), which a recorder must not do.
template <typename T>
const void* readOnlyData(const T& tensor)
{
    if constexpr (requires { tensor.const_data_ptr(); })
        return tensor.const_data_ptr();
    else
        return tensor.data_ptr();
}

std::unique_ptr<DescribedAtenTensor> skipped(std::unique_ptr<DescribedAtenTensor> t,
                                             std::string reason)
{
    t->skipReason = std::move(reason);
    t->view.dtype = DType::Invalid;
    t->view.data = nullptr;
    t->gathered.clear();
    t->dense = at::Tensor();
    return t;
}

} // namespace

std::optional<DType> dtypeOf(c10::ScalarType type)
{
    switch (type) {
    case c10::ScalarType::Float:
        return DType::Float32;
    case c10::ScalarType::Double:
        return DType::Float64;
    case c10::ScalarType::Int:
        return DType::Int32;
    case c10::ScalarType::Byte:
        return DType::UInt8;
    case c10::ScalarType::Short:
        return DType::Int16;
    case c10::ScalarType::Char:
        return DType::Int8;
    case c10::ScalarType::ComplexFloat:
        return DType::Complex64;
    case c10::ScalarType::Long:
        return DType::Int64;
    case c10::ScalarType::Bool:
        return DType::Bool;
    case c10::ScalarType::BFloat16:
        return DType::BFloat16;
    case c10::ScalarType::ComplexDouble:
        return DType::Complex128;
    case c10::ScalarType::Half:
        return DType::Float16;
    default:
        return std::nullopt;
    }
}

void TensorImplIds::idsOf(const std::vector<at::Tensor>& tensors, std::vector<std::int64_t>& out)
{
    const std::lock_guard lock(m_mutex);
    for (const at::Tensor& t : tensors) {
        if (!t.defined())
            continue;
        const c10::TensorImpl* impl = t.unsafeGetTensorImpl();
        auto it = m_ids.find(impl);
        if (it == m_ids.end() || it->second.alive.expired()) {
            Entry entry{decltype(Entry::alive)(t.getIntrusivePtr()), m_fresh()};
            if (it == m_ids.end())
                it = m_ids.emplace(impl, std::move(entry)).first;
            else
                it->second = std::move(entry);
        }
        out.push_back(it->second.id);
    }
    if (m_ids.size() >= m_sweepAt)
        sweep();
}

void TensorImplIds::sweep()
{
    std::erase_if(m_ids, [](const auto& entry) { return entry.second.alive.expired(); });
    m_sweepAt = std::max(m_ids.size() * 2, std::size_t{1} << 16);
}

std::size_t TensorImplIds::size() const
{
    const std::lock_guard lock(m_mutex);
    return m_ids.size();
}

void TensorImplIds::clear()
{
    const std::lock_guard lock(m_mutex);
    m_ids.clear();
}

std::function<std::optional<void*>(int device)>
cachedCurrentStreams(std::function<std::optional<void*>(int device)> slow)
{
    struct Cache
    {
        std::mutex mutex;
        std::map<std::pair<int, c10::StreamId>, void*> handles;
    };
    auto cache = std::make_shared<Cache>();
    return [cache, slow = std::move(slow)](int device) -> std::optional<void*> {
        const c10::impl::VirtualGuardImpl cuda(c10::DeviceType::CUDA);
        const auto index = static_cast<c10::DeviceIndex>(device);
        const c10::Stream stream = cuda.getStream(c10::Device(c10::DeviceType::CUDA, index));
        const std::pair key{device, stream.id()};
        {
            const std::lock_guard lock(cache->mutex);
            if (auto it = cache->handles.find(key); it != cache->handles.end())
                return it->second;
        }
        const auto handle = slow(device);
        if (handle) {
            const std::lock_guard lock(cache->mutex);
            cache->handles.emplace(key, *handle);
        }
        return handle;
    };
}

std::unique_ptr<DescribedAtenTensor> describeAtenTensor(const at::Tensor& tensor,
                                                        const AtenDescribeOptions& options)
{
    auto t = std::make_unique<DescribedAtenTensor>();
    const auto dtype = dtypeOf(tensor.scalar_type());
    if (!dtype)
        return skipped(std::move(t), "dtype torch." + pythonName(tensor.scalar_type()) +
                                         " has no tfdbg2 equivalent");
    t->view.dtype = *dtype;
    if (tensor.layout() != c10::Layout::Strided)
        return skipped(std::move(t),
                       "layout torch." + pythonName(tensor.layout()) + " is not strided");
    if (tensor.is_nested())
        return skipped(std::move(t), "nested tensor");
    const auto sizes = tensor.sizes();
    t->shape.assign(sizes.begin(), sizes.end());
    t->view.shape = t->shape;

    const bool onCpu = tensor.is_cpu();
    const bool onCuda = !onCpu && tensor.is_cuda();
    if (!onCpu && !onCuda)
        return skipped(std::move(t), "device " + tensor.device().str() + " cannot be read");
    if (onCuda && !options.deviceSupported)
        return skipped(std::move(t), "CUDA tensor: this build or machine cannot read device "
                                     "memory");
    if (!options.readValues)
        return t; // the mode reads no values: dtype and shape are all it needs

    const auto strideList = tensor.strides();
    const std::vector<std::int64_t> strides(strideList.begin(), strideList.end());
    const auto count = elementCount(t->shape);
    if (!count)
        return skipped(std::move(t), "the shape is invalid");
    if (*count > 0 && !tensor.has_storage())
        return skipped(std::move(t), "the tensor has no storage");
    const void* data = *count > 0 ? readOnlyData(tensor) : nullptr;
    if (*count > 0 && data == nullptr)
        return skipped(std::move(t), "the tensor has no storage");

    const std::size_t size = elementSize(t->view.dtype);
    if (onCuda) {
        if (!readableInPlace(t->shape, strides, options.orderMatters)) {
            // A view is read through a dense copy made on the current stream, the stream the
            // summary then runs on (see describeTensor): unobserved, and outside autograd.
            const at::DisableRecordFunctionGuard unobserved;
            const c10::AutoGradMode noGrad(false);
            t->dense = tensor.contiguous();
            data = readOnlyData(t->dense);
        }
        const auto stream = options.currentStream
                                ? options.currentStream(static_cast<int>(tensor.get_device()))
                                : std::nullopt;
        if (!stream)
            return skipped(std::move(t), "the CUDA stream cannot be read");
        t->view.space = MemorySpace::Device;
        t->view.stream = *stream;
        t->view.data = data;
        return t;
    }
    if (auto reason = pointAtHostElements(data, size, *count, t->shape, strides,
                                          options.orderMatters, t->view, t->gathered))
        return skipped(std::move(t), std::move(*reason));
    return t;
}

} // namespace nanscope::python
