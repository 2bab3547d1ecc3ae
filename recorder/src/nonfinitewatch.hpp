// SPDX-License-Identifier: Apache-2.0
// RecorderOptions::stopAtFirstNonFinite: NaNscope's analysis of intended values (model/core's
// intent.hpp) decided online, one event at a time in the order the events are written, with only
// what has been seen so far. A value is followed by its key: an eager tensor's id, or a graph
// tensor's (graph, op, slot). Non-finite values are remembered as intended (a constant writer's,
// an expected pattern's, and what carries them on) or as suspects (infinities an op computed:
// a mask built by log(0) until an op turns them into NaN); the first NaN that neither explains
// stops the recording, and names the suspect it came from when it came from one. Loss scaling
// (nanscope/intendedvalues.hpp): from a multiplication by the scale to the scaler's check, what
// an op makes non-finite is a *scaled* suspect; the check catches it; anything but a writer that
// reads a caught value afterwards (an optimizer step the check did not skip), or item() reading
// a scaled one, stops the recording and names the op that made it; so do 32 checks in a row that
// caught something (a scaler that never recovers: a fault, not a passing overflow).
#pragma once

#include "nanscope/intendedvalues.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/status.hpp"
#include "nanscope/tensordebugmode.hpp"

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace nanscope::detail {

class InternedStacks;

// Kind bits beyond nanscope::nonfinite's: non-finite, of a kind the mode does not tell; and an
// output whose summary is not (yet) known, which the watch passes over.
inline constexpr std::uint8_t kUnknownKind = 1u << 3;
inline constexpr std::uint8_t kUnsummarised = 1u << 7;

// The non-finite kinds of a summary vector of `mode` (CURT_HEALTH tells only kUnknownKind).
std::uint8_t summaryKinds(TensorDebugMode mode, std::span<const double> summary);

// One execution or graph execution trace, as the watch needs it.
struct WatchedEvent
{
    std::string opType;
    std::string opName; // graph ops
    std::string modulePath;
    std::vector<std::int64_t> inputs;  // keys of the values it read
    std::vector<std::int64_t> outputs; // keys of the values it made, one per kind below
    // Each output's kinds, kUnsummarised until its summary is known (at once on the host, when
    // the device's counts are back otherwise): filled through pointers, so never resized once
    // built. Outputs the mode or the filters leave unsummarised stay kUnsummarised.
    std::vector<std::uint8_t> kinds;
    std::vector<CodeLocation> stack;
    std::optional<StackId> internedStack;
};

// The checked options of stopAtFirstNonFinite (InvalidArgument for a mode that reads no values,
// a negative lag or a malformed pattern) and the patterns that explain values: the options' and
// those of the dump root's nanscope_expected.txt (malformed lines there are passed over: the
// report names them).
Result<std::vector<ExpectedPattern>> stopPatterns(const RecorderOptions& options);

// The key of a graph tensor: its graph, op and slot, hashed into the keys eager ids never reach.
std::int64_t graphTensorKey(std::string_view graphId, std::string_view opName, int slot);

class NonFiniteWatch
{
public:
    NonFiniteWatch(std::vector<ExpectedPattern> expected, const InternedStacks& stacks,
                   std::filesystem::path logdir);

    // Looks at the next event written; true when it stopped the recording. Events after the
    // stop are only counted (NonFiniteStop::eventsLate).
    bool inspect(const WatchedEvent& event);

    bool stopped() const;
    std::optional<NonFiniteStop> stop() const;

private:
    struct Value
    {
        std::uint8_t kinds = 0;
        bool intended = false;
        std::uint32_t suspect = 0; // 1 + index into m_suspects, for a suspect's infinities
        bool scaled = false;       // made or carried while the loss was scaled
        bool caught = false;       // read by the loss scaler's check
    };
    // What an event read: kinds of intended and suspect values, and the first suspect of each
    // sort (1 + index into m_suspects; 0: none described).
    struct Reads
    {
        std::uint8_t intended = 0;
        std::uint8_t plain = 0;  // suspects made outside loss scaling
        std::uint8_t scaled = 0; // scaled suspects
        bool plainRead = false;
        bool scaledRead = false;
        std::uint32_t plainSuspect = 0;
        std::uint32_t scaledSuspect = 0;
        std::uint32_t caughtSuspect = 0; // a caught value's, when one was read
        bool caughtRead = false;
    };

    Reads reads(const WatchedEvent& event);
    void followScaling(const WatchedEvent& event);
    bool scalesLoss(const WatchedEvent& event) const;
    bool inspectOutputs(const WatchedEvent& event, const Reads& in);

    const Value* find(std::int64_t key) const;
    void remember(std::int64_t key, Value value);
    bool expected(const WatchedEvent& event, std::uint8_t kinds) const;
    NonFiniteOp describe(const WatchedEvent& event, std::uint8_t kinds) const;
    // `how` the op at which it stopped dealt with the value ("took out of the record"); by
    // default told from its op type.
    void stopAt(NonFiniteOp origin, std::optional<NonFiniteOp> stoppedAt, std::string how = {});
    std::optional<NonFiniteOp> suspectOp(std::uint32_t index) const;

    std::vector<ExpectedPattern> m_expected;
    const InternedStacks& m_stacks;
    std::filesystem::path m_logdir;

    mutable std::mutex m_mutex; // events come from record calls and the device poller
    std::unordered_map<std::int64_t, Value> m_values;
    std::deque<std::int64_t> m_order; // of m_values' keys, oldest first: forgotten past a bound
    std::vector<NonFiniteOp> m_suspects;
    std::optional<NonFiniteStop> m_stop;
    std::unordered_set<std::int64_t> m_scales; // keys the scaler's updates read first
    bool m_scaling = false;                    // the loss was scaled since the scaler's last check
    std::uint32_t m_skippedSteps = 0;          // checks in a row that caught something
    std::uint32_t m_firstSkipped = 0;          // the suspect the first of them caught
};

} // namespace nanscope::detail
