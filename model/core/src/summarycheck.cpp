// SPDX-License-Identifier: GPL-3.0-or-later
// Whether a summary vector can be what TensorFlow writes (format §6.2): the right length for its
// mode, counts that are counts (finite, non-negative, integral, exact), and counts that add up to
// the element count. A file may hold anything there; what fails is shown as an invalid summary
// with the reason, never as "-5 elements" or "3 elements: 1000 -inf".
#include "healthrules.hpp"

#include <array>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace nanscope::core {
namespace {

// TensorFlow's summary lengths (DebugNumericSummaryV2): CURT_HEALTH [id, any non-finite],
// CONCISE_HEALTH [id, size, -inf, +inf, nan], FULL_HEALTH [id, device, dtype, rank, size, -inf,
// +inf, nan, -finite, zero, +finite], SHAPE [id, dtype, rank, size, six dimensions].
std::size_t expectedLength(DebugMode mode)
{
    switch (mode) {
    case DebugMode::CurtHealth:
        return 2;
    case DebugMode::ConciseHealth:
        return 5;
    case DebugMode::FullHealth:
        return 11;
    case DebugMode::Shape:
        return 10;
    default:
        return 0;
    }
}

struct Named
{
    double value;
    const char* name;
};

// The first of `counts` that is not a count, described; empty when all are. The loop allocates
// nothing while every value is a count: it runs for every trace of a logdir.
std::string notACount(std::span<const Named> counts)
{
    for (const auto& c : counts)
        if (!exactCount(c.value)) [[unlikely]]
            return std::string("the ") + c.name + " " + formatCount(c.value) + " is not a count" +
                   (c.value < 0 ? " (negative)" : "");
    return {};
}

std::uint64_t sum(std::span<const Named> counts)
{
    std::uint64_t total = 0;
    for (const auto& c : counts)
        total += *exactCount(c.value); // each below 2^53: no overflow for a few of them
    return total;
}

#ifdef __SSE2__
// Whether values 2 to 10 of the 88 bytes are all whole numbers in [0, 2^50) whose last six add up
// to value 4: every real tensor's summary. A count x there is whole when (x + 2^52) - 2^52 gives x
// back (a double's unit at 2^52 is 1), and six of them add up exactly as doubles. Two values per
// instruction, no branches; NaN and infinities fail a comparison. Loads straight from the record's
// bytes: values copied there just before would stall each load on its two stores.
bool smallCountsAddUp(const char* bytes)
{
    const auto at = [bytes](std::size_t i) {
        return _mm_loadu_pd(reinterpret_cast<const double*>(bytes + 8 * i));
    };
    const __m128d zero = _mm_setzero_pd();
    const __m128d small = _mm_set1_pd(1125899906842624.0);   // 2^50
    const __m128d unitOne = _mm_set1_pd(4503599627370496.0); // 2^52
    const auto counts = [&](std::size_t i) {
        const __m128d x = at(i);
        const __m128d whole = _mm_sub_pd(_mm_add_pd(x, unitOne), unitOne);
        return _mm_and_pd(_mm_and_pd(_mm_cmpge_pd(x, zero), _mm_cmplt_pd(x, small)),
                          _mm_cmpeq_pd(whole, x));
    };
    // Values 2-3, 4-5, 6-7, 8-9 and 9-10.
    const __m128d ok = _mm_and_pd(
        _mm_and_pd(_mm_and_pd(counts(2), counts(4)), _mm_and_pd(counts(6), counts(8))), counts(9));
    if (_mm_movemask_pd(ok) != 3)
        return false;
    // The six counts in two lanes, then the lanes: exact in any order for such counts.
    const __m128d pairs = _mm_add_pd(_mm_add_pd(at(5), at(7)), at(9));
    const double sum = _mm_cvtsd_f64(_mm_add_sd(pairs, _mm_unpackhi_pd(pairs, pairs)));
    double size; // value 4, which need not be aligned
    std::memcpy(&size, bytes + 32, sizeof size);
    return sum == size;
}
#endif

} // namespace

bool fullHealthContentIsValid(std::string_view content)
{
    if (content.size() != 88)
        return false;
#ifdef __SSE2__
    if (smallCountsAddUp(content.data()))
        return true;
#endif
    std::array<double, 11> v;
    std::memcpy(v.data(), content.data(), content.size()); // little-endian hosts, as everywhere
    return fullHealthIsValid(v);
}

