// SPDX-License-Identifier: GPL-3.0-or-later
// Makes a TensorData from a TensorProto's bytes: the one place that fills its private parts.
#pragma once

#include "nanscope/core/tensordata.hpp"

#include <atomic>
#include <cstdint>
#include <string>

namespace nanscope::core {

struct TensorDataBuilder
{
    // The TensorProto lies at [offset, offset + length) of `storage` (a record's payload, which
    // the result keeps when its elements are tensor_content).
    static ReadResult<TensorData> build(std::string storage, std::size_t offset, std::size_t length,
                                        std::uint64_t maxExpandedBytes,
                                        const std::atomic_bool* stop);
};

} // namespace nanscope::core
