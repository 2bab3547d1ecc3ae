// SPDX-License-Identifier: Apache-2.0
#include "nanscope/tensordebugmode.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace nanscope {
namespace {

constexpr std::array<std::pair<TensorDebugMode, std::string_view>, 6> kNames = {{
    {TensorDebugMode::NoTensor, "NO_TENSOR"},
    {TensorDebugMode::CurtHealth, "CURT_HEALTH"},
    {TensorDebugMode::ConciseHealth, "CONCISE_HEALTH"},
    {TensorDebugMode::FullHealth, "FULL_HEALTH"},
    {TensorDebugMode::Shape, "SHAPE"},
    {TensorDebugMode::FullTensor, "FULL_TENSOR"},
}};

} // namespace

std::string_view toString(TensorDebugMode mode)
{
    for (const auto& [m, name] : kNames)
        if (m == mode)
            return name;
    return "UNSPECIFIED";
}

std::optional<TensorDebugMode> parseTensorDebugMode(std::string_view text)
{
    std::string upper(text);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    for (const auto& [m, name] : kNames)
        if (name == upper)
            return m;
    return std::nullopt;
}

int summaryLength(TensorDebugMode mode)
{
    switch (mode) {
    case TensorDebugMode::CurtHealth:
        return 2;
    case TensorDebugMode::ConciseHealth:
        return 5;
    case TensorDebugMode::FullHealth:
        return 11;
    case TensorDebugMode::Shape:
        return 10;
    case TensorDebugMode::NoTensor:
    case TensorDebugMode::FullTensor:
        return 0;
    }
    return 0;
}

} // namespace nanscope
