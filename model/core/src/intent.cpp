// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/intent.hpp"

namespace nanscope::core {

std::string_view toString(Intent intent)
{
    switch (intent) {
    case Intent::None:
        return "none";
    case Intent::Constant:
        return "constant";
    case Intent::Absorbed:
        return "absorbed";
    case Intent::Expected:
        return "expected";
    case Intent::Uninitialised:
        return "uninitialised";
    case Intent::LossScaled:
        return "loss-scaled";
    }
    return "none";
}

} // namespace nanscope::core