// The fast path of FULL_HEALTH's rules below: dtype, rank and the six counts are counts, and the
// six add up to the element count. Without branches on the values: it runs for every trace.
bool fullHealthIsValid(std::span<const double> v)
{
#ifdef __SSE2__
    if (smallCountsAddUp(reinterpret_cast<const char*>(v.data())))
        return true;
#endif
    constexpr double kExactLimit = 9007199254740992.0; // as exactCount
    bool valid = true;
    std::uint64_t classes = 0;
    std::uint64_t size = 0;
    for (std::size_t i = 2; i < 11; ++i) {
        const double x = v[i];
        const bool inRange = x >= 0 && x < kExactLimit;
        const std::int64_t k = inRange ? static_cast<std::int64_t>(x) : 0;
        valid &= inRange && static_cast<double>(k) == x;
        const auto count = static_cast<std::uint64_t>(k);
        if (i == 4)
            size = count;
        else if (i >= 5)
            classes += count; // nine values below 2^53 each: no overflow
    }
    return valid && classes == size;
}

std::string countsProblem(double size, double negativeInfinity, double positiveInfinity, double nan)
{
    const std::array<Named, 4> counts = {Named{size, "element count"},
                                         {negativeInfinity, "-inf count"},
                                         {positiveInfinity, "+inf count"},
                                         {nan, "NaN count"}};
    if (auto problem = notACount(counts); !problem.empty())
        return problem;
    const std::uint64_t nonFinite = sum(std::span(counts).subspan(1));
    if (nonFinite > *exactCount(size))
        return "its -inf, +inf and NaN counts add up to " + std::to_string(nonFinite) +
               ", more than its " + formatCount(size) + " elements";
    return {};
}

std::string invalidSummaryReason(const Alert& alert)
{
    if (!alert.invalidSummary)
        return {};
    const std::string why =
        countsProblem(alert.size, alert.negativeInfinity, alert.positiveInfinity, alert.nan);
    return why.empty() ? "its other counts are inconsistent (see the diagnostics)" : why;
}

std::string summaryProblem(DebugMode mode, std::span<const double> v, std::uint64_t length)
{
    const std::size_t expected = expectedLength(mode);
    if (expected == 0)
        return {};
    if (length != expected)
        return std::to_string(length) + (length == 1 ? " value" : " values") + " where " +
               std::string(toString(mode)) + " has " + std::to_string(expected);
    if (v.size() < expected)
        return {}; // not all values at hand (the caller read a prefix): nothing more to judge
    switch (mode) {
    case DebugMode::CurtHealth:
        if (v[1] != 0 && v[1] != 1)
            return "its non-finite flag is " + formatCount(v[1]) + ", not 0 or 1";
        return {};
    case DebugMode::ConciseHealth:
        return countsProblem(v[1], v[2], v[3], v[4]);
    case DebugMode::FullHealth: {
        if (fullHealthIsValid(v))
            return {}; // the common case, without building the names of the counts
        const std::array<Named, 8> counts = {Named{v[3], "rank"},  {v[4], "element count"},
                                             {v[5], "-inf count"}, {v[6], "+inf count"},
                                             {v[7], "NaN count"},  {v[8], "negative count"},
                                             {v[9], "zero count"}, {v[10], "positive count"}};
        if (auto problem = notACount(counts); !problem.empty())
            return problem;
        if (!exactCount(v[2]))
            return "its dtype " + formatCount(v[2]) + " is not a TensorFlow DataType";
        const std::uint64_t classes = sum(std::span(counts).subspan(2));
        if (classes != *exactCount(v[4]))
            return "its six counts add up to " + std::to_string(classes) + ", not to its " +
                   formatCount(v[4]) + " elements";
        return {};
    }
    case DebugMode::Shape: {
        const std::array<Named, 8> counts = {Named{v[2], "rank"},   {v[3], "element count"},
                                             {v[4], "dimension 1"}, {v[5], "dimension 2"},
                                             {v[6], "dimension 3"}, {v[7], "dimension 4"},
                                             {v[8], "dimension 5"}, {v[9], "dimension 6"}};
        if (auto problem = notACount(counts); !problem.empty())
            return problem;
        if (!exactCount(v[1]))
            return "its dtype " + formatCount(v[1]) + " is not a TensorFlow DataType";
        return {};
    }
    default:
        return {};
    }
}

} // namespace nanscope::core
