// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/stackfolding.hpp"

#include <algorithm>
#include <ranges>

namespace nanscope::core {

namespace {

// Frames of the debugger's own callbacks, which sit innermost in every stack TensorFlow records:
// never the frame to show while another has a file.
constexpr std::string_view kInstrumentation[] = {
    "/tensorflow/python/debug/lib/dumping_callback.py",
    "/tensorflow/python/framework/op_callbacks.py",
    "/nanscope/recorder/",
    "/recorder/include/nanscope/",
};

std::string normalisedPath(std::string_view path)
{
    std::string p(path);
    std::replace(p.begin(), p.end(), '\\', '/');
    return p;
}

bool isInstrumentation(std::string_view path)
{
    const std::string p = normalisedPath(path);
    return std::any_of(std::begin(kInstrumentation), std::end(kInstrumentation),
                       [&](std::string_view i) { return p.find(i) != std::string::npos; });
}

bool isRunpy(const ResolvedFrame& frame)
{
    const std::string p = normalisedPath(frame.filePath);
    return p.ends_with("/runpy.py") || p == "runpy.py" || p.ends_with("<frozen runpy>");
}

// The scripts the program started from: the outermost frame's file when it is a module's top
// level, and every module that runpy runs (`python -m`, runpy.run_path).
std::vector<std::string> entryScripts(const std::vector<ResolvedFrame>& frames)
{
    std::vector<std::string> scripts;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const ResolvedFrame& f = frames[i];
        if (f.function != "<module>" || f.filePath.empty())
            continue;
        if (i == 0 || isRunpy(frames[i - 1]))
            scripts.push_back(f.filePath);
    }
    return scripts;
}

} // namespace

std::vector<std::string> StackFolding::defaultPatterns()
{
    return {
        // The system and the runtimes: C and C++ headers and libraries, Python's standard
        // library and the interpreter's own frozen modules.
        "/usr/include/",
        "/usr/lib/",
        "libstdc++",
        "/lib/python3",
        "/lib64/python3",
        "<frozen",
        "<string>",
        // Installed packages are the user's own, unless listed below.
        "!/site-packages/",
        "!/dist-packages/",
        // The frameworks ("packages/" covers site-packages and dist-packages).
        "packages/tensorflow/",
        "packages/tensorflow_core/",
        "packages/keras/",
        "packages/tf_keras/",
        "packages/absl/",
        "packages/numpy/",
        "packages/google/protobuf/",
        "packages/tensorboard/",
        "packages/torch/",
        "packages/functorch/",
        "/tensorflow/python/",
        "/tensorflow/core/",
        "/nanscope/recorder/",
        "/recorder/include/nanscope/",
        // Examples shipped inside a framework are what users run as their own code.
        "!/examples/",
    };
}

StackFolding::StackFolding(std::vector<std::string> patterns) : m_patterns(std::move(patterns))
{
    std::erase_if(m_patterns, [](const std::string& p) { return p.empty() || p == "!"; });
    for (auto& p : m_patterns)
        std::replace(p.begin(), p.end(), '\\', '/');
}

bool StackFolding::isFramework(std::string_view filePath) const
{
    const std::string path = normalisedPath(filePath);
    for (const std::string& p : std::views::reverse(m_patterns)) {
        const bool exception = p.front() == '!';
        const std::string_view fragment = std::string_view(p).substr(exception ? 1 : 0);
        if (path.find(fragment) != std::string::npos)
            return !exception;
    }
    return false;
}

FoldedStack StackFolding::fold(std::vector<ResolvedFrame> frames) const
{
    const std::vector<std::string> scripts = entryScripts(frames);
    FoldedStack stack;
    stack.frames.reserve(frames.size());
    for (auto& frame : frames) {
        const bool entry =
            std::find(scripts.begin(), scripts.end(), frame.filePath) != scripts.end();
        const bool framework = !entry && isFramework(frame.filePath);
        stack.frames.push_back({std::move(frame), framework});
    }
    const auto innermost = [&](auto&& accept) -> std::optional<std::size_t> {
        for (std::size_t i = stack.frames.size(); i-- > 0;)
            if (accept(stack.frames[i]))
                return i;
        return std::nullopt;
    };
    stack.userFrame =
        innermost([](const FoldedFrame& f) { return !f.framework && !f.frame.filePath.empty(); });
    stack.focusFrame = stack.userFrame;
    if (!stack.focusFrame)
        stack.focusFrame = innermost([](const FoldedFrame& f) {
            return f.frame.fileIndex && !isInstrumentation(f.frame.filePath);
        });
    if (!stack.focusFrame)
        stack.focusFrame =
            innermost([](const FoldedFrame& f) { return f.frame.fileIndex.has_value(); });
    if (!stack.focusFrame)
        stack.focusFrame =
            innermost([](const FoldedFrame& f) { return !f.frame.filePath.empty(); });
    if (!stack.focusFrame && !stack.frames.empty())
        stack.focusFrame = stack.frames.size() - 1;
    return stack;
}

std::optional<SourceExcerpt> excerpt(const std::vector<std::string>& lines, std::string filePath,
                                     int line, int context)
{
    const auto count = static_cast<long>(lines.size());
    if (line < 1 || line > count)
        return std::nullopt;
    context = std::max(context, 0);
    const long first = std::max<long>(1, line - context);
    const long last = std::min<long>(count, line + context);
    SourceExcerpt e;
    e.filePath = std::move(filePath);
    e.firstLine = static_cast<int>(first);
    e.focusLine = line;
    for (long l = first; l <= last; ++l)
        e.lines.push_back(lines[static_cast<std::size_t>(l - 1)]);
    return e;
}

} // namespace nanscope::core
