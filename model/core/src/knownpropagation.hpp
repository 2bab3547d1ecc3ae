// SPDX-License-Identifier: GPL-3.0-or-later
// The propagation a saved index brought along (IndexState::knownAnalysis). Its counts and what was
// set aside are read with the index; its hop counts by event are checked then but decoded only
// when first asked for. They take 2 bytes an event (20 MB at 10^7 traces) to size and fill: a
// fifth of a reopen that shows the counts, the alerts and the origin and never looks at them.
// After an append, an analysis that goes on from the saved one (originanalysis.hpp) extends it:
// the saved hop counts, still encoded, followed by those of the appended events. An analysis's
// own propagation is one too (whole from the start), so that the next snapshot's analysis, which
// goes on from it, extends it the same way. Along the snapshots of a followed logdir the hop
// counts are shared, not copied: a propagation that is whole (made so, or decoded) lends its
// array to the next, and one decoded lets go of the parts it was decoded from, so that what a
// long follow keeps is about the hop counts of the snapshots still in use.
#pragma once

#include "nanscope/core/origin.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace nanscope::core {

// Hop counts by event as a saved index holds them (indexcacheformat.hpp: putKnownPropagation).
struct EncodedHops
{
    std::uint64_t events = 0;
    std::size_t others = 0;             // entries that are not Propagation::kFinite
    std::span<const std::byte> entries; // each: its distance from the one before, its value
};

class KnownPropagation
{
public:
    // `withoutHops`: all but the hop arrays, which `traces` and `executions` hold (checked as
    // getKnownPropagation checks them), in bytes that `owner` keeps.
    KnownPropagation(Propagation withoutHops, EncodedHops traces, EncodedHops executions,
                     std::shared_ptr<const void> owner);
    // An analysis's propagation, hop counts and all.
    explicit KnownPropagation(Propagation whole);
    // `before` gone on over the events after its own: `counted` holds the counts of all and
    // the hop counts of those events alone (a resumed analysis's, origin.cpp).
    KnownPropagation(std::shared_ptr<const KnownPropagation> before, const Propagation& counted);
    KnownPropagation(const KnownPropagation&) = delete;
    KnownPropagation& operator=(const KnownPropagation&) = delete;

    std::uint64_t traceEvents() const { return m_traceEvents; }
    std::uint64_t executionEvents() const { return m_executionEvents; }
    const std::vector<SetAside>& setAside() const { return m_propagation.setAside; }
    // Everything but the hop counts.
    Propagation counts() const;

    // The propagation, its hop counts decoded at the first call (from any thread).
    const Propagation& get() const;

private:
    using Hops = std::vector<std::uint16_t>;
    // The hop counts of one source's events: those encoded, then the tails in order.
    struct Parts
    {
        EncodedHops encoded;
        std::vector<std::shared_ptr<const Hops>> tails;
    };
    // `before`'s hop counts of one source (`hops` when whole, else `parts`), then `tail`.
    static Parts extended(const std::shared_ptr<const KnownPropagation>& before, const Hops& hops,
                          const Parts& parts, const Hops& tail);
    static Hops decoded(const Parts& parts, std::uint64_t events);

    mutable Propagation m_propagation; // its hop counts only once whole
    std::uint64_t m_traceEvents = 0;
    std::uint64_t m_executionEvents = 0;
    // Guards what follows, and m_propagation's hop counts until whole; from then on they never
    // change and are read without it.
    mutable std::mutex m_mutex;
    mutable std::atomic<bool> m_whole = false;
    mutable Parts m_traces; // let go of once decoded
    mutable Parts m_executions;
    mutable std::shared_ptr<const void> m_owner; // of the encoded bytes
};

} // namespace nanscope::core
