// SPDX-License-Identifier: Apache-2.0
#include "existingruns.hpp"

#include "nanscope/format/recordfilereader.hpp"
#include "wire/messages.hpp"

namespace nanscope::detail {
namespace {
// A metadata record holds a few short strings; a larger file is not a tfdbg2 metadata file.
constexpr std::uint64_t kMaxMetadataBytes = 1u << 20;
} // namespace

std::optional<ExistingRun> otherRunIn(const std::filesystem::path& dumpRoot, std::string_view runId)
{
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dumpRoot, ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::filesystem::path& path = it->path();
        const std::string name = path.filename().string();
        if (!name.starts_with("tfdbg_events.") || path.extension() != ".metadata")
            continue;
        format::RecordFileReader reader;
        if (!reader.open(path) || reader.currentSize() > kMaxMetadataBytes)
            continue;
        std::string payload;
        if (reader.next(payload) != format::RecordStatus::Ok)
            continue;
        const auto id = wire::metadataRunId(payload);
        if (!id)
            continue;
        if (*id != runId)
            return ExistingRun{*id, path};
    }
    return std::nullopt;
}

} // namespace nanscope::detail
