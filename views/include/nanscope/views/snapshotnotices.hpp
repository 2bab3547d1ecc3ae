// SPDX-License-Identifier: GPL-3.0-or-later
// Why a logdir shows less than the user expects, in words: nothing readable, corrupt records,
// no events yet (a circular buffer that was never flushed), an eager-only run, a mode that
// records no values. Debugger V2 shows an empty page in all of these cases.
#pragma once

#include "nanscope/core/snapshot.hpp"

#include <QString>
#include <vector>

namespace nanscope::views {

struct SnapshotNotice
{
    enum class Severity { Info, Warning, Error };
    Severity severity = Severity::Info;
    QString title; // one short line
    QString text;  // what it means and what to do, plain text
};

// Most severe first; empty when there is nothing to explain. For a finished read: a snapshot
// taken half way through a load lacks data for the plain reason that it is not read yet.
std::vector<SnapshotNotice> snapshotNotices(const core::Snapshot& snapshot);

// Every diagnostic of the snapshot, one per line ("error: <file> @<offset>: <message>").
QString diagnosticsText(const core::Snapshot& snapshot);

} // namespace nanscope::views
