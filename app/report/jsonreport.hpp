// SPDX-License-Identifier: GPL-3.0-or-later
// The report as one JSON object (keys documented in README.md next to this file).
#pragma once

#include "nanscope/core/report.hpp"

#include <nlohmann/json.hpp>

namespace nanscope {

nlohmann::ordered_json toJson(const core::Report& report);

// A string from the logdir: null when empty, as every key of the report writes it.
nlohmann::ordered_json orNull(const std::string& s);

// Diagnostics as the report's "diagnostics" lists them: severity, file, offset, message.
nlohmann::ordered_json toJson(const std::vector<core::Diagnostic>& diagnostics);

} // namespace nanscope
