// SPDX-License-Identifier: GPL-3.0-or-later
// Loading on the worker thread, progress, failure, reload, close and following a growing logdir;
// which snapshots are of the same logdir.
#include "itemsfixture.hpp"
#include "logdirbuilder.hpp"
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/graphexecutionmodel.hpp"
#include "nanscope/items/logdirsession.hpp"
#include "waituntil.hpp"

#include <QSignalSpy>
#include <QThread>
#include <catch2/catch.hpp>
#include <fstream>

using namespace nanscope;
using nanscope::items::LogdirSession;
using nanscope::test::waitUntil;

namespace {

bool finishedLoading(QSignalSpy& finished)
{
    return waitUntil([&] { return finished.count() > 0; });
}

} // namespace

TEST_CASE("a session loads a logdir on a worker thread and publishes its snapshot", "[session]")
{
    test::TutorialLogdir logdir(2);
    LogdirSession session;
    QSignalSpy started(&session, &LogdirSession::loadingStarted);
    QSignalSpy changed(&session, &LogdirSession::snapshotChanged);
    QSignalSpy progress(&session, &LogdirSession::progressChanged);
    QSignalSpy finished(&session, &LogdirSession::loadingFinished);
    QSignalSpy failed(&session, &LogdirSession::loadingFailed);

    session.open(QString::fromStdString(logdir.path().string()));
    CHECK(session.isLoading());
    CHECK(started.count() == 1);
    REQUIRE(finishedLoading(finished));
    CHECK_FALSE(finished.first().at(0).toBool()); // not cancelled
    CHECK_FALSE(session.isLoading());
    CHECK(failed.isEmpty());
    REQUIRE(changed.count() >= 1);
    REQUIRE(session.snapshot());
    CHECK(session.snapshot()->traceCount() == 10);
    CHECK(session.snapshot()->executionCount() == 2);
    // The last progress report says everything was read.
    REQUIRE_FALSE(progress.isEmpty());
    CHECK(progress.last().at(0).toLongLong() == progress.last().at(1).toLongLong());
    CHECK(progress.last().at(1).toLongLong() > 0);
}

TEST_CASE("a path that is no logdir fails with a reason, and nothing crashes", "[session]")
{
    LogdirSession session;
    QSignalSpy finished(&session, &LogdirSession::loadingFinished);
    QSignalSpy failed(&session, &LogdirSession::loadingFailed);
    session.open(QStringLiteral("/nonexistent/nanscope/logdir"));
    REQUIRE(finishedLoading(finished));
    REQUIRE(failed.count() == 1);
    const QString message = failed.first().at(0).toString();
    INFO(message.toStdString());
    CHECK_FALSE(message.isEmpty());
}

TEST_CASE("reload reads the logdir again; close forgets it", "[session]")
{
    test::TutorialLogdir logdir(1);
    LogdirSession session;
    QSignalSpy finished(&session, &LogdirSession::loadingFinished);
    QSignalSpy closed(&session, &LogdirSession::closed);
    session.open(QString::fromStdString(logdir.path().string()));
    REQUIRE(finishedLoading(finished));
    CHECK(session.snapshot()->traceCount() == 5);

    logdir.appendStep();
    finished.clear();
    session.reload();
    REQUIRE(finishedLoading(finished));
    CHECK(session.snapshot()->traceCount() == 10);

    session.close();
    CHECK(closed.count() == 1);
    CHECK_FALSE(session.snapshot());
    CHECK(session.path().isEmpty());
}

