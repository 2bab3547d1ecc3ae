// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/tensordata.hpp"

#include "nanscope/unaligned.hpp"
#include "tensordatabuilder.hpp"
#include "tensorproto.hpp"
#include "wirereader.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace nanscope::core {
namespace {

// tensor_content holds elements in the writer's byte order, and every writer NaNscope reads runs
// little-endian (as recorddecoding.cpp assumes too); typed values are laid out the same way here.
static_assert(std::endian::native == std::endian::little);

using wire::Field;
using wire::WireType;

// How often the pass over the elements looks at its stop flag.
constexpr std::uint64_t kStopCheckElements = std::uint64_t{1} << 16;

// The `width` low bytes of `v`: int_val holds int8 … int32 and uint8/uint16 values as int32
// varints, half_val the 16 bits of a float16 or bfloat16.
void appendLow(std::string& out, std::uint64_t v, std::size_t width)
{
    char raw[8];
    std::memcpy(raw, &v, sizeof raw);
    out.append(raw, width);
}

// The values of a tensor written in its typed field (float_val, int_val, half_val …), expanded
// into tensor_content's layout with TensorFlow's fill rule (the last value repeats; none given:
// zeros). A typed field can claim any number of elements, so the expansion is bounded by the
// record's own size (as readAllDoubles bounds it) and by `maxBytes`.
bool expandTypedValues(const TensorProtoView& view, std::size_t width, std::uint64_t maxBytes,
                       std::string& out, std::string& error)
{
    const std::uint32_t number = typedValuesField(view.dtype);
    if (number == 0) {
        error = "the tensor has no tensor_content, and its type has no typed values";
        return false;
    }
    const std::uint64_t typedLimit = std::max<std::uint64_t>(1024, 16 * view.message.size());
    if (view.elementCount > typedLimit) {
        error = "the tensor claims " + std::to_string(view.elementCount) +
                " elements, far more than its record holds";
        return false;
    }
    const std::uint64_t bytes = view.elementCount * width;
    if (bytes > maxBytes) {
        error = "the tensor's values would take more memory than one record may";
        return false;
    }
    out.clear();
    out.reserve(static_cast<std::size_t>(bytes));
    const bool fixed = view.dtype == DType::Float32 || view.dtype == DType::Float64;
    const WireType single = width == 4 ? WireType::Fixed32 : WireType::Fixed64;
    wire::Reader reader(view.message);
    Field field;
    bool ok = true;
    while (ok && reader.next(field)) {
        if (field.number != number)
            continue;
        if (fixed) {
            if (field.type == WireType::LengthDelimited && field.bytes.size() % width == 0)
                out.append(field.bytes);
            else if (field.type == single)
                appendLow(out, field.value, width);
            else
                ok = false;
        } else {
            const bool boolean = view.dtype == DType::Bool;
            ok = wire::forEachVarint(field, [&](std::uint64_t v) {
                appendLow(out, boolean ? static_cast<std::uint64_t>(v != 0) : v, width);
            });
        }
        ok = ok && out.size() <= bytes;
    }
    if (!ok || reader.failed()) {
        error = out.size() > bytes ? "the tensor holds more values than its shape"
                                   : "the tensor's typed values are malformed";
        return false;
    }
    if (out.empty())
        out.assign(static_cast<std::size_t>(bytes), '\0');
    const std::string last = out.substr(out.size() >= width ? out.size() - width : 0);
    while (out.size() < bytes)
        out.append(last);
    return true;
}

// One pass over every element: the counts, min, max, mean and the first non-finite index.
bool countStats(const TensorData& tensor, TensorStats& stats, const std::atomic_bool* stop)
{
    stats = {};
    long double sum = 0;
    const std::uint64_t n = tensor.elementCount();
    const std::string_view bytes = tensor.elementBytes();
    const std::size_t width = tensor.elementWidth();
    const DType dtype = tensor.dtype();
    for (std::uint64_t i = 0; i < n; ++i) {
        if (stop && i % kStopCheckElements == 0 && stop->load(std::memory_order_relaxed))
            return false;
        const double v = elementValue(dtype, bytes.data() + i * width);
        switch (elementKind(v)) {
        case ElementKind::NaN:
            ++stats.nan;
            break;
        case ElementKind::NegativeInfinity:
            ++stats.negativeInfinity;
            break;
        case ElementKind::PositiveInfinity:
            ++stats.positiveInfinity;
            break;
        case ElementKind::Zero:
            ++stats.zero;
            [[fallthrough]];
        case ElementKind::Finite:
            stats.min = stats.finite == 0 ? v : std::min(stats.min, v);
            stats.max = stats.finite == 0 ? v : std::max(stats.max, v);
            stats.maxMagnitude = std::max(stats.maxMagnitude, std::fabs(v));
            sum += v;
            ++stats.finite;
            continue;
        }
        if (!stats.firstNonFinite)
            stats.firstNonFinite = i;
    }
    stats.mean = stats.finite == 0 ? 0.0 : static_cast<double>(sum / stats.finite);
    return true;
}

} // namespace

