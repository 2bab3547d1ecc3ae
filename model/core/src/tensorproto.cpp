// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorproto.hpp"

#include "float8.hpp"
#include "nanscope/unaligned.hpp"
#include "wirereader.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace nanscope::core {
namespace {

using wire::Field;
using wire::WireType;

// TensorProto field numbers (format §3.12).
constexpr std::uint32_t kDtype = 1, kShape = 2, kContent = 4, kFloatVal = 5, kDoubleVal = 6,
                        kIntVal = 7, kInt64Val = 10, kBoolVal = 11, kHalfVal = 13, kUint32Val = 16,
                        kUint64Val = 17;

} // namespace

double elementValue(DType type, const char* p)
{
    if (const Float8 format = float8Of(type); format != Float8::None)
        return decodeFloat8(loadUnaligned<std::uint8_t>(p), format);
    switch (type) {
    case DType::Float32:
        return loadUnaligned<float>(p);
    case DType::Float64:
        return loadUnaligned<double>(p);
    case DType::Int32:
    case DType::QInt32:
        return loadUnaligned<std::int32_t>(p);
    case DType::UInt8:
    case DType::QUInt8:
        return loadUnaligned<std::uint8_t>(p);
    case DType::Int16:
    case DType::QInt16:
        return loadUnaligned<std::int16_t>(p);
    case DType::Int8:
    case DType::QInt8:
        return loadUnaligned<std::int8_t>(p);
    case DType::Int64:
        return static_cast<double>(loadUnaligned<std::int64_t>(p));
    case DType::Bool:
        return loadUnaligned<std::uint8_t>(p) != 0 ? 1.0 : 0.0;
    case DType::UInt16:
    case DType::QUInt16:
        return loadUnaligned<std::uint16_t>(p);
    case DType::UInt32:
        return loadUnaligned<std::uint32_t>(p);
    case DType::UInt64:
        return static_cast<double>(loadUnaligned<std::uint64_t>(p));
    case DType::Float16:
        return decodeFloat16(loadUnaligned<std::uint16_t>(p));
    case DType::BFloat16:
        return decodeBFloat16(loadUnaligned<std::uint16_t>(p));
    default:
        return 0;
    }
}

std::uint32_t typedValuesField(DType type)
{
    switch (type) {
    case DType::Float32:
        return kFloatVal;
    case DType::Float64:
        return kDoubleVal;
    case DType::Int32:
    case DType::Int16:
    case DType::Int8:
    case DType::UInt8:
    case DType::UInt16:
    case DType::QInt8:
    case DType::QUInt8:
    case DType::QInt16:
    case DType::QUInt16:
    case DType::QInt32:
        return kIntVal;
    case DType::Int64:
        return kInt64Val;
    case DType::Bool:
        return kBoolVal;
    case DType::Float16:
    case DType::BFloat16:
        return kHalfVal;
    case DType::UInt32:
        return kUint32Val;
    case DType::UInt64:
        return kUint64Val;
    default:
        return 0;
    }
}

