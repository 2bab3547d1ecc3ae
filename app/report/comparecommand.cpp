// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparecommand.hpp"

#include "jsoncompare.hpp"
#include "nanscope/core/runcompare.hpp"

#include <iostream>

namespace nanscope {
namespace {

void printJson(const nlohmann::ordered_json& j)
{
    // Pure ASCII (\u escapes); invalid UTF-8 from a logdir becomes U+FFFD, as in the report.
    std::cout << j.dump(2, ' ', true, nlohmann::json::error_handler_t::replace) << "\n";
}

} // namespace

int runCompare(const CompareCommand& command, const core::ReaderOptions& readerOptions)
{
    core::LogdirReader readerA(command.logdirA, readerOptions);
    core::LogdirReader readerB(command.logdirB, readerOptions);
    const auto snapshotA = readerA.update();
    const auto snapshotB = readerB.update();
    const auto result = core::compareRuns(*snapshotA, *snapshotB, {.threshold = command.threshold});
    if (!result) {
        if (command.json)
            printJson(compareErrorJson(command.logdirA, command.logdirB, result.error));
        else
            std::cerr << "nanscope-report: " << result.error << "\n";
        return kCompareUnreadable;
    }
    if (command.json)
        printJson(toJson(*result));
    else
        std::cout << core::renderCompareText(*result);
    std::cout.flush();

    for (core::LogdirReader* reader : {&readerA, &readerB}) {
        std::string cacheError;
        if (!reader->saveIndex(&cacheError)) // an optimisation only: the exit status stays
            std::cerr << "nanscope-report: the index was not saved: " << cacheError << "\n";
    }
    // Records lost in either run may hide the divergence or make one up: as for one logdir, a
    // CI script must tell that from a clean answer.
    const bool incomplete = !result->errorsA.empty() || !result->errorsB.empty();
    if (incomplete && !command.allowPartial)
        return kCompareIncomplete;
    return result->first.kind == core::DivergenceKind::None ? kNoDivergence : kDiverged;
}

} // namespace nanscope
