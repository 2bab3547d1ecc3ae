// SPDX-License-Identifier: GPL-3.0-or-later
#include "logdirfixture.hpp"

#include "nanscope/format/recordfilereader.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <random>

namespace nanscope::test {

std::filesystem::path findFile(const std::filesystem::path& dir, const std::string& suffix)
{
    std::vector<std::filesystem::path> found;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > suffix.size() + 1 &&
            name.compare(name.size() - suffix.size() - 1, std::string::npos, "." + suffix) == 0)
            found.push_back(entry.path());
    }
    INFO("looking for *." << suffix << " in " << dir);
    REQUIRE(found.size() == 1);
    return found.front();
}

std::vector<tfdbg::DebugEvent> readEvents(const std::filesystem::path& file)
{
    format::RecordFileReader reader;
    std::string error;
    INFO(error);
    REQUIRE(reader.open(file, &error));
    std::vector<tfdbg::DebugEvent> events;
    std::string payload;
    format::RecordStatus status;
    while ((status = reader.next(payload)) == format::RecordStatus::Ok) {
        tfdbg::DebugEvent event;
        REQUIRE(event.ParseFromString(payload));
        events.push_back(std::move(event));
    }
    INFO(file << ": " << format::toString(status));
    REQUIRE(status == format::RecordStatus::EndOfData);
    return events;
}

std::vector<tfdbg::DebugEvent> readEvents(const std::filesystem::path& dir,
                                          const std::string& suffix)
{
    return readEvents(findFile(dir, suffix));
}

std::vector<double> doubles(const tfdbg::TensorProto& proto)
{
    const std::string& content = proto.tensor_content();
    std::vector<double> values(content.size() / sizeof(double));
    std::memcpy(values.data(), content.data(), values.size() * sizeof(double));
    return values;
}

} // namespace nanscope::test