namespace {

// How one varint element of a typed field becomes a double.
double varintElement(DType type, std::uint64_t v)
{
    switch (type) {
    case DType::Int64:
        return static_cast<double>(static_cast<std::int64_t>(v));
    case DType::UInt64:
        return static_cast<double>(v);
    case DType::UInt32:
        return static_cast<double>(static_cast<std::uint32_t>(v));
    case DType::Bool:
        return v != 0 ? 1.0 : 0.0;
    case DType::Float16:
        return decodeFloat16(static_cast<std::uint16_t>(v));
    case DType::BFloat16:
        return decodeBFloat16(static_cast<std::uint16_t>(v));
    default: // the int_val types: int32 on the wire
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    }
}

// Calls f(size) for every dimension of a TensorShapeProto (repeated Dim dim = 2 { int64 size =
// 1; }; bool unknown_rank = 3); false when the bytes are malformed.
template <typename F>
bool forEachDimension(std::string_view shapeBytes, F&& f)
{
    wire::Reader shape(shapeBytes);
    Field field;
    while (shape.next(field)) {
        if (field.number != 2 || field.type != WireType::LengthDelimited)
            continue;
        wire::Reader dim(field.bytes);
        Field d;
        std::int64_t size = 0;
        while (dim.next(d))
            if (d.number == 1 && d.type == WireType::Varint)
                size = static_cast<std::int64_t>(d.value);
        if (dim.failed())
            return false;
        f(size);
    }
    return !shape.failed();
}

// Calls f(value) for every value in the typed field of the view's dtype (no fill rule) until f
// returns false. Returns the number of values visited, or -1 on malformed input.
template <typename F>
std::int64_t visitTypedValues(const TensorProtoView& view, F&& f)
{
    const std::uint32_t number = typedValuesField(view.dtype);
    if (number == 0)
        return -1;
    wire::Reader reader(view.message);
    Field field;
    std::int64_t count = 0;
    bool go = true;
    while (go && reader.next(field)) {
        if (field.number != number)
            continue;
        if (number == kFloatVal || number == kDoubleVal) {
            const std::size_t width = number == kFloatVal ? 4 : 8;
            auto element = [&](const char* p) {
                return width == 4 ? static_cast<double>(loadUnaligned<float>(p))
                                  : loadUnaligned<double>(p);
            };
            if (field.type == WireType::LengthDelimited) {
                if (field.bytes.size() % width != 0)
                    return -1;
                for (std::size_t i = 0; go && i < field.bytes.size(); i += width, ++count)
                    go = f(element(field.bytes.data() + i));
            } else if ((width == 4 && field.type == WireType::Fixed32) ||
                       (width == 8 && field.type == WireType::Fixed64)) {
                char raw[8];
                std::memcpy(raw, &field.value, 8);
                go = f(element(raw));
                ++count;
            } else {
                return -1;
            }
            continue;
        }
        const bool ok = wire::forEachVarint(field, [&](std::uint64_t v) {
            if (go) {
                go = f(varintElement(view.dtype, v));
                ++count;
            }
        });
        if (!ok)
            return -1;
    }
    return reader.failed() ? -1 : count;
}

// Counts by FloatClass, indexed in its order (FULL_HEALTH's).
struct ClassCounts
{
    std::uint64_t c[6] = {};
    void add(FloatClass k, std::uint64_t n = 1) { c[static_cast<int>(k)] += n; }
};

template <class Format>
void countBits(const char* p, std::size_t n, ClassCounts& counts)
{
    using Bits = typename Format::Bits;
    for (std::size_t i = 0; i < n; ++i)
        counts.add(Format::classify(loadUnaligned<Bits>(p + i * sizeof(Bits))));
}

} // namespace

std::size_t numericElementSize(DType dtype)
{
    if (float8Of(dtype) != Float8::None)
        return 1;
    return dtype == DType::Complex64 || dtype == DType::Complex128 ? 0 : elementSize(dtype);
}

