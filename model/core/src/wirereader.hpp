// SPDX-License-Identifier: GPL-3.0-or-later
// The protobuf wire-format reader of the format layer, under the name the reader's decoders use.
#pragma once

#include "nanscope/format/wirereader.hpp"

namespace nanscope::core {
namespace wire = format::wire;
} // namespace nanscope::core
