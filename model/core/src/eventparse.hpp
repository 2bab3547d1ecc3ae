// SPDX-License-Identifier: GPL-3.0-or-later
// libprotobuf parsing of one DebugEvent, quietly: bad input is reported as a diagnostic, so
// libprotobuf's own log lines (invalid UTF-8 …) would only be noise on the user's terminal.
#pragma once

#include "decodedsize.hpp"
#include "nanscope/tfdbg/debug_event.pb.h"

#include <google/protobuf/stubs/logging.h>
#include <string_view>

namespace nanscope::core {

inline bool parseEvent(tfdbg::DebugEvent& event, std::string_view payload)
{
    if (!wellFormedEvent(payload)) // before libprotobuf reserves what a bad length claims
        return false;
    google::protobuf::LogSilencer quiet;
    return event.ParseFromArray(payload.data(), static_cast<int>(payload.size()));
}

} // namespace nanscope::core