namespace {

// The number of values of a summary vector laid out as TensorFlow's AsProtoTensorContent writes a
// rank-1 float64 vector of up to 15 elements (every graph-side summary vector, format §6.2):
// dtype 2, shape [n], 8n content bytes. 0 for any other layout.
unsigned summaryVectorLength(std::string_view bytes)
{
    if (bytes.size() < 10)
        return 0;
    // Bytes 0-6 in one comparison (08 02 12 04 12 02 08, read as a little-endian word like the
    // values below), then n, then 22.
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
    std::uint64_t head;
    std::memcpy(&head, b, 8);
    if ((head & 0x00ff'ffff'ffff'ffffull) != 0x0008'0212'0412'0208ull || b[8] != 0x22)
        return 0;
    const unsigned n = b[7];
    if (n == 0 || n > 15 || b[9] != 8 * n || bytes.size() != 10 + 8 * n)
        return 0;
    return n;
}

bool parseSummaryVector(std::string_view bytes, TensorProtoView& out)
{
    const unsigned n = summaryVectorLength(bytes);
    if (n == 0)
        return false;
    out = {};
    out.dtype = DType::Float64;
    out.rank = 1;
    out.elementCount = n;
    out.shape = bytes.substr(4, 4);
    out.content = bytes.substr(10);
    out.message = bytes;
    return true;
}

} // namespace

std::string_view summaryVectorContent(std::string_view bytes)
{
    return summaryVectorLength(bytes) == 0 ? std::string_view{} : bytes.substr(10);
}

bool parseTensorProto(std::string_view bytes, TensorProtoView& out)
{
    if (parseSummaryVector(bytes, out))
        return true;
    out = {};
    out.message = bytes;
    wire::Reader reader(bytes);
    Field field;
    while (reader.next(field)) {
        switch (field.number) {
        case kDtype:
            if (field.type != WireType::Varint)
                return false;
            out.dtype = static_cast<DType>(static_cast<std::int32_t>(field.value));
            break;
        case kShape:
            if (field.type != WireType::LengthDelimited)
                return false;
            out.shape = field.bytes;
            break;
        case kContent:
            if (field.type != WireType::LengthDelimited)
                return false;
            out.content = field.bytes;
            break;
        default:
            if (field.number >= kFloatVal && field.number <= 18 && field.number != 14 &&
                field.number != 15)
                out.hasTypedValues = true;
            break;
        }
    }
    if (reader.failed())
        return false;

    std::uint64_t count = 1;
    const bool shapeRead = forEachDimension(out.shape, [&](std::int64_t size) {
        ++out.rank;
        if (size < 0) {
            out.shapeValid = false;
        } else if (count != 0) {
            const auto s = static_cast<std::uint64_t>(size);
            if (s != 0 && count > (std::uint64_t{1} << 62) / s)
                out.shapeValid = false;
            else
                count *= s;
        }
    });
    if (!shapeRead)
        return false;
    out.elementCount = out.shapeValid ? count : 0;
    return true;
}

std::vector<std::int64_t> dimensions(const TensorProtoView& view)
{
    std::vector<std::int64_t> dims;
    forEachDimension(view.shape, [&](std::int64_t size) { dims.push_back(size); });
    return dims;
}

std::int64_t readDoubles(const TensorProtoView& view, std::span<double> out)
{
    if (!view.shapeValid)
        return -1;
    const std::size_t width = numericElementSize(view.dtype);
    if (width == 0)
        return -1;
    if (!view.content.empty()) {
        if (view.content.size() % width != 0 || view.content.size() / width != view.elementCount)
            return -1;
        const std::size_t n = view.content.size() / width;
        const std::size_t take = n < out.size() ? n : out.size();
        if (view.dtype == DType::Float64) {
            std::memcpy(out.data(), view.content.data(), take * 8);
        } else {
            for (std::size_t i = 0; i < take; ++i)
                out[i] = elementValue(view.dtype, view.content.data() + i * width);
        }
        return static_cast<std::int64_t>(n);
    }
    // Typed field with TensorFlow's fill rule: missing elements repeat the last value.
    std::size_t filled = 0;
    double last = 0;
    const std::int64_t given = visitTypedValues(view, [&](double v) {
        last = v;
        if (filled < out.size())
            out[filled++] = v;
        return true;
    });
    if (given < 0 || static_cast<std::uint64_t>(given) > view.elementCount)
        return -1;
    while (filled < out.size() && filled < view.elementCount)
        out[filled++] = last;
    return static_cast<std::int64_t>(view.elementCount);
}

bool readAllDoubles(const TensorProtoView& view, std::vector<double>& out, std::string* error,
                    std::uint64_t maxElements)
{
    auto fail = [&](const char* why) {
        if (error)
            *error = why;
        return false;
    };
    if (!view.shapeValid)
        return fail("the tensor's shape is invalid");
    if (numericElementSize(view.dtype) == 0)
        return fail("the tensor's type has no numeric values");
    // A typed field can claim any number of elements (the rest repeat its last value); decoding
    // stays within a multiple of the record's own size.
    const std::uint64_t typedLimit = std::max<std::uint64_t>(1024, 16 * view.message.size());
    if (view.elementCount > maxElements || (view.content.empty() && view.elementCount > typedLimit))
        return fail("the tensor is too large to decode");
    out.assign(static_cast<std::size_t>(view.elementCount), 0.0);
    const std::int64_t n = readDoubles(view, out);
    if (n < 0)
        return fail("the tensor's values do not match its type and shape");
    return true;
}

namespace {

// One float8 class per byte value, by the type's rules (decodeFloat8's).
void countFloat8(const char* p, std::size_t n, Float8 format, ClassCounts& counts)
{
    FloatClass table[256];
    for (unsigned b = 0; b < 256; ++b)
        table[b] = classifyFloat(decodeFloat8(static_cast<std::uint8_t>(b), format));
    for (std::size_t i = 0; i < n; ++i)
        counts.add(table[static_cast<unsigned char>(p[i])]);
}

// A complex element's class: NaN when a part is NaN, else infinite when a part is (the sign of
// the first infinite part), else finite (Zero stands for every finite value).
FloatClass classifyComplex(double re, double im)
{
    if (std::isnan(re) || std::isnan(im))
        return FloatClass::NaN;
    if (std::isinf(re) || std::isinf(im))
        return (std::isinf(re) ? re : im) < 0 ? FloatClass::NegativeInfinity
                                              : FloatClass::PositiveInfinity;
    return FloatClass::Zero;
}

// Calls f(re, im) for every element of a complex tensor: tensor_content, or scomplex_val (9) /
// dcomplex_val (12) with TensorFlow's fill rule (the last element repeats; none given: zeros),
// which the recorder writes for eager complex tensors. False when malformed.
template <typename F>
bool visitComplex(const TensorProtoView& view, F&& f)
{
    const bool single = view.dtype == DType::Complex64;
    const std::size_t width = single ? 4 : 8;
    const auto part = [&](const char* p) {
        return single ? static_cast<double>(loadUnaligned<float>(p)) : loadUnaligned<double>(p);
    };
    if (!view.content.empty()) {
        if (view.content.size() % (2 * width) != 0 ||
            view.content.size() / (2 * width) != view.elementCount)
            return false;
        for (std::size_t i = 0; i < view.content.size(); i += 2 * width)
            f(part(view.content.data() + i), part(view.content.data() + i + width));
        return true;
    }
    std::vector<double> parts;
    wire::Reader reader(view.message);
    Field field;
    const std::uint32_t number = single ? 9 : 12;
    while (reader.next(field)) {
        if (field.number != number)
            continue;
        if (field.type == WireType::LengthDelimited && field.bytes.size() % width == 0) {
            for (std::size_t i = 0; i < field.bytes.size(); i += width)
                parts.push_back(part(field.bytes.data() + i));
        } else if (field.type == (single ? WireType::Fixed32 : WireType::Fixed64)) {
            char raw[8];
            std::memcpy(raw, &field.value, 8);
            parts.push_back(part(raw));
        } else {
            return false;
        }
        if (parts.size() > 2 * view.elementCount)
            return false;
    }
    if (reader.failed() || parts.size() % 2 != 0)
        return false;
    for (std::size_t i = 0; i < parts.size(); i += 2)
        f(parts[i], parts[i + 1]);
    const std::uint64_t given = parts.size() / 2;
    const double re = given ? parts[parts.size() - 2] : 0;
    const double im = given ? parts.back() : 0;
    // One call for the repeated rest is enough to classify it; the count is added by the caller.
    if (given < view.elementCount)
        f(re, im, view.elementCount - given);
    return true;
}

// A complex tensor's health: counts of non-finite elements only (Detail::Counts, as CONCISE_HEALTH
// tells): a complex value is neither negative nor positive.
TensorHealth complexHealth(const TensorProtoView& view, TensorHealth h)
{
    ClassCounts counts;
    const bool ok = visitComplex(view, [&](double re, double im, std::uint64_t n = 1) {
        counts.add(classifyComplex(re, im), n);
    });
    if (!ok)
        return h;
    h.detail = TensorHealth::Detail::Counts;
    h.size = static_cast<double>(view.elementCount);
    h.negativeInfinity = static_cast<double>(counts.c[0]);
    h.positiveInfinity = static_cast<double>(counts.c[1]);
    h.nan = static_cast<double>(counts.c[2]);
    h.nonFinite = counts.c[0] + counts.c[1] + counts.c[2] > 0;
    return h;
}

} // namespace

TensorHealth fullTensorHealth(const TensorProtoView& view)
{
    TensorHealth h;
    h.dtype = view.dtype;
    h.rank = view.rank;
    const Float8 float8 = float8Of(view.dtype);
    const bool complex = view.dtype == DType::Complex64 || view.dtype == DType::Complex128;
    if (!(isFloating(view.dtype) || float8 != Float8::None || complex) || !view.shapeValid ||
        view.elementCount == 0)
        return h;
    if (complex)
        return complexHealth(view, h);
    ClassCounts counts;
    if (!view.content.empty()) {
        const std::size_t width = numericElementSize(view.dtype);
        if (view.content.size() % width != 0 || view.content.size() / width != view.elementCount)
            return h;
        const std::size_t n = view.content.size() / width;
        const char* p = view.content.data();
        switch (view.dtype) {
        case DType::Float32:
            countBits<Float32Format>(p, n, counts);
            break;
        case DType::Float64:
            countBits<Float64Format>(p, n, counts);
            break;
        case DType::Float16:
            countBits<Float16Format>(p, n, counts);
            break;
        case DType::BFloat16:
            countBits<BFloat16Format>(p, n, counts);
            break;
        default:
            countFloat8(p, n, float8, counts);
            break;
        }
    } else {
        double last = 0;
        const std::int64_t given = visitTypedValues(view, [&](double v) {
            last = v;
            counts.add(classifyFloat(v));
            return true;
        });
        if (given < 0 || static_cast<std::uint64_t>(given) > view.elementCount)
            return h;
        counts.add(classifyFloat(last), view.elementCount - static_cast<std::uint64_t>(given));
    }
    h.detail = TensorHealth::Detail::Full;
    h.size = static_cast<double>(view.elementCount);
    h.negativeInfinity = static_cast<double>(counts.c[0]);
    h.positiveInfinity = static_cast<double>(counts.c[1]);
    h.nan = static_cast<double>(counts.c[2]);
    h.negativeFinite = static_cast<double>(counts.c[3]);
    h.zero = static_cast<double>(counts.c[4]);
    h.positiveFinite = static_cast<double>(counts.c[5]);
    h.nonFinite = counts.c[0] + counts.c[1] + counts.c[2] > 0;
    return h;
}

TensorValue toTensorValue(const TensorProtoView& view, std::size_t maxValues)
{
    TensorValue value;
    value.dtype = view.dtype;
    value.shape = dimensions(view);
    if (!view.shapeValid || numericElementSize(view.dtype) == 0)
        return value;
    value.elementCount = view.elementCount;
    value.values.resize(
        static_cast<std::size_t>(std::min<std::uint64_t>(view.elementCount, maxValues)));
    value.numeric = readDoubles(view, value.values) >= 0;
    if (!value.numeric) {
        value.values.clear();
        value.elementCount = 0;
    }
    return value;
}

} // namespace nanscope::core
