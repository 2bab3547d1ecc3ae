// SPDX-License-Identifier: GPL-3.0-or-later
#include "tempdir.hpp"

#include <random>
#include <string>
#include <system_error>

namespace nanscope::test {

TempDir::TempDir()
{
    std::random_device random;
    m_path = std::filesystem::temp_directory_path() /
             ("nanscope-test-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(m_path);
}

TempDir::~TempDir()
{
    std::error_code ec;
    // Tests may lock the directory down to provoke errors; unlock it to remove it.
    std::filesystem::permissions(m_path, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(m_path, ec);
}

} // namespace nanscope::test
