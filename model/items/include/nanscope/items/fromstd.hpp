// SPDX-License-Identifier: GPL-3.0-or-later
// Text from the core (UTF-8 in std::string and std::string_view) as a QString.
#pragma once

#include <QString>
#include <string_view>

namespace nanscope::items {

inline QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace nanscope::items
