// SPDX-License-Identifier: Apache-2.0
// Seeded random numbers that are the same on every platform: std::mt19937 is specified
// bit for bit, unlike the standard distributions, so the demo draws its own.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace nanscope::demo {

class Random
{
public:
    explicit Random(std::uint64_t seed) : m_engine(static_cast<std::uint32_t>(seed)) {}

    // Uniform in [0, 1) with 32 random bits.
    double uniform() { return static_cast<double>(m_engine()) * 0x1p-32; }

    double uniform(double low, double high) { return low + (high - low) * uniform(); }

    // Uniform in [0, n); rejection keeps small ranges unbiased.
    std::uint32_t below(std::uint32_t n)
    {
        const std::uint32_t limit = static_cast<std::uint32_t>(-n) % n;
        for (;;) {
            const std::uint32_t r = m_engine();
            if (r >= limit)
                return r % n;
        }
    }

    // Standard normal (Box–Muller; the second value of each pair is dropped for simplicity).
    double normal()
    {
        const double u = 1.0 - uniform(); // in (0, 1], so the log is finite
        const double v = uniform();
        return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
    }

    // Normal, redrawn while more than two standard deviations from the mean
    // (tf.keras.initializers.TruncatedNormal).
    double truncatedNormal(double mean, double stddev)
    {
        for (;;) {
            const double z = normal();
            if (std::abs(z) <= 2.0)
                return mean + stddev * z;
        }
    }

private:
    std::mt19937 m_engine;
};

} // namespace nanscope::demo
