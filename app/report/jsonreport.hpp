// SPDX-License-Identifier: GPL-3.0-or-later
// The report as one JSON object (keys documented in README.md next to this file).
#pragma once

#include "nanscope/core/report.hpp"

#include <nlohmann/json.hpp>

namespace nanscope {

nlohmann::ordered_json toJson(const core::Report& report);

} // namespace nanscope
