// Separates the user's frames from framework frames in a creation stack, and cuts a few lines of
// context around a frame out of the logdir's own copy of the source file.
#pragma once

#include "nanscope/core/codetable.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nanscope::core {

struct FoldedFrame
{
    ResolvedFrame frame;
    bool framework = false;
};

struct FoldedStack
{
    std::vector<FoldedFrame> frames;      // outermost first, as recorded
    std::optional<std::size_t> userFrame; // the innermost frame that is not framework code
};

class StackFolding
{
public:
    // Paths of TensorFlow, Python's libraries, system headers and NaNscope's recorder.
    static std::vector<std::string> defaultPatterns();

    explicit StackFolding(std::vector<std::string> patterns = defaultPatterns());

    // A frame is framework code when its file path contains one of the patterns.
    bool isFramework(std::string_view filePath) const;
    FoldedStack fold(std::vector<ResolvedFrame> frames) const;

private:
    std::vector<std::string> m_patterns;
};

struct SourceExcerpt
{
    std::string filePath;
    int firstLine = 0; // 1-based number of lines.front()
    int focusLine = 0; // the frame's line
    std::vector<std::string> lines;
};

// Lines [line - context, line + context] of `lines` (a SourceFile's text), clipped to the file;
// nullopt when the line is outside the file.
std::optional<SourceExcerpt> excerpt(const std::vector<std::string>& lines, std::string filePath,
                                     int line, int context);

} // namespace nanscope::core
