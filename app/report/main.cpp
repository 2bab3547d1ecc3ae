// SPDX-License-Identifier: GPL-3.0-or-later
// nanscope-report LOGDIR: what a tfdbg2 logdir holds and where its first NaN or infinity came
// from, as text or JSON. Exit status: 0 no alert that counts (none, or all set aside as intended),
// 1 alerts that count, 2 the logdir could not be read (or bad arguments), 3 reading was
// incomplete (an error diagnostic) unless --allow-partial.
// nanscope-report --compare A B: where run B first parts from run A (comparecommand.hpp), with
// the same statuses: 0 no divergence, 1 a divergence, 2 unreadable, 3 incomplete.
#include "comparecommand.hpp"
#include "jsonreport.hpp"
#include "nanscope/core/filesystem.hpp"
#include "nanscope/core/hostorigins.hpp"
#include "nanscope/core/intent.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/core/plaintext.hpp"
#include "nanscope/core/report.hpp"
#include "nanscope/version.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr int kNoAlert = 0;
constexpr int kAlerts = 1;
constexpr int kUnreadable = 2;
constexpr int kIncomplete = 3;

// A CI script must tell a clean run from one that was not read whole: error diagnostics mean
// records were lost or never read, so the alert count may be wrong either way.
int exitStatus(const nanscope::core::Report& report, bool allowPartial)
{
    if (!report.readable)
        return kUnreadable;
    const bool incomplete =
        std::any_of(report.diagnostics.begin(), report.diagnostics.end(),
                    [](const auto& d) { return d.severity == nanscope::core::Severity::Error; });
    if (incomplete && !allowPartial)
        return kIncomplete;
    // An attention mask's -inf is no bug: a run whose alerts were all set aside is clean; a NaN
    // on any host (rank) is one.
    return report.countedAlerts > 0 || !report.hostOrigins.empty() ? kAlerts : kNoAlert;
}

constexpr const char* kDescription =
    "Reports what a tfdbg2 logdir holds (written by TensorFlow or NaNscope's recorder) and where "
    "its first NaN or infinity came from.\n"
    "Exit status: 0 no alert that counts (none, or every non-finite value was set aside as "
    "intended: a mask's -inf, uninitialised memory, --expect) and everything read, 1 alerts that "
    "count, 2 the logdir could not be read (or bad arguments), 3 reading was incomplete (an error "
    "diagnostic: corrupt or unreadable files, the memory limit) unless --allow-partial.\n"
    "With --compare A B: where run B first parts from run A (the first aligned op that is finite "
    "in one run and NaN or ±inf in the other). Exit status: 0 no divergence, 1 a divergence, 2 a "
    "run could not be read (or bad arguments), 3 reading was incomplete unless --allow-partial.";

// What the command line says, with the defaults that --help shows.
struct Arguments
{
    std::string logdir;
    bool json = false;
    std::vector<std::string> compare; // A and B, or empty
    double compareThreshold = -1;
    CLI::Option* thresholdOption = nullptr; // its count tells whether --compare-threshold was given
    std::string runId;
    std::string host;
    std::vector<std::string> patterns;
    std::vector<std::string> expected;
    bool allowPartial = false;
    bool noDefaultPatterns = false;
    int context = 3;
    std::uint64_t maxMemoryMiB = nanscope::core::kDefaultMaxMemoryBytes >> 20;
    std::string indexCache = nanscope::core::defaultIndexCacheDirectory().string();
    bool noIndexCache = false;
    std::string spill = nanscope::core::defaultSpillDirectory().string();
};

