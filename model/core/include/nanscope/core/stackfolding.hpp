// SPDX-License-Identifier: GPL-3.0-or-later
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
    // The frame to show: the user's frame, else the innermost frame whose file the logdir holds
    // outside the debugger's own instrumentation (else the innermost frame with a file). Empty
    // only for a stack without frames.
    std::optional<std::size_t> focusFrame;

    bool focusIsUserCode() const { return focusFrame && focusFrame == userFrame; }
};

// Which frames are framework code.
//
// Patterns are path fragments, matched against the frame's file path (with '\' read as '/'), in
// order; the last one that matches decides, and a pattern that starts with '!' makes the frame
// the user's (as in .gitignore). So "/lib/python3", "!/site-packages/", "packages/tensorflow/"
// folds the standard library and TensorFlow but not the user's own installed packages.
//
// Whatever the patterns say, the script the program was started with is the user's: the file of
// the outermost frame when it is a module's top level ("<module>"), or of the module that
// runpy runs for `python -m` (TensorFlow's tutorial runs its example that way, from inside
// TensorFlow's own package).
class StackFolding
{
public:
    // TensorFlow, Keras, absl, NumPy, PyTorch, Python's standard library and runtime, system
    // headers and libraries, and NaNscope's recorder; examples shipped inside them are not.
    static std::vector<std::string> defaultPatterns();

    explicit StackFolding(std::vector<std::string> patterns = defaultPatterns());

    // The patterns alone decide here; fold() also knows the program's entry script.
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