TEST_CASE("following a growing logdir picks up appended events and appends model rows",
          "[session][follow]")
{
    test::TutorialLogdir logdir(1);
    LogdirSession session;
    session.setPollInterval(50);
    items::GraphExecutionModel model;
    QObject::connect(&session, &LogdirSession::snapshotChanged, &model,
                     &items::GraphExecutionModel::setSnapshot);
    QSignalSpy finished(&session, &LogdirSession::loadingFinished);
    QSignalSpy following(&session, &LogdirSession::followingChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    session.open(QString::fromStdString(logdir.path().string()));
    REQUIRE(finishedLoading(finished));
    REQUIRE(model.rowCount() == 5);
    const int resetsAfterLoad = reset.count();

    session.setFollowing(true);
    CHECK(session.isFollowing());
    CHECK(following.count() == 1);
    logdir.appendStep();
    logdir.appendStep();
    REQUIRE(waitUntil([&] { return model.rowCount() == 15; }));
    CHECK(session.snapshot()->traceCount() == 15);
    CHECK(inserted.count() >= 1);
    CHECK(reset.count() == resetsAfterLoad); // rows were appended, the view kept its state

    session.setFollowing(false);
    logdir.appendStep();
    QTest::qWait(300);
    CHECK(model.rowCount() == 15);
}

TEST_CASE("cancel stops a long load and keeps what was read", "[session]")
{
    test::TutorialLogdir logdir(1);
    for (int i = 0; i < 2000; ++i)
        logdir.appendStep();
    LogdirSession session;
    // A record or two per update: thousands of updates, so that the cancel lands mid-way. It is
    // asked for as the first snapshot arrives, not after a poll of the event loop, which a fast
    // machine's load could outlast.
    session.setChunkBytes(512);
    QSignalSpy finished(&session, &LogdirSession::loadingFinished);
    QObject::connect(&session, &LogdirSession::snapshotChanged, &session,
                     [&session] { session.cancel(); });
    session.open(QString::fromStdString(logdir.path().string()));
    REQUIRE(finishedLoading(finished));
    CHECK(finished.first().at(0).toBool());
    REQUIRE(session.snapshot());
    CHECK(session.snapshot()->traceCount() < 2001 * 5);
}

TEST_CASE("snapshots are of the same logdir when directory and run match", "[session]")
{
    test::TempDir first;
    test::TempDir second;
    test::emptyRun(first.path());
    test::emptyRun(second.path());
    core::LogdirReader firstReader(first.path());
    core::LogdirReader secondReader(second.path());
    const items::SnapshotPtr a = firstReader.update();
    test::FileSetWriter(first.path())
        .append("execution", test::events::execution(2.0, "Exp", {1}, {2}, 3, {}));
    const items::SnapshotPtr newer = firstReader.update();
    const items::SnapshotPtr other = secondReader.update();
    REQUIRE(newer != a);
    CHECK(items::sameLogdir(a, a));
    CHECK(items::sameLogdir(a, newer));
    CHECK_FALSE(items::sameLogdir(a, other));
    CHECK_FALSE(items::sameLogdir(a, nullptr));
    CHECK_FALSE(items::sameLogdir(nullptr, a));
    CHECK_FALSE(items::sameLogdir(nullptr, nullptr));

    // The same directory written again by another run.
    test::FileSetWriter(first.path()).writeMetadata(1.0, "another run");
    core::LogdirReader againReader(first.path());
    const items::SnapshotPtr again = againReader.update();
    REQUIRE(again->layout().runId == "another run");
    CHECK_FALSE(items::sameLogdir(a, again));
}

TEST_CASE("text from the core is UTF-8, with its exact length", "[session]")
{
    CHECK(items::fromStd("∞ and é") == QStringLiteral("∞ and é"));
    CHECK(items::fromStd(std::string_view("abc", 2)) == QStringLiteral("ab"));
    CHECK(items::fromStd(std::string("a\0b", 3)).size() == 3);
    CHECK(items::fromStd({}).isEmpty());
}

// The app reads under the same memory limit as nanscope-report --max-memory.
TEST_CASE("a session reads under its memory limit", "[session]")
{
    test::TempDir dir;
    test::FileSetWriter set = test::runWithOneOp(dir.path());
    std::string bytes;
    for (int i = 0; i < 100'000; ++i)
        bytes += test::framed(
            test::events::trace(i, "g", "r", 0, 2, test::events::curtHealth(1, false)));
    set.appendBytes("graph_execution_traces", bytes);

    LogdirSession session;
    session.setMaxMemoryBytes(1u << 20);
    QSignalSpy finished(&session, &LogdirSession::loadingFinished);
    session.open(QString::fromStdString(dir.path().string()));
    REQUIRE(finishedLoading(finished));
    REQUIRE(session.snapshot());
    CHECK(session.snapshot()->traceCount() < 100'000);
    bool limited = false;
    for (const auto& d : session.snapshot()->diagnostics())
        limited |= d.message.find("memory limit of 1 MiB") != std::string::npos;
    CHECK(limited);
}

TEST_CASE("a session saves the index of a finished load and starts the next open from it",
          "[session]")
{
    test::TutorialLogdir logdir(1);
    test::TempDir cache;
    LogdirSession session;
    core::IndexCacheOptions options;
    options.directory = cache.path();
    options.minLogdirBytes = 0;
    session.setIndexCache(options);
    QSignalSpy finished(&session, &LogdirSession::loadingFinished);
    const auto saved = [&] {
        for (const auto& entry : std::filesystem::directory_iterator(cache.path()))
            if (entry.path().extension() == ".nsidx")
                return true;
        return false;
    };
    session.open(QString::fromStdString(logdir.path().string()));
    REQUIRE(finishedLoading(finished));
    CHECK(session.indexCacheStatus() == "none saved");
    REQUIRE(waitUntil(saved)); // after the load, on the worker thread

    logdir.appendStep();
    finished.clear();
    session.reload();
    REQUIRE(finishedLoading(finished));
    CHECK(session.indexCacheStatus() == "used");
    CHECK(session.snapshot()->traceCount() == 10); // five from the index, five read on top
}

TEST_CASE("a followed logdir's index is saved with what it gained when the session closes it",
          "[session][follow]")
{
    test::TutorialLogdir logdir(1);
    test::TempDir cache;
    core::IndexCacheOptions options;
    options.directory = cache.path();
    options.minLogdirBytes = 0;
    const auto indexBytes = [&] {
        for (const auto& entry : std::filesystem::directory_iterator(cache.path()))
            if (entry.path().extension() == ".nsidx")
                return entry.file_size();
        return std::uintmax_t{0};
    };
    const auto reopened = [&] {
        core::ReaderOptions reader;
        reader.indexCache = options;
        core::LogdirReader again(logdir.path(), reader);
        const auto s = again.update();
        return std::pair{again.indexCacheStatus(), s->traceCount()};
    };
    std::uintmax_t savedAtLoad = 0;
    {
        LogdirSession session;
        session.setIndexCache(options);
        session.setPollInterval(50);
        QSignalSpy finished(&session, &LogdirSession::loadingFinished);
        session.open(QString::fromStdString(logdir.path().string()));
        REQUIRE(finishedLoading(finished));
        REQUIRE(waitUntil([&] { return indexBytes() > 0; })); // after the load
        savedAtLoad = indexBytes();
        session.setFollowing(true);
        logdir.appendStep();
        REQUIRE(waitUntil([&] { return session.snapshot()->traceCount() == 10; }));
        QTest::qWait(200);
        CHECK(indexBytes() == savedAtLoad); // not at every poll

        SECTION("closed")
        {
            session.close();
            CHECK(waitUntil([&] { return indexBytes() > savedAtLoad; }));
        }
        SECTION("the session ends") {}
    }
    CHECK(indexBytes() > savedAtLoad); // saved again, with the step read while following
    const auto [status, traces] = reopened();
    CHECK(status == "used");
    CHECK(traces == 10);
}

TEST_CASE("a session keeps a large index's arrays in its spill directory", "[session]")
{
    // Past one chunk of traces (65 536): a finished chunk is stored in the spill file, which the
    // process maps (its name is the directory's, deleted).
    test::TutorialLogdir logdir(1);
    for (int step = 0; step < 14'000; ++step)
        logdir.appendStep();
    test::TempDir spill;
    LogdirSession session;
    session.setSpill({spill.path(), 0});
    QSignalSpy finished(&session, &LogdirSession::loadingFinished);
    session.open(QString::fromStdString(logdir.path().string()));
    REQUIRE(finishedLoading(finished));
    REQUIRE(session.snapshot()->traceCount() > 65'536);
    const auto mapsSpill = [&] {
        std::ifstream maps("/proc/self/maps");
        std::string line;
        while (std::getline(maps, line))
            if (line.find(spill.path().string() + "/") != std::string::npos)
                return true;
        return false;
    };
    CHECK(mapsSpill());
    CHECK(std::filesystem::is_empty(spill.path()));
}
