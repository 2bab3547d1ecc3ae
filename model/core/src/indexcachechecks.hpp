// SPDX-License-Identifier: GPL-3.0-or-later
// The checks a saved index's arrays pass before a reader uses them where they lie: each block's
// checksum, the ids its entries hold against what they index, and the events the alerts name.
// They read every checked byte of the copy once, spread over the reader's pool.
#pragma once

#include "nanscope/core/digests.hpp"
#include "privatecopy.hpp"
#include "threadpool.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace nanscope::core::indexfile {

// A block of an array: its checksum, and the entries it indexes.
struct ArrayBlock
{
    const std::byte* data = nullptr;
    std::size_t bytes = 0;
    std::uint32_t checksum = 0;
    std::uint32_t elementBytes = 0;
    std::uint64_t bound = 0; // every entry below it; 0: no bound
};

// Alerts of one array, checked together.
struct AlertRun
{
    const Alert* alerts = nullptr;
    std::size_t count = 0;
    EventSource source = EventSource::Graph;
    std::uint64_t events = 0; // every alert's event below it
};

// How the bytes checked lie.
struct CheckedBytes
{
    bool verifyChecksums = true;
    // The copy they lie in, when it maps files: they are read through them piece by piece into
    // a buffer of the thread's (PrivateCopy::read), never where they are mapped, so that a
    // reopened index of 10^8 traces neither counts gigabytes of resident memory nor faults in
    // every page it checks. Null: read where they lie.
    const PrivateCopy* readThrough = nullptr;
};

bool checkArrayBlock(const ArrayBlock& block, CheckedBytes how);
bool checkAlertRun(const AlertRun& run, CheckedBytes how);

// Whether `check(k)` holds for every k below `count`, asked on the pool's threads and the calling
// one; the first failure stops the others.
template <typename Check>
bool allOnPool(ThreadPool& pool, std::size_t count, const Check& check)
{
    std::atomic<std::size_t> next{0};
    std::atomic<bool> bad{false};
    const auto work = [&] {
        for (std::size_t k;
             !bad.load(std::memory_order_relaxed) && (k = next.fetch_add(1)) < count;)
            if (!check(k))
                bad = true;
    };
    if (count > 1)
        for (unsigned t = 0; t < pool.size(); ++t)
            pool.submit(work);
    work();
    pool.wait();
    return !bad;
}

} // namespace nanscope::core::indexfile
