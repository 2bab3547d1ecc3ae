// SPDX-License-Identifier: GPL-3.0-or-later
#include "decodedsize.hpp"
#include "eventparse.hpp"
#include "loaders.hpp"
#include "nanscope/core/plaintext.hpp"
#include "recorddecoding.hpp"
#include "wirereader.hpp"

namespace nanscope::core {

std::optional<std::uint64_t> decodedEventBytes(std::string_view payload, std::uint64_t share)
{
    return decodedBytes(*tfdbg::DebugEvent::descriptor(), payload, share);
}

RecordWeight weighRecord(std::string_view payload, std::uint64_t share)
{
    RecordWeight weight{payload.size(), decodedEventBytesBound(payload.size()), false};
    if (*weight.decoded > share) {
        weight.decoded = decodedEventBytes(payload, share);
        weight.exact = true;
    }
    return weight;
}

bool passesMemoryLimit(const IndexState& index, std::string_view payload, RecordWeight& weight)
{
    const auto passes = [&] {
        return index.wouldExceedMemory(std::max(weight.payloadBytes, *weight.decoded));
    };
    if (!passes())
        return false;
    if (!weight.exact) {
        // Within its share, the exact count exists; it may fit where the bound does not.
        weight.decoded = decodedEventBytes(payload, index.maxDecodedBytes);
        weight.exact = true;
    }
    return passes();
}

std::string overShare(std::uint64_t share)
{
    const std::string amount = share % (1u << 20) == 0 ? std::to_string(share >> 20) + " MiB"
                                                       : std::to_string(share) + " bytes";
    return "this record would take more than " + amount +
           " in memory once decoded, its share (a quarter) of the memory limit "
           "(nanscope-report --max-memory, ReaderOptions::maxMemoryBytes); skipped";
}

Diagnostic recordProblem(Severity severity, const FileState& file, std::uint64_t offset,
                         std::string message)
{
    return {severity, file.path.string(), offset, std::move(message)};
}

void splitTensorName(std::string_view name, std::string& opName, int& slot)
{
    slot = 0;
    const auto colon = name.rfind(':');
    if (colon != std::string_view::npos && colon + 1 < name.size() && name.size() - colon <= 10) {
        int value = 0;
        bool digits = true;
        for (char c : name.substr(colon + 1)) {
            if (c < '0' || c > '9') {
                digits = false;
                break;
            }
            value = value * 10 + (c - '0');
        }
        if (digits) {
            opName = std::string(name.substr(0, colon));
            slot = value;
            return;
        }
    }
    opName = std::string(name);
}

void loadSourceFiles(FileState& file, IndexState& index)
{
    forEachNewRecord(file, index, [&](std::string_view payload, std::uint64_t offset) {
        EventKind kind;
        if (!peekEvent(payload, kind)) {
            index.recordProblems.add(
                recordProblem(Severity::Error, file, offset, "not a valid DebugEvent; skipped"));
            return;
        }
        if (kind.member != event::SourceFile) {
            index.recordProblems.add(
                recordProblem(Severity::Warning, file, offset, "not a SourceFile record; skipped"));
            return;
        }
        // Only the path and host: the lines (often most of the bytes) are read on demand.
        SourceFileInfo info;
        info.offset = offset;
        wire::Reader reader(kind.body);
        wire::Field field;
        while (reader.next(field)) {
            if (field.type != wire::WireType::LengthDelimited)
                continue;
            if (field.number == 1)
                info.filePath = std::string(field.bytes);
            else if (field.number == 2)
                info.hostName = std::string(field.bytes);
            else if (field.number == 3)
                ++info.lineCount;
        }
        if (reader.failed()) {
            index.recordProblems.add(recordProblem(Severity::Error, file, offset,
                                                   "malformed SourceFile record; skipped"));
            return;
        }
        index.code.addFile(std::move(info));
        index.codeChanged = true;
    });
}

void loadStackFrames(FileState& file, IndexState& index)
{
    tfdbg::DebugEvent event;
    forEachNewRecord(file, index, [&](std::string_view payload, std::uint64_t offset) {
        if (!parseEvent(event, payload)) {
            index.recordProblems.add(
                recordProblem(Severity::Error, file, offset, "not a valid DebugEvent; skipped"));
            return;
        }
        if (event.what_case() != tfdbg::DebugEvent::kStackFrameWithId) {
            index.recordProblems.add(recordProblem(Severity::Warning, file, offset,
                                                   "not a StackFrameWithId record; skipped"));
            return;
        }
        const auto& f = event.stack_frame_with_id();
        StackFrameInfo frame;
        frame.id = f.id();
        frame.fileIndex = f.file_line_col().file_index(); // absent in old proto3 writers: 0
        frame.line = f.file_line_col().line();
        frame.function = f.file_line_col().func();
        if (!index.code.addFrame(std::move(frame))) {
            index.recordProblems.add(recordProblem(Severity::Warning, file, offset,
                                                   "stack frame id " + quotedName(f.id()) +
                                                       " is used twice; the first one is kept"));
            return;
        }
        index.codeChanged = true;
    });
}

} // namespace nanscope::core
