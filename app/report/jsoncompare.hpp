// SPDX-License-Identifier: GPL-3.0-or-later
// A comparison of two runs (nanscope-report --compare) as one JSON object (keys documented in
// README.md next to this file).
#pragma once

#include "nanscope/core/runcompare.hpp"

#include <nlohmann/json.hpp>

namespace nanscope {

nlohmann::ordered_json toJson(const core::RunComparison& comparison);

// What --compare --json prints when a run cannot be read: the logdirs and the reason.
nlohmann::ordered_json compareErrorJson(const std::string& logdirA, const std::string& logdirB,
                                        const std::string& error);

} // namespace nanscope
