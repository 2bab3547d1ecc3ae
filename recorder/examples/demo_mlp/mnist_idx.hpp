// SPDX-License-Identifier: Apache-2.0
// Reads the four uncompressed MNIST files in IDX format (train-images-idx3-ubyte, …).
#pragma once

#include "dataset.hpp"

#include <filesystem>
#include <optional>
#include <stdexcept>

namespace nanscope::demo {

// A file is missing, truncated, or not MNIST; what() says which file and why.
class DataError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Both splits from `directory`; nullopt when none of the four files is there. Throws
// DataError when the directory does not exist, only some files are there, or one is invalid.
std::optional<DataSplits> loadMnist(const std::filesystem::path& directory);

} // namespace nanscope::demo
