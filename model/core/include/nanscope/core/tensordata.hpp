// SPDX-License-Identifier: GPL-3.0-or-later
// One whole tensor of a trace or of an execution's output, read on demand (the Tensor panel).
//
// A read (readTensorData) keeps the elements as the record holds them, tensor_content's bytes,
// and counts their statistics in one pass; elements are then converted one at a time, so that a
// view converts only the ones it shows. It reads a whole record: callers that must stay
// responsive run it on another thread (details.hpp's rule for reads above
// kInteractiveRecordBytes).
#pragma once

#include "nanscope/core/details.hpp"
#include "nanscope/core/digests.hpp"
#include "nanscope/dtype.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nanscope::core {

class Snapshot;

// What one element is, for marking it: the non-finite kinds, zero, and everything else.
enum class ElementKind : std::uint8_t { Finite, Zero, NaN, NegativeInfinity, PositiveInfinity };

ElementKind elementKind(double value);

struct TensorStats
{
    std::uint64_t nan = 0;
    std::uint64_t negativeInfinity = 0;
    std::uint64_t positiveInfinity = 0;
    std::uint64_t zero = 0;
    std::uint64_t finite = 0; // zeros included: the elements min, max and mean are over
    double min = 0;           // over finite elements; 0 when there are none
    double max = 0;
    double mean = 0;
    double maxMagnitude = 0; // the largest |finite value|, the scale of a heat map
    // The row-major index of the first NaN or ±inf.
    std::optional<std::uint64_t> firstNonFinite;

    std::uint64_t nonFinite() const { return nan + negativeInfinity + positiveInfinity; }
};

class TensorData
{
public:
    DType dtype() const { return m_dtype; }
    const std::vector<std::int64_t>& shape() const { return m_shape; }
    std::uint64_t elementCount() const { return m_elementCount; }
    const TensorStats& stats() const { return m_stats; }

    // Element `index` (row-major, < elementCount()) as a double: exact for every type but 64-bit
    // integers beyond 2^53 (see integer()).
    double value(std::uint64_t index) const;
    // Elements [first, first + out.size()), which must exist.
    void values(std::uint64_t first, std::span<double> out) const;
    // An element of an integer type, bool or a quantized type, exactly; for uint64, values past
    // INT64_MAX come back as unsignedInteger() only.
    std::int64_t integer(std::uint64_t index) const;
    std::uint64_t unsignedInteger(std::uint64_t index) const;
    bool isIntegral() const; // integer, quantized and bool types

    // The elements in tensor_content's layout: little-endian, elementWidth() bytes each.
    std::string_view elementBytes() const;
    std::size_t elementWidth() const { return m_width; }

    // The row-major index of an element, and back (coordinates within shape()).
    std::uint64_t flatIndex(std::span<const std::int64_t> coordinates) const;
    std::vector<std::int64_t> coordinates(std::uint64_t index) const;

private:
    friend struct TensorDataBuilder;

    DType m_dtype = DType::Invalid;
    std::vector<std::int64_t> m_shape;
    std::uint64_t m_elementCount = 0;
    std::size_t m_width = 0;
    TensorStats m_stats;
    // The record's payload (the elements lie inside it) or, for a tensor written in typed
    // fields, the elements expanded into tensor_content's layout. An offset, not a view, so
    // that moving the object keeps it valid.
    std::string m_storage;
    std::size_t m_offset = 0;
};

// The tensor of FULL_TENSOR graph trace `event.index`, or tensor_protos[slot] of FULL_TENSOR
// execution `event.index` (slot is ignored for a trace). Errors (never exceptions) for another
// mode, a record that cannot be read or is corrupt, a type with no numeric values (strings,
// complex), content that does not match the shape, and a tensor whose expanded values would take
// more than the reader's share of memory for one record. `stop`, when set, abandons the pass
// over the elements (the result is then an error).
ReadResult<TensorData> readTensorData(const Snapshot& snapshot, EventRef event,
                                      std::uint32_t slot = 0,
                                      const std::atomic_bool* stop = nullptr);

// The same from a TensorProto's bytes (what the record holds), for tests and tools.
ReadResult<TensorData> tensorDataFromProto(std::string bytes, std::size_t offset,
                                           std::size_t length,
                                           std::uint64_t maxExpandedBytes = UINT64_MAX,
                                           const std::atomic_bool* stop = nullptr);

// The output of an execution a person wants to see first: its first non-finite one by the
// index's health, else output 0. Always 0 for a trace.
std::uint32_t firstNonFiniteSlot(const Snapshot& snapshot, EventRef event);

} // namespace nanscope::core
