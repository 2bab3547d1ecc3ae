// SPDX-License-Identifier: Apache-2.0
#include "nanscope/tensorview.hpp"

namespace nanscope {

std::optional<std::int64_t> elementCount(std::span<const std::int64_t> shape)
{
    std::int64_t count = 1;
    for (const std::int64_t d : shape) {
        if (d < 0)
            return std::nullopt;
        if (d != 0 && count > INT64_MAX / d)
            return std::nullopt;
        count *= d;
    }
    return count;
}

} // namespace nanscope
