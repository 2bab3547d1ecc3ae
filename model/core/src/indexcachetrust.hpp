// SPDX-License-Identifier: GPL-3.0-or-later
// Remembering that a saved index was checked whole, so that reopening it again need not check
// its arrays again.
//
// Checking every block's checksum and every index in a saved index reads all of it: 0.3 s for
// the 3 GB index of 10^8 traces, where reopening is meant to take milliseconds. Once a load has
// checked a saved index whole, a small record beside it (`<index>.checked`) notes the file's
// identity: device, inode, size, modification and change times. A later load of a file with that
// identity skips the arrays' checksums; everything else is checked as ever (the header, the
// description, the logdir's files, and every id in the arrays against what it indexes: a record
// is easily forged, and an id out of range would be read out of bounds). Any change to the file
// through the file system (a write, a truncation, a rename over it) gives it another change time or
// inode, so it is checked whole again. File systems keep times in ticks (a few milliseconds; whole
// seconds on some), and a write in the same tick as the file's last change would leave its times as
// they were: the record is only written when the check began a safe margin after that change (50
// ms, or 2 s where times have no fraction of a second). Saving an index waits out the margin and
// checks the new file at once (LogdirReader::saveIndex), so that even the first reopen need not.
// What this does not see is a disk that corrupts data silently, below the file system.
#pragma once

#include <chrono>
#include <filesystem>
#include <sys/stat.h>

namespace nanscope::core {

// Whether two fstats describe one file in one version: the identity a record holds (device,
// inode, size, modification and change times).
bool sameIdentity(const struct stat& a, const struct stat& b);

// Whether the record beside `index` names the file `st` describes (an fstat of it).
bool checkedBefore(const std::filesystem::path& index, const struct stat& st);

// How long after its last change a file must be checked for its record to be written, and how
// long from now that is (zero or less: already).
std::chrono::nanoseconds changeMargin(const struct stat& st);
std::chrono::nanoseconds untilOldEnough(const struct stat& st);

// After a load that checked `index` whole, having taken `st` before it began: writes its record
// when that was a margin after the file's last change, and otherwise leaves none. Also marks the
// index as used (the record's time, which pruning reads): the index file itself is never touched,
// as that would change its times.
void noteChecked(const std::filesystem::path& index, const struct stat& st);

// After a load that trusted the record: marks the index as used.
void noteUsed(const std::filesystem::path& index);

// The record's path for `index`.
std::filesystem::path checkedRecord(const std::filesystem::path& index);

} // namespace nanscope::core