// What to read (the logdir or the two runs of --compare, which run, which host first) and how
// to print it.
void addInputOptions(CLI::App& app, Arguments& a)
{
    app.add_option("LOGDIR", a.logdir, "the logdir, or any file in it (not with --compare)");
    app.add_flag("--json", a.json, "print one JSON object instead of text");
    app.add_option("--compare", a.compare,
                   "A B: compare two runs of one program and name where B first parts from A "
                   "(each a logdir, or any file in it)")
        ->expected(2)
        ->allow_extra_args(false);
    a.thresholdOption =
        app.add_option("--compare-threshold", a.compareThreshold,
                       "with --compare: also a divergence where an op's health differs by more "
                       "than this, from 0 to 1 (the largest difference in the fraction of -inf, "
                       "+inf, NaN, negative, zero or positive elements, or in the largest "
                       "magnitude of a small FULL_TENSOR value); default: finite against "
                       "non-finite only")
            ->check(CLI::Range(0.0, 1.0));
    app.add_option("--run-id", a.runId, "the run to read when the logdir holds several");
    app.add_option("--host", a.host,
                   "the host (a PyTorch rank's file set, e.g. node1-rank2) to read as the main "
                   "one, whose executions, alerts and origin are reported; default: the host "
                   "that started first. The other hosts with non-finite values are read as the "
                   "main one in turn, and their origins listed, earliest first");
}

// How the report judges what it read: whose code a frame is, which values are intended, what
// counts, and how much source it shows.
void addAnalysisOptions(CLI::App& app, Arguments& a)
{
    app.add_option("--framework-pattern", a.patterns,
                   "a path fragment that marks a stack frame as framework code, or the user's "
                   "own with a leading '!' (repeatable; after the defaults, and the last "
                   "fragment a path contains decides)")
        ->allow_extra_args(false);
    app.add_option("--expect", a.expected,
                   "OP[:KINDS]: non-finite values of this op are expected and set aside, not "
                   "counted (repeatable). OP matches an op's type or a graph op's name, with * "
                   "and ?; KINDS is a comma-separated list of -inf, +inf, inf, nan, any (default "
                   "any). Example: 'aten::masked_fill:-inf'. Added to the patterns of the "
                   "logdir's nanscope_expected.txt")
        ->allow_extra_args(false);
    app.add_flag("--allow-partial", a.allowPartial,
                 "exit 0 or 1 by the alerts found even when reading was incomplete (3 otherwise)");
    app.add_flag("--no-default-patterns", a.noDefaultPatterns,
                 "use only the --framework-pattern values");
    app.add_option("--context", a.context, "source lines shown around the user's line")
        ->check(CLI::Range(0, 100));
}

// Where the index lives: its memory limit, the saved indexes, the spilled arrays.
void addStorageOptions(CLI::App& app, Arguments& a)
{
    app.add_option("--max-memory", a.maxMemoryMiB,
                   "the most memory the index may take, in MiB; reading stops there with an error "
                   "diagnostic, and no record longer than a quarter of it, or taking more than a "
                   "quarter of it once decoded, is read")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 24))
        ->capture_default_str();
    app.add_option("--index-cache", a.indexCache,
                   "the directory of saved indexes: a logdir of 64 MiB or more is indexed once "
                   "and reopened from there while its files stay the same (data appended since "
                   "is read on top)")
        ->capture_default_str();
    app.add_flag("--no-index-cache", a.noIndexCache, "read the whole logdir, and save no index");
    app.add_option("--spill", a.spill,
                   "where an index of more than 256 MiB keeps its arrays, in an unnamed file "
                   "mapped into memory, so that they take page cache the system can reclaim "
                   "rather than resident memory; empty: in memory")
        ->capture_default_str();
}

// The exit status when the command line ends the run (--help, --version, a mistake); nothing
// when the report is to be made.
std::optional<int> parseArguments(CLI::App& app, int argc, char** argv)
{
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        std::cerr << app.help();
        return kUnreadable;
    }
    return std::nullopt;
}

// Exactly one of LOGDIR and --compare, and a threshold only for a comparison (rules CLI11 does
// not express); false after saying what is wrong.
bool argumentsFitTogether(const CLI::App& app, const Arguments& a)
{
    const bool misfit = a.compare.empty() == a.logdir.empty() ||
                        (a.compare.empty() && a.thresholdOption->count() > 0);
    if (!misfit)
        return true;
    std::cerr << "nanscope-report: "
              << (a.compare.empty() ? a.logdir.empty() ? "LOGDIR is required"
                                                       : "--compare-threshold needs --compare"
                                    : "LOGDIR and --compare exclude each other")
              << "\n"
              << app.help();
    return false;
}

