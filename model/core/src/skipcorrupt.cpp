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
    const ResyncResult found =
        findNextRecord(file.handle, file.offset, file.size, {.maxPayload = index.maxRecordBytes});
    file.resyncGaveUp = found.gaveUp;
    if (!found.next)
        return false; // stays stopped; the next update searches again, past what was appended
    file.noteSkip(file.offset, *found.next);
    file.offset = *found.next;
    file.stop = format::RecordStatus::EndOfData;
    return true;
}

} // namespace nanscope::core
