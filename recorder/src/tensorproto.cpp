// SPDX-License-Identifier: Apache-2.0
#include "tensorproto.hpp"

#include "nanscope/format/record.hpp"
#include "nanscope/unaligned.hpp"
#include "wire/messages.hpp"

#include <string>

namespace nanscope::detail {
namespace {

void setShape(wire::TensorProto& proto, std::span<const std::int64_t> shape)
{
    auto* s = proto.mutable_tensor_shape();
    s->Clear();
    for (const std::int64_t d : shape)
        s->add_dim()->set_size(d);
}

Status checkSize(const TensorView& view, std::int64_t count, std::size_t& bytes)
{
    const std::size_t size = hasFixedSizeElements(view.dtype) ? elementSize(view.dtype) : 0;
    if (size == 0)
        return {ErrorCode::Unsupported, std::string("FULL_TENSOR cannot copy tensors of type ") +
                                            std::string(dtypeName(view.dtype))};
    const auto limit = format::kMaxRecordPayload - 4096; // room for the rest of the record
    if (static_cast<std::uint64_t>(count) > limit / size)
        return {ErrorCode::InvalidArgument, "the tensor is too large for one FULL_TENSOR record"};
    bytes = static_cast<std::size_t>(count) * size;
    if (bytes > 0 && view.data == nullptr)
        return {ErrorCode::InvalidArgument, "the tensor has elements but no data"};
    return {};
}

bool usesContentInEager(DType dtype)
{
    switch (dtype) {
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64:
    case DType::Int32:
    case DType::UInt8:
    case DType::Int16:
    case DType::Int8:
    case DType::Int64:
    case DType::UInt32:
    case DType::UInt64:
        return true;
    default:
        return false;
    }
}

void addTypedValues(wire::TensorProto& proto, DType dtype, const unsigned char* p,
                    std::int64_t count)
{
    const std::size_t size = elementSize(dtype);
    for (std::int64_t i = 0; i < count; ++i, p += size) {
        switch (dtype) {
        case DType::Float32:
            proto.add_float_val(loadUnaligned<float>(p));
            break;
        case DType::Float64:
            proto.add_double_val(loadUnaligned<double>(p));
            break;
        case DType::Int32:
            proto.add_int_val(loadUnaligned<std::int32_t>(p));
            break;
        case DType::Int16:
            proto.add_int_val(loadUnaligned<std::int16_t>(p));
            break;
        case DType::Int8:
            proto.add_int_val(loadUnaligned<std::int8_t>(p));
            break;
        case DType::UInt8:
            proto.add_int_val(loadUnaligned<std::uint8_t>(p));
            break;
        case DType::UInt16:
            proto.add_int_val(loadUnaligned<std::uint16_t>(p));
            break;
        case DType::Float16:
        case DType::BFloat16:
            proto.add_half_val(loadUnaligned<std::uint16_t>(p));
            break;
        case DType::Int64:
            proto.add_int64_val(loadUnaligned<std::int64_t>(p));
            break;
        case DType::UInt32:
            proto.add_uint32_val(loadUnaligned<std::uint32_t>(p));
            break;
        case DType::UInt64:
            proto.add_uint64_val(loadUnaligned<std::uint64_t>(p));
            break;
        case DType::Bool:
            proto.add_bool_val(*p != 0);
            break;
        case DType::Complex64:
            proto.add_scomplex_val(loadUnaligned<float>(p));
            proto.add_scomplex_val(loadUnaligned<float>(p + 4));
            break;
        case DType::Complex128:
            proto.add_dcomplex_val(loadUnaligned<double>(p));
            proto.add_dcomplex_val(loadUnaligned<double>(p + 8));
            break;
        default:
            return;
        }
    }
}

} // namespace

void setNoTensorPayload(wire::TensorProto& proto)
{
    proto.Clear();
    proto.set_dtype(DType::Float32);
    proto.mutable_tensor_shape()->add_dim(); // one dimension of size 0
}

const wire::TensorProto& noTensorPayload()
{
    // Never destroyed: circular buffers point at it, and the recorders still open at exit are
    // flushed by an exit handler that may run after static objects made later are gone.
    static const wire::TensorProto* const placeholder = [] {
        auto* proto = new wire::TensorProto;
        setNoTensorPayload(*proto);
        return proto;
    }();
    return *placeholder;
}

void setSummaryPayload(wire::TensorProto& proto, std::span<const double> values)
{
    proto.Clear();
    proto.set_dtype(DType::Float64);
    proto.mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    proto.set_tensor_content(values.data(), values.size_bytes());
}

Status setFullTensorContent(wire::TensorProto& proto, const TensorView& view,
                            std::int64_t elementCount)
{
    std::size_t bytes = 0;
    if (Status s = checkSize(view, elementCount, bytes); !s.ok())
        return s;
    proto.Clear();
    proto.set_dtype(view.dtype);
    setShape(proto, view.shape);
    if (bytes > 0)
        proto.borrow_tensor_content(view.data, bytes); // serialised before the call returns
    return {};
}

Status setFullTensorEager(wire::TensorProto& proto, const TensorView& view,
                          std::int64_t elementCount)
{
    if (elementCount > 1 && usesContentInEager(view.dtype))
        return setFullTensorContent(proto, view, elementCount);
    std::size_t bytes = 0;
    if (Status s = checkSize(view, elementCount, bytes); !s.ok())
        return s;
    proto.Clear();
    proto.set_dtype(view.dtype);
    setShape(proto, view.shape);
    addTypedValues(proto, view.dtype, static_cast<const unsigned char*>(view.data), elementCount);
    return {};
}

} // namespace nanscope::detail
