// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis behind Snapshot::origin() and Snapshot::propagation() (see origin.hpp).
#pragma once

#include "indexstate.hpp"
#include "intentwalk.hpp"
#include "intentwalkstate.hpp"
#include "knownpropagation.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace nanscope::core {

// An analysis of the first events of an index (Snapshot::Data::prior), its walk read: the walk
// where it stopped goes on from there over the events appended since.
struct PriorAnalysis
{
    const std::optional<Origin>* origin = nullptr;
    std::shared_ptr<const KnownPropagation> propagation;
    intentwalk::WalkState* walk = nullptr; // taken up (moved from) by the analysis
};

struct NonFiniteAnalysis
{
    std::optional<Origin> origin;
    Propagation propagation; // empty when `extended` holds it
    // Gone on from a prior analysis: its propagation with the appended events'.
    std::shared_ptr<const KnownPropagation> extended;
    // Where the walk stopped, when asked for and it could be kept.
    std::shared_ptr<const intentwalk::WalkState> walk;

    const Propagation& result() const { return extended ? extended->get() : propagation; }
};

struct AnalysisOptions
{
    // The intent walk's log (intentwalk.hpp); 0 makes it walk every event twice.
    std::size_t logBudgetBytes = IntentWalk::kDefaultLogBudgetBytes;
    // Goes on from it when it fits the snapshot and the appended events leave its verdicts as
    // they were; otherwise the analysis starts from the beginning.
    const PriorAnalysis* prior = nullptr;
    bool keepWalk = false; // NonFiniteAnalysis::walk
};

NonFiniteAnalysis analyseNonFinite(const Snapshot& snapshot,
                                   const std::vector<ExpectedPattern>& patterns,
                                   const AnalysisOptions& options);
inline NonFiniteAnalysis
analyseNonFinite(const Snapshot& snapshot, const std::vector<ExpectedPattern>& patterns,
                 std::size_t logBudgetBytes = IntentWalk::kDefaultLogBudgetBytes)
{
    return analyseNonFinite(snapshot, patterns, AnalysisOptions{.logBudgetBytes = logBudgetBytes});
}

} // namespace nanscope::core
