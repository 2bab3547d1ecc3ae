// SPDX-License-Identifier: GPL-3.0-or-later
#include "awaitedframes.hpp"

#include "wirereader.hpp"

namespace nanscope::core {

bool namesUnknownFrame(std::string_view codeLocation, const CodeTable& code, std::string_view& id)
{
    wire::Reader reader(codeLocation);
    wire::Field field;
    while (reader.next(field))
        if (field.number == 2 && field.type == wire::WireType::LengthDelimited &&
            !code.findFrame(field.bytes)) {
            id = field.bytes;
            return true;
        }
    return false;
}

std::uint32_t AwaitedFrames::locationIndex(std::string_view codeLocation)
{
    if (!m_runs.empty() && m_locations[m_runs.back().location] == codeLocation)
        return m_runs.back().location;
    const auto [it, added] = m_locationIndex.try_emplace(
        std::string(codeLocation), static_cast<std::uint32_t>(m_locations.size()));
    if (added)
        m_locations.emplace_back(codeLocation);
    return it->second;
}

void AwaitedFrames::forgetUnusedLocations()
{
    std::vector<std::uint32_t> renumbered(m_locations.size(), UINT32_MAX);
    std::vector<std::string> kept;
    m_locationIndex.clear();
    for (Run& run : m_runs) {
        std::uint32_t& to = renumbered[run.location];
        if (to == UINT32_MAX) {
            to = static_cast<std::uint32_t>(kept.size());
            m_locationIndex.emplace(m_locations[run.location], to);
            kept.push_back(std::move(m_locations[run.location]));
        }
        run.location = to;
    }
    m_locations = std::move(kept);
}

void AwaitedFrames::note(std::string_view codeLocation)
{
    if (!m_complete)
        return;
    if (m_locations.size() == kMaxLocations &&
        !m_locationIndex.contains(std::string(codeLocation))) {
        *this = AwaitedFrames{}; // its memory goes: these executions stay counted as read
        m_complete = false;
        return;
    }
    const std::uint32_t location = locationIndex(codeLocation);
    if (!m_runs.empty() && m_runs.back().location == location)
        ++m_runs.back().executions;
    else
        m_runs.push_back({location, 1});
}

std::uint64_t AwaitedFrames::executions() const
{
    std::uint64_t total = 0;
    for (const Run& run : m_runs)
        total += run.executions;
    return total;
}

void AwaitedFrames::save(ArchiveWriter& w) const
{
    w.put<std::uint8_t>(m_complete);
    w.count(m_locations.size());
    for (const std::string& location : m_locations)
        w.put(location);
    w.count(m_runs.size());
    for (const Run& run : m_runs) {
        w.put(run.location);
        w.put(run.executions);
    }
}

bool AwaitedFrames::load(ArchiveReader& r, std::uint64_t counted)
{
    *this = {};
    m_complete = r.getBool();
    const std::size_t locations = r.count(8);
    if (locations > kMaxLocations)
        return false;
    for (std::size_t i = 0; i < locations && r.ok(); ++i) {
        std::string location = r.getString();
        if (!m_locationIndex.try_emplace(location, static_cast<std::uint32_t>(i)).second)
            return false; // each location is kept once
        m_locations.push_back(std::move(location));
    }
    const std::size_t runs = r.count(sizeof(Run::location) + sizeof(Run::executions));
    m_runs.reserve(runs);
    for (std::size_t i = 0; i < runs && r.ok(); ++i) {
        const Run run{r.get<std::uint32_t>(), r.get<std::uint64_t>()};
        if (run.location >= m_locations.size() || run.executions == 0)
            return false;
        m_runs.push_back(run);
    }
    return r.ok() && (m_complete ? executions() == counted : m_runs.empty());
}

} // namespace nanscope::core
