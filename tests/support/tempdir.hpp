// SPDX-License-Identifier: GPL-3.0-or-later
// A fresh directory under the system's temporary directory, removed with everything in it at
// destruction. Shared by the tests of every layer.
#pragma once

#include <filesystem>

namespace nanscope::test {

class TempDir
{
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace nanscope::test
