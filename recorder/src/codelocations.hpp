// SPDX-License-Identifier: Apache-2.0
// Turns call sites into tfdbg2 stack frames: each source file is written once to .source_files
// and each (file, line, function) once to .stack_frames, always before the records using them.
#pragma once

#include "eventwriter.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/status.hpp"

#include <cstddef>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace nanscope::detail {

struct CodeLocationOptions
{
    std::string hostName;
    bool captureNativeStacks = false;
    std::size_t maxSourceFileBytes = 8u << 20;
};

class CodeLocations
{
public:
    CodeLocations(EventWriter& writer, CodeLocationOptions options);

    // The stack frame ids for a call from `where`, outermost first. With native stacks enabled
    // these are the whole native stack, ending at `where`.
    Result<std::vector<std::string>> frameIds(const CodeLocation& where);
    // The stack frame ids of a whole stack given by the caller, outermost first.
    Result<std::vector<std::string>> frameIds(std::span<const CodeLocation> stack);

    // The text of a source file split on '\n' as TensorFlow does ('\r' kept, a final newline
    // gives a final empty line); empty when the file is unreadable, binary or too large.
    static std::vector<std::string> readSourceLines(const std::string& path, std::size_t maxBytes);

private:
    using FrameKey = std::tuple<std::string, int, std::string>; // path, line, function

    // The path as recorded: absolute and normal. A relative one (a build that passes relative
    // source paths, as Make and Bazel do) is resolved against the working directory the first
    // time it is met and kept: the same source file keeps one path if the program changes
    // directory later, and each call costs no getcwd and no normalisation.
    std::string recordedPath(const std::string& path);

    Result<std::string> frameId(const std::string& path, int line, const std::string& function);
    Result<int> fileIndex(const std::string& path);

    EventWriter& m_writer;
    CodeLocationOptions m_options;
    std::mutex m_mutex;
    std::mutex m_pathMutex;
    std::unordered_map<std::string, std::string> m_resolvedPaths; // bounded: kMaxResolvedPaths
    std::unordered_map<std::string, int> m_fileIndices;
    std::map<FrameKey, std::string> m_frameIds;
};

} // namespace nanscope::detail
