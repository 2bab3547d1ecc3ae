// SPDX-License-Identifier: GPL-3.0-or-later
// What a row of a table of tensors answers about its health, whichever model it is in: the
// shared roles from the row's digest, and the six counts a health bar paints once its record is
// read. Each model numbers its six count roles in a row from its own first one.
#pragma once

#include "nanscope/core/health.hpp"

#include <QVariant>
#include <array>
#include <optional>

namespace nanscope::items {

// −∞, +∞, NaN, negative, zero, positive: a value each (double), invalid where the record does
// not count it.
using HealthCounts = std::array<QVariant, 6>;

// A record's counts: the non-finite ones from a record that counts them, the finite ones only
// from full health; none from an invalid summary (its health text says why).
HealthCounts healthCounts(const core::TensorHealth& health);

// HealthBitsRole, NonFiniteRole and the tint of a non-finite row (Qt::BackgroundRole), from the
// row's digest; nullopt for any other role.
std::optional<QVariant> digestRoleData(core::HealthDigest digest, int role);

// Whether `role` is one of the six count roles numbered from `firstCountRole` (the model's
// NegInfCountRole).
bool isHealthCountRole(int role, int firstCountRole);

// The count `role` asks for; invalid while the record is unread (`counts` null).
QVariant healthCountData(const HealthCounts* counts, int role, int firstCountRole);

} // namespace nanscope::items
