// SPDX-License-Identifier: GPL-3.0-or-later
// The facts of the headless report (nanscope-report): everything a reader of a logdir wants to
// know first, gathered from a snapshot. Rendering as text is here; JSON is the app's business.
#pragma once

#include "nanscope/core/diagnostic.hpp"
#include "nanscope/core/digests.hpp"
#include "nanscope/core/intent.hpp"
#include "nanscope/core/origin.hpp"
#include "nanscope/core/snapshot.hpp"
#include "nanscope/core/stackfolding.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nanscope::core {

struct ReportOptions
{
    std::vector<std::string> frameworkPatterns = StackFolding::defaultPatterns();
    int contextLines = 3; // source lines shown before and after the user's line
};

struct ReportHost
{
    std::string name;
    std::string prefix; // file name prefix, without directory
    double wallTime = 0;
    // Its executions: the first host's are counts.executions (TensorFlow reads no other host's).
    std::uint64_t executions = 0;
    // Of those, the ones with a NaN or ±inf output: a secondary host's (another rank's) are not
    // read for alerts and origin, so that this count is where its non-finite values show.
    std::uint64_t nonFiniteExecutions = 0;
};

struct ReportCounts
{
    std::uint64_t executions = 0;
    std::uint64_t graphExecutionTraces = 0;
    std::uint64_t graphs = 0;
    std::uint64_t graphOps = 0;
    std::uint64_t stackFrames = 0;
    std::uint64_t sourceFiles = 0;
};

// One alert with the names a reader needs.
struct ReportAlert
{
    Alert alert;
    std::string opType;
    std::string opName;  // empty for an execution
    std::string graphId; // trace's graph, or the function an execution called
    std::string graphName;
};

struct ReportOrigin
{
    Origin origin;
    FoldedStack stack;
    FoldedStack forwardStack;            // a backward op's forward op's stack (PyTorch), else empty
    std::optional<SourceExcerpt> source; // around the focus frame (the user's, if any)
    std::uint64_t producers = 0;         // in the whole logdir (see Propagation)
    std::uint64_t entries = 0;
    std::uint64_t propagators = 0;
};

// One group of values set aside as intended (intent.hpp), with where its first event ran: the
// renderers print what is here and read nothing.
struct ReportSetAside
{
    SetAside group;
    std::string location; // "model.py:36": the focus frame of the first event's stack, or ""
};

// The origin of a host other than the main one (hostorigins.hpp), read as if it were the main.
struct ReportHostOrigin
{
    std::string host;
    std::uint64_t countedAlerts = 0; // of that host's executions
    ReportOrigin origin;
};

struct Report
{
    std::string logdir;
    bool readable = false;
    std::string runId;
    std::vector<ReportHost> hosts;
    std::string tensorflowVersion;
    std::string fileVersion;
    std::vector<std::string> tensorDebugModes; // "FULL_HEALTH" …
    ReportCounts counts;
    std::uint64_t alertTotal = 0;            // no cap
    std::uint64_t tensorBoardAlertTotal = 0; // with TensorBoard's cap and its stops
    // Of alertTotal, NaNscope's alone: FULL_TENSOR values TensorBoard does not check (bfloat16,
    // float8, complex).
    std::uint64_t alertsTensorBoardSkips = 0;
    // alertTotal by what the alert's event is: a NaN/inf that counts, or values set aside.
    std::uint64_t countedAlerts = 0;
    std::uint64_t intendedAlerts = 0;
    std::uint64_t uninitialisedAlerts = 0;
    // What TensorBoard reads where a file has a corrupt record (it stops there; see stops).
    std::uint64_t tensorBoardExecutions = 0;
    std::uint64_t tensorBoardTraces = 0;
    std::vector<TensorBoardStop> tensorBoardStops;
    std::optional<ReportAlert> firstAlert; // TensorBoard's first alert
    std::optional<ReportOrigin> origin;    // the first non-finite value that is not intended
    // Other hosts' origins, earliest first (filled by addHostOrigins; empty from buildReport).
    std::vector<ReportHostOrigin> hostOrigins;
    bool hostOriginsRead = false; // whether addHostOrigins ran
    std::vector<ReportSetAside> setAside;
    std::vector<ExpectedPattern> expectedPatterns; // the user's, as applied (--expect, side file)
    std::vector<Diagnostic> diagnostics;
};

Report buildReport(const Snapshot& snapshot, const ReportOptions& options = {});

// A readable plain-text rendering (ends with a newline).
std::string renderText(const Report& report);

} // namespace nanscope::core
