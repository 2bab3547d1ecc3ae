// SPDX-License-Identifier: GPL-3.0-or-later
#include "healthrules.hpp"
#include "tensorproto.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace nanscope::core {

HealthDigest TensorHealth::digest() const
{
    HealthDigest d;
    if (detail == Detail::None)
        return d;
    d.bits |= health::Known;
    if (nonFinite)
        d.bits |= health::NonFinite;
    if (detail == Detail::Counts || detail == Detail::Full) {
        if (negativeInfinity > 0)
            d.bits |= health::NegInf;
        if (positiveInfinity > 0)
            d.bits |= health::PosInf;
        if (nan > 0)
            d.bits |= health::NaN;
    }
    if (detail == Detail::Full) {
        if (zero > 0)
            d.bits |= health::Zero;
        if (negativeFinite > 0)
            d.bits |= health::Negative;
    }
    return d;
}

std::string formatCount(double value)
{
    char buffer[32];
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15)
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
    else
        std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

std::string TensorHealth::describe() const
{
    if (!invalid.empty())
        return "invalid summary: " + invalid;
    switch (detail) {
    case Detail::None:
        return "unknown";
    case Detail::Flag:
        return nonFinite ? "has NaN or ±inf" : "finite";
    case Detail::Counts:
    case Detail::Full:
        break;
    }
    std::string text = formatCount(size) + (size == 1 ? " element" : " elements");
    struct Part
    {
        double count;
        const char* name;
    };
    const double finite = size - negativeInfinity - positiveInfinity - nan;
    const Part counts[] = {{negativeInfinity, "-inf"}, {positiveInfinity, "+inf"}, {nan, "NaN"}};
    const Part classes[] = {
        {negativeFinite, "negative"}, {zero, "zero"}, {positiveFinite, "positive"}};
    std::string parts;
    auto add = [&](double count, const char* name) {
        if (count <= 0)
            return;
        parts += parts.empty() ? ": " : ", ";
        parts += formatCount(count) + " " + name;
    };
    for (const auto& p : counts)
        add(p.count, p.name);
    if (detail == Detail::Full) {
        for (const auto& p : classes)
            add(p.count, p.name);
    } else if (nonFinite) {
        add(finite, "finite");
    }
    if (parts.empty())
        return size == 0 ? text : text + (detail == Detail::Counts ? ", all finite" : "");
    return text + parts;
}

namespace {

// A summary vector's dtype or rank slot as an int. A record may hold any double there (NaN,
// 1e300), and converting one that no int holds is undefined: such values are unknown.
int slotAsInt(double value, int unknown)
{
    constexpr double lowest = std::numeric_limits<int>::min();
    constexpr double highest = std::numeric_limits<int>::max();
    return value >= lowest && value <= highest ? static_cast<int>(value) : unknown; // NaN: false
}

} // namespace

namespace {

TensorHealth healthOfSummary(DebugMode mode, std::span<const double> v, bool& malformed)
{
    malformed = false;
    TensorHealth h;
    auto need = [&](std::size_t n) {
        malformed = v.size() < n;
        return !malformed;
    };
    switch (mode) {
    case DebugMode::CurtHealth:
        if (!need(2))
            return h;
        h.detail = TensorHealth::Detail::Flag;
        h.nonFinite = v[1] != 0;
        return h;
    case DebugMode::ConciseHealth:
        if (!need(5))
            return h;
        h.detail = TensorHealth::Detail::Counts;
        h.size = v[1];
        h.negativeInfinity = v[2];
        h.positiveInfinity = v[3];
        h.nan = v[4];
        h.nonFinite = v[2] != 0 || v[3] != 0 || v[4] != 0;
        return h;
    case DebugMode::FullHealth:
        if (!need(8))
            return h;
        h.detail = v.size() >= 11 ? TensorHealth::Detail::Full : TensorHealth::Detail::Counts;
        malformed = v.size() < 11;
        h.dtype = static_cast<DType>(slotAsInt(v[2], 0));
        h.rank = slotAsInt(v[3], -1);
        h.size = v[4];
        h.negativeInfinity = v[5];
        h.positiveInfinity = v[6];
        h.nan = v[7];
        if (v.size() >= 11) {
            h.negativeFinite = v[8];
            h.zero = v[9];
            h.positiveFinite = v[10];
        }
        h.nonFinite = v[5] != 0 || v[6] != 0 || v[7] != 0;
        return h;
    case DebugMode::Shape:
        if (!need(4))
            return h;
        h.dtype = static_cast<DType>(slotAsInt(v[1], 0));
        h.rank = slotAsInt(v[2], -1);
        h.size = v[3];
        return h;
    default:
        return h;
    }
}

} // namespace

TensorHealth healthFromSummary(DebugMode mode, std::span<const double> v, std::uint64_t length,
                               bool& malformed)
{
    TensorHealth h = healthOfSummary(mode, v, malformed);
    h.invalid = summaryProblem(mode, v, length);
    return h;
}

bool summaryAlert(DebugMode mode, std::span<const double> v, Alert& alert)
{
    switch (mode) {
    case DebugMode::CurtHealth:
        if (v.size() < 2 || v[1] == 0)
            return false;
        alert.counts = Alert::Counts::None;
        alert.size = alert.negativeInfinity = alert.positiveInfinity = alert.nan = 0;
        return true;
    case DebugMode::ConciseHealth:
        if (v.size() < 5 || (v[2] == 0 && v[3] == 0 && v[4] == 0))
            return false;
        alert.counts = Alert::Counts::Float;
        alert.size = v[1];
        alert.negativeInfinity = v[2];
        alert.positiveInfinity = v[3];
        alert.nan = v[4];
        return true;
    case DebugMode::FullHealth:
        if (v.size() < 8 || (v[5] == 0 && v[6] == 0 && v[7] == 0))
            return false;
        alert.counts = Alert::Counts::Float;
        alert.size = v[4];
        alert.negativeInfinity = v[5];
        alert.positiveInfinity = v[6];
        alert.nan = v[7];
        return true;
    default:
        return false;
    }
}

bool fullTensorAlert(const TensorHealth& health, Alert& alert)
{
    if (health.detail != TensorHealth::Detail::Full || !isAlertFloating(health.dtype))
        return false;
    return fullTensorNonFiniteAlert(health, alert);
}

bool fullTensorNonFiniteAlert(const TensorHealth& health, Alert& alert)
{
    if (!health.known() || !health.nonFinite)
        return false;
    alert.counts = Alert::Counts::Integer;
    alert.size = health.size;
    alert.negativeInfinity = health.negativeInfinity;
    alert.positiveInfinity = health.positiveInfinity;
    alert.nan = health.nan;
    return true;
}

} // namespace nanscope::core
