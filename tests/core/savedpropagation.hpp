// SPDX-License-Identifier: GPL-3.0-or-later
// A propagation as a saved index brings it back: written as the index writes it, read back.
#pragma once

#include "indexcacheformat.hpp"
#include "knownpropagation.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace nanscope::test {

inline std::shared_ptr<const core::KnownPropagation> savedPropagation(const core::Propagation& p)
{
    core::ArchiveWriter w;
    core::indexfile::putKnownPropagation(w, &p);
    const auto bytes = std::make_shared<const std::string>(w.bytes());
    core::ArchiveReader r(std::as_bytes(std::span(*bytes)));
    auto known = core::indexfile::getKnownPropagation(r, UINT32_MAX, bytes);
    REQUIRE(known);
    return known;
}

} // namespace nanscope::test
