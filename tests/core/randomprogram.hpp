// SPDX-License-Identifier: GPL-3.0-or-later
// Random programs for the origin analysis's tests: a graph of random ops and random events that
// mix its traces with eager ops, masks, constants, uninitialised memory, loss scaling, function
// calls, and ids written again; each non-finite value some -inf, +inf or NaN.
#pragma once

#include "logdirbuilder.hpp"
#include "nanscope/core/intent.hpp"

#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace nanscope::test {

class RandomProgram
{
public:
    // Writes the run's files and graph into `dir`.
    RandomProgram(unsigned seed, const std::filesystem::path& dir);

    // Appends `count` events, later than every event so far.
    void addEvents(int count);
    // A random number of events (20 to 219).
    void addEvents() { addEvents(20 + pick(200)); }

private:
    int pick(std::size_t n);
    tfdbg::TensorProto health(double id);

    std::mt19937 m_random;
    FileSetWriter m_set;
    int m_ops = 0;
    int m_events = 0;
    std::vector<std::int64_t> m_ids;
};

// The user's patterns a random program's analysis is run with: for one seed in three, two that
// its ops can match.
inline std::vector<core::ExpectedPattern> randomPatterns(unsigned seed)
{
    std::vector<core::ExpectedPattern> patterns;
    if (seed % 3 == 0)
        for (const char* text : {"aten::log:-inf", "Exp:inf"})
            patterns.push_back(*core::ExpectedPattern::parse(text, nullptr));
    return patterns;
}

} // namespace nanscope::test
