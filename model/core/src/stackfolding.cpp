#include "nanscope/core/stackfolding.hpp"

#include <algorithm>

namespace nanscope::core {

std::vector<std::string> StackFolding::defaultPatterns()
{
    return {
        "/site-packages/tensorflow/",
        "/dist-packages/",
        "/site-packages/keras/",
        "/site-packages/absl/",
        "/site-packages/numpy/",
        "/tensorflow/python/",
        "/tensorflow/core/",
        "/usr/include/",
        "/usr/lib/",
        "/usr/local/lib/python",
        "libstdc++",
        "/nanscope/recorder/",
        "/recorder/include/nanscope/",
        "<frozen",
        "<string>",
    };
}

StackFolding::StackFolding(std::vector<std::string> patterns) : m_patterns(std::move(patterns))
{
    m_patterns.erase(std::remove(m_patterns.begin(), m_patterns.end(), std::string()),
                     m_patterns.end());
}

bool StackFolding::isFramework(std::string_view filePath) const
{
    return std::any_of(m_patterns.begin(), m_patterns.end(), [&](const std::string& p) {
        return filePath.find(p) != std::string_view::npos;
    });
}

FoldedStack StackFolding::fold(std::vector<ResolvedFrame> frames) const
{
    FoldedStack stack;
    for (auto& frame : frames) {
        const bool framework = isFramework(frame.filePath);
        stack.frames.push_back({std::move(frame), framework});
    }
    for (std::size_t i = stack.frames.size(); i-- > 0;) {
        if (!stack.frames[i].framework && !stack.frames[i].frame.filePath.empty()) {
            stack.userFrame = i;
            break;
        }
    }
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
