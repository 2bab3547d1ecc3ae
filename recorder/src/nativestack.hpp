// SPDX-License-Identifier: Apache-2.0
// Capturing and symbolising the native call stack of the calling thread.
#pragma once

#include <string>
#include <vector>

namespace nanscope::detail {

struct NativeFrame
{
    std::string file;     // source file, or the binary's path when there is no line information
    int line = 0;         // 0 when unknown
    std::string function; // demangled, without parameter list; "??" when unknown
};

// The calling thread's stack, outermost frame first, without the recorder's own frames.
std::vector<NativeFrame> captureNativeStack();

// "void ns::f(int)" -> "ns::f": the readable part of a demangled or pretty function name.
std::string shortFunctionName(const std::string& signature);

} // namespace nanscope::detail
