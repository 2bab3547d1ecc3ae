// SPDX-License-Identifier: Apache-2.0
#include "codelocations.hpp"

#include "ids.hpp"
#include "nativestack.hpp"
#include "utf8text.hpp"
#include "wire/messages.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace nanscope::detail {
namespace {

// Relative paths resolved and kept, at most: a program's source files. Past that (a caller
// inventing paths), paths are resolved on every call, as before.
constexpr std::size_t kMaxResolvedPaths = 4096;

// Interpreters name code without a file "<string>", "<frozen runpy>", "<stdin>"; most paths are
// absolute and normal already: the common case for interpreters' frames, on every call.
bool recordedAsGiven(const std::string& path)
{
    return path.empty() || path.front() == '<' ||
           (path.front() == '/' && path.find("/.") == std::string::npos &&
            path.find("//") == std::string::npos);
}

std::string absolutePath(const std::string& path)
{
    std::error_code ec;
    // Like Python's os.path.abspath: absolute and normalised, symbolic links kept.
    auto absolute = std::filesystem::absolute(path, ec);
    return ec ? path : absolute.lexically_normal().string();
}

} // namespace

CodeLocations::CodeLocations(EventWriter& writer, CodeLocationOptions options)
    : m_writer(writer), m_options(std::move(options))
{}

std::vector<std::string> CodeLocations::readSourceLines(const std::string& path,
                                                        std::size_t maxBytes)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return {};
    const auto size = std::filesystem::file_size(path, ec);
    if (ec || size > maxBytes)
        return {};
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof())
        return {};
    if (text.find('\0') != std::string::npos)
        return {}; // a binary, not source text
    std::vector<std::string> lines;
    std::size_t begin = 0;
    for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', begin)) {
        lines.emplace_back(text, begin, nl - begin);
        begin = nl + 1;
    }
    lines.emplace_back(text, begin);
    return lines;
}

std::string CodeLocations::recordedPath(const std::string& path)
{
    if (recordedAsGiven(path))
        return path;
    std::lock_guard lock(m_pathMutex);
    if (const auto it = m_resolvedPaths.find(path); it != m_resolvedPaths.end())
        return it->second;
    std::string resolved = absolutePath(path);
    if (m_resolvedPaths.size() < kMaxResolvedPaths)
        m_resolvedPaths.emplace(path, resolved);
    return resolved;
}

Result<int> CodeLocations::fileIndex(const std::string& path)
{
    if (auto it = m_fileIndices.find(path); it != m_fileIndices.end())
        return it->second;
    wire::DebugEvent event;
    event.set_wall_time(wallTimeSeconds());
    auto* file = event.mutable_source_file();
    // Paths and source files need not be UTF-8 (a Latin-1 comment); tfdbg2's strings must be.
    file->set_file_path(validUtf8(path));
    file->set_host_name(m_options.hostName);
    for (auto& line : readSourceLines(path, m_options.maxSourceFileBytes))
        file->add_lines(validUtf8(line));
    if (Status s = m_writer.write(FileKind::SourceFiles, event.SerializeAsString()); !s.ok())
        return s;
    const int index = static_cast<int>(m_fileIndices.size());
    m_fileIndices.emplace(path, index);
    return index;
}

Result<std::string> CodeLocations::frameId(const std::string& path, int line,
                                           const std::string& function)
{
    FrameKey key{path, line, function};
    if (auto it = m_frameIds.find(key); it != m_frameIds.end())
        return it->second;
    auto index = fileIndex(path);
    if (!index)
        return index.status();
    wire::DebugEvent event;
    event.set_wall_time(wallTimeSeconds());
    auto* frame = event.mutable_stack_frame_with_id();
    std::string id = makeUuid4();
    frame->set_id(id);
    // file_index, line and func are always present, as current TensorFlow writes them.
    frame->mutable_file_line_col()->set_file_index(*index);
    frame->mutable_file_line_col()->set_line(line);
    frame->mutable_file_line_col()->set_func(validUtf8(function));
    if (Status s = m_writer.write(FileKind::StackFrames, event.SerializeAsString()); !s.ok())
        return s;
    m_frameIds.emplace(std::move(key), id);
    return id;
}

Result<std::vector<std::string>> CodeLocations::frameIds(const CodeLocation& where)
{
    const std::string callerPath = recordedPath(where.file);
    const int callerLine = where.line;
    const std::string& callerFunction = where.function;

    std::vector<NativeFrame> frames;
    if (m_options.captureNativeStacks) {
        frames = captureNativeStack();
        for (auto& f : frames)
            f.file = recordedPath(f.file);
    }
    // The caller's own frame ends the stack unless the native stack already ends there.
    const bool nativeEndsAtCaller =
        !frames.empty() && frames.back().file == callerPath && frames.back().line == callerLine;
    if (!nativeEndsAtCaller)
        frames.push_back({callerPath, callerLine, callerFunction});
    else
        frames.back().function = callerFunction;

    std::lock_guard lock(m_mutex);
    std::vector<std::string> ids;
    ids.reserve(frames.size());
    for (const auto& f : frames) {
        auto id = frameId(f.file, f.line, f.function);
        if (!id)
            return id.status();
        ids.push_back(std::move(*id));
    }
    return ids;
}

Result<std::vector<std::string>> CodeLocations::frameIds(std::span<const CodeLocation> stack)
{
    std::vector<std::string> paths;
    paths.reserve(stack.size());
    for (const auto& where : stack)
        paths.push_back(recordedPath(where.file));
    std::lock_guard lock(m_mutex);
    std::vector<std::string> ids;
    ids.reserve(stack.size());
    for (std::size_t i = 0; i < stack.size(); ++i) {
        auto id = frameId(paths[i], stack[i].line, stack[i].function);
        if (!id)
            return id.status();
        ids.push_back(std::move(*id));
    }
    return ids;
}

} // namespace nanscope::detail
