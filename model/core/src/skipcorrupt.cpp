// SPDX-License-Identifier: GPL-3.0-or-later
#include "loaders.hpp"
#include "recordresync.hpp"

namespace nanscope::core {

bool skipCorruptRecord(FileState& file, const IndexState& index)
{
    if (file.stop != format::RecordStatus::CorruptLength &&
        file.stop != format::RecordStatus::CorruptPayload)
        return false;
    if (!file.tensorBoardStop)
        file.tensorBoardStop = file.offset;
    // A file that keeps growing behind the same corrupt record is searched on from where the
    // last search ruled positions out: no update rescans what an earlier one searched.
    const bool again = file.resyncOffset == file.offset && file.resyncSearchedTo > file.offset;
    const std::uint64_t from = again ? file.resyncSearchedTo - 1 : file.offset;
    const ResyncResult found =
        findNextRecord(file.handle, from, file.size, {.maxPayload = index.maxRecordBytes});
    file.resyncGaveUp = found.gaveUp;
    file.resyncOffset = file.offset;
    file.resyncSearchedTo = found.searchedTo;
    if (!found.next)
        return false; // stays stopped; the next update searches on, in what was appended
    file.noteSkip(file.offset, *found.next);
    file.offset = *found.next;
    file.stop = format::RecordStatus::EndOfData;
    return true;
}

} // namespace nanscope::core