// The reader's options from the command line; nothing, after saying why, when an --expect is no
// pattern.
std::optional<nanscope::core::ReaderOptions> readerOptionsFrom(const Arguments& a)
{
    nanscope::core::ReaderOptions options;
    for (const std::string& text : a.expected) {
        std::string error;
        auto pattern = nanscope::core::ExpectedPattern::parse(text, &error);
        if (!pattern) {
            std::cerr << "nanscope-report: --expect " << nanscope::core::quotedName(text)
                      << " is not a pattern: " << error << "\n";
            return std::nullopt;
        }
        options.expected.push_back(std::move(*pattern));
    }
    options.discovery.runId = a.runId;
    options.discovery.mainHost = a.host;
    options.maxMemoryBytes = a.maxMemoryMiB << 20;
    if (!a.noIndexCache)
        options.indexCache.directory = a.indexCache;
    options.spill.directory = a.spill;
    return options;
}

nanscope::core::ReportOptions reportOptionsFrom(const Arguments& a)
{
    nanscope::core::ReportOptions options;
    if (a.noDefaultPatterns)
        options.frameworkPatterns.clear();
    options.frameworkPatterns.insert(options.frameworkPatterns.end(), a.patterns.begin(),
                                     a.patterns.end());
    options.contextLines = a.context;
    return options;
}

// Reads the logdir, prints its report, and saves its index for the next run.
int reportLogdir(const Arguments& a, const nanscope::core::ReaderOptions& readerOptions)
{
    nanscope::core::LogdirReader reader(a.logdir, readerOptions);
    const auto snapshot = reader.update();
    const nanscope::core::ReportOptions options = reportOptionsFrom(a);
    auto report = nanscope::core::buildReport(*snapshot, options);
    nanscope::core::addHostOrigins(report, a.logdir, readerOptions, options);

    if (a.json) // pure ASCII (\u escapes), and invalid UTF-8 from the logdir becomes U+FFFD
        std::cout << nanscope::toJson(report).dump(2, ' ', true,
                                                   nlohmann::json::error_handler_t::replace)
                  << "\n";
    else
        std::cout << nanscope::core::renderText(report);
    std::cout.flush(); // the report first: saving the index of a large logdir takes a moment

    std::string cacheError;
    if (!reader.saveIndex(&cacheError)) // an optimisation only: the exit status stays
        std::cerr << "nanscope-report: the index was not saved: " << cacheError << "\n";
    return exitStatus(report, a.allowPartial);
}

int run(int argc, char** argv)
{
    CLI::App app{kDescription, "nanscope-report"};
    app.set_version_flag("--version", std::string("nanscope-report ") + NANSCOPE_VERSION);
    Arguments arguments;
    addInputOptions(app, arguments);
    addAnalysisOptions(app, arguments);
    addStorageOptions(app, arguments);
    if (const auto status = parseArguments(app, argc, argv))
        return *status;
    if (!argumentsFitTogether(app, arguments))
        return kUnreadable;
    const auto readerOptions = readerOptionsFrom(arguments);
    if (!readerOptions)
        return kUnreadable;
    if (arguments.compare.empty())
        return reportLogdir(arguments, *readerOptions);
    nanscope::CompareCommand command{arguments.compare[0], arguments.compare[1], std::nullopt,
                                     arguments.json, arguments.allowPartial};
    if (arguments.thresholdOption->count() > 0)
        command.threshold = arguments.compareThreshold;
    return nanscope::runCompare(command, *readerOptions);
}

} // namespace

int main(int argc, char** argv)
{
    // A logdir of hundreds of hosts needs more open files than the usual soft limit of 1024.
    nanscope::core::raiseOpenFileLimit();
    // The reader turns bad input into diagnostics; what may still throw (memory running out, a
    // failing output stream) ends the run with a message and exit 2 rather than std::terminate.
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "nanscope-report: " << e.what() << "\n";
    } catch (...) {
        std::cerr << "nanscope-report: unknown error\n";
    }
    return kUnreadable;
}
