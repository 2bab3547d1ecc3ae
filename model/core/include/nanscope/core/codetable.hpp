// SPDX-License-Identifier: GPL-3.0-or-later
// Source files and stack frames (format §3.4, §3.5, §8.3 steps 1-2).
#pragma once

#include "nanscope/core/graphtable.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

struct SourceFileInfo
{
    std::string hostName;
    std::string filePath;
    std::uint64_t offset = 0;    // of its latest SourceFile record; the lines are read on demand
    std::uint32_t lineCount = 0; // 0 when the writer could not read the file
};

struct StackFrameInfo
{
    std::string id;
    std::int32_t fileIndex = 0; // into CodeTable::files(), once that many files are known
    std::int32_t line = 0;
    std::string function;
};

// A frame resolved to its file (TensorFlow's (host, path, line, func)).
struct ResolvedFrame
{
    std::string id;
    std::string hostName;
    std::string filePath; // empty when the frame or its file is unknown
    std::int32_t line = 0;
    std::string function;
    std::optional<std::size_t> fileIndex; // into CodeTable::files()
};

class CodeTable
{
public:
    const std::vector<SourceFileInfo>& files() const { return m_files; }
    const std::vector<StackFrameInfo>& frames() const { return m_frames; }

    const StackFrameInfo* findFrame(std::string_view id) const;
    std::optional<std::size_t> findFile(std::string_view host, std::string_view path) const;
    // Whether the frame's file is known. TensorFlow drops frames read before their file; NaNscope
    // keeps them and resolves them once the file arrives.
    bool resolved(const StackFrameInfo& frame) const;
    ResolvedFrame resolve(std::string_view frameId) const;
    std::size_t unresolvedFrameCount() const;

    // About how many bytes the table holds, for the reader's memory limit.
    std::uint64_t approxBytes() const { return m_bytes; }

    // Builders.
    void addFile(SourceFileInfo file); // a known (host, path) keeps its position, takes the offset
    bool addFrame(StackFrameInfo frame); // false when the id is already known (the first is kept)

private:
    std::vector<SourceFileInfo> m_files;
    std::vector<StackFrameInfo> m_frames;
    StringMap<std::size_t> m_fileIndex; // key: host + '\0' + path
    StringMap<std::size_t> m_frameIndex;
    std::uint64_t m_bytes = 0;
};

} // namespace nanscope::core
