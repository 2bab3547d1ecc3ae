// SPDX-License-Identifier: Apache-2.0
#include "ids.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <unistd.h>

namespace nanscope::detail {
namespace {

std::uint64_t randomWord()
{
    // Seeded once from the OS; ids need to be unique, not secret.
    static std::mutex mutex;
    static std::mt19937_64 engine = [] {
        std::random_device device;
        std::seed_seq seed{device(), device(), device(), device()};
        return std::mt19937_64(seed);
    }();
    std::lock_guard lock(mutex);
    return engine();
}

} // namespace

std::string makeUuid4()
{
    std::array<unsigned char, 16> bytes{};
    const std::uint64_t hi = randomWord(), lo = randomWord();
    for (int i = 0; i < 8; ++i) {
        bytes[i] = static_cast<unsigned char>(hi >> (8 * i));
        bytes[8 + i] = static_cast<unsigned char>(lo >> (8 * i));
    }
    bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40); // version 4
    bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80); // RFC 4122 variant
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(36);
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out += '-';
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 15];
    }
    return out;
}

std::string makeRunId()
{
    return makeUuid4().substr(0, 8);
}

std::string localHostName()
{
    std::array<char, 256> name{};
    if (::gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0')
        return "localhost";
    return name.data();
}

double wallTimeSeconds()
{
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(now).count()) /
           1e6;
}

} // namespace nanscope::detail
