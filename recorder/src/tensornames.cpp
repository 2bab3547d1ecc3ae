// SPDX-License-Identifier: Apache-2.0
#include "tensornames.hpp"

#include <charconv>

namespace nanscope::detail {

Status checkOpName(std::string_view name)
{
    if (name.empty())
        return {ErrorCode::InvalidArgument, "an op needs a name"};
    if (name.find(':') != std::string_view::npos)
        return {ErrorCode::InvalidArgument,
                "op name \"" + std::string(name) +
                    "\" holds a ':', which TensorFlow's reader would take for a slot"};
    return {};
}

Result<TensorName> parseInputName(std::string_view input)
{
    const auto invalid = [&](std::string_view why) {
        return Status{ErrorCode::InvalidArgument,
                      "input \"" + std::string(input) + "\" " + std::string(why)};
    };
    if (input.empty())
        return Status{ErrorCode::InvalidArgument, "an input name is empty"};
    if (input.front() == '^')
        return invalid("is a control input; only data inputs (\"op:slot\") are recorded");
    const auto colon = input.find(':');
    TensorName name;
    name.op = std::string(input.substr(0, colon));
    if (name.op.empty())
        return invalid("names no op");
    if (colon == std::string_view::npos)
        return name;
    const std::string_view slot = input.substr(colon + 1);
    const char* end = slot.data() + slot.size();
    auto [stop, error] = std::from_chars(slot.data(), end, name.slot);
    const bool digitsOnly = !slot.empty() && slot.front() != '-' && slot.front() != '+';
    if (!digitsOnly || error != std::errc() || stop != end)
        return invalid("needs a non-negative decimal output slot after its one ':'");
    return name;
}

} // namespace nanscope::detail
