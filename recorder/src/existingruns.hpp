// SPDX-License-Identifier: Apache-2.0
// TensorFlow's reader refuses a directory that holds two runs ("Found multiple tfdbg2 runs",
// debug_events_reader.py): before writing into a dump root, the recorder looks for another run.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace nanscope::detail {

struct ExistingRun
{
    std::string runId;
    std::filesystem::path metadataFile;
};

// A run other than `runId` whose metadata is in `dumpRoot` (an empty `runId` matches none).
// Metadata files with no whole first record yet (a writer opening right now) are not a run.
std::optional<ExistingRun> otherRunIn(const std::filesystem::path& dumpRoot,
                                      std::string_view runId);

} // namespace nanscope::detail