ElementKind elementKind(double value)
{
    switch (classifyFloat(value)) {
    case FloatClass::NaN:
        return ElementKind::NaN;
    case FloatClass::NegativeInfinity:
        return ElementKind::NegativeInfinity;
    case FloatClass::PositiveInfinity:
        return ElementKind::PositiveInfinity;
    case FloatClass::Zero:
        return ElementKind::Zero;
    case FloatClass::NegativeFinite:
    case FloatClass::PositiveFinite:
        break;
    }
    return ElementKind::Finite;
}

double TensorData::value(std::uint64_t index) const
{
    return elementValue(m_dtype, m_storage.data() + m_offset + index * m_width);
}

void TensorData::values(std::uint64_t first, std::span<double> out) const
{
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = value(first + i);
}

bool TensorData::isIntegral() const
{
    return isInteger(m_dtype) || isQuantized(m_dtype) || m_dtype == DType::Bool;
}

std::int64_t TensorData::integer(std::uint64_t index) const
{
    const char* p = m_storage.data() + m_offset + index * m_width;
    switch (m_dtype) {
    case DType::Int64:
    case DType::UInt64:
        return loadUnaligned<std::int64_t>(p);
    case DType::Bool:
        return loadUnaligned<std::uint8_t>(p) != 0 ? 1 : 0;
    default: // every other integral type converts to a double exactly
        return static_cast<std::int64_t>(value(index));
    }
}

std::uint64_t TensorData::unsignedInteger(std::uint64_t index) const
{
    if (m_dtype == DType::UInt64)
        return loadUnaligned<std::uint64_t>(m_storage.data() + m_offset + index * m_width);
    return static_cast<std::uint64_t>(integer(index));
}

std::string_view TensorData::elementBytes() const
{
    return std::string_view(m_storage).substr(m_offset, m_elementCount * m_width);
}

std::uint64_t TensorData::flatIndex(std::span<const std::int64_t> coordinates) const
{
    std::uint64_t index = 0;
    for (std::size_t d = 0; d < m_shape.size() && d < coordinates.size(); ++d)
        index = index * static_cast<std::uint64_t>(m_shape[d]) +
                static_cast<std::uint64_t>(coordinates[d]);
    return index;
}

std::vector<std::int64_t> TensorData::coordinates(std::uint64_t index) const
{
    std::vector<std::int64_t> result(m_shape.size(), 0);
    for (std::size_t d = m_shape.size(); d-- > 0;) {
        const auto size = static_cast<std::uint64_t>(m_shape[d]);
        if (size == 0)
            break;
        result[d] = static_cast<std::int64_t>(index % size);
        index /= size;
    }
    return result;
}

ReadResult<TensorData> TensorDataBuilder::build(std::string storage, std::size_t offset,
                                                std::size_t length, std::uint64_t maxExpandedBytes,
                                                const std::atomic_bool* stop)
{
    ReadResult<TensorData> result;
    TensorProtoView view;
    if (offset > storage.size() || length > storage.size() - offset ||
        !parseTensorProto(std::string_view(storage).substr(offset, length), view)) {
        result.error = "the tensor is not a valid TensorProto";
        return result;
    }
    TensorData data;
    data.m_dtype = view.dtype;
    data.m_shape = dimensions(view);
    data.m_width = numericElementSize(view.dtype);
    if (data.m_width == 0) {
        result.error = "a tensor of type " + std::string(dtypeName(view.dtype)) +
                       " has no numeric values to show";
        return result;
    }
    if (!view.shapeValid) {
        result.error = "the tensor's shape is invalid (a negative or too large dimension)";
        return result;
    }
    data.m_elementCount = view.elementCount;
    if (!view.content.empty()) {
        if (view.content.size() % data.m_width != 0 ||
            view.content.size() / data.m_width != view.elementCount) {
            result.error = "the tensor's content holds " + std::to_string(view.content.size()) +
                           " bytes, not the " + std::to_string(view.elementCount) + " × " +
                           std::to_string(data.m_width) + " of its shape";
            return result;
        }
        data.m_offset = static_cast<std::size_t>(view.content.data() - storage.data());
        data.m_storage = std::move(storage);
    } else if (view.elementCount > 0) {
        std::string expanded;
        if (!expandTypedValues(view, data.m_width, maxExpandedBytes, expanded, result.error))
            return result;
        data.m_storage = std::move(expanded); // the record itself is no longer needed
    }
    if (!countStats(data, data.m_stats, stop)) {
        result.error = "stopped";
        return result;
    }
    result.value = std::move(data);
    return result;
}

ReadResult<TensorData> tensorDataFromProto(std::string bytes, std::size_t offset,
                                           std::size_t length, std::uint64_t maxExpandedBytes,
                                           const std::atomic_bool* stop)
{
    return TensorDataBuilder::build(std::move(bytes), offset, length, maxExpandedBytes, stop);
}

} // namespace nanscope::core
