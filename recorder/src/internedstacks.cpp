// SPDX-License-Identifier: Apache-2.0
#include "internedstacks.hpp"

namespace nanscope::detail {

Result<StackId> InternedStacks::intern(CodeLocations& locations,
                                       std::span<const CodeLocation> stack)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stacks.size() >= Recorder::kMaxInternedStacks)
            return Status{ErrorCode::Unsupported,
                          "the recorder keeps " + std::to_string(Recorder::kMaxInternedStacks) +
                              " interned stacks; record further stacks with their frames"};
    }
    auto ids = locations.frameIds(stack);
    if (!ids)
        return ids.status();
    auto frames = std::make_shared<const std::vector<std::string>>(std::move(*ids));
    auto kept = m_keepLocations
                    ? std::make_shared<const std::vector<CodeLocation>>(stack.begin(), stack.end())
                    : std::make_shared<const std::vector<CodeLocation>>();
    std::lock_guard lock(m_mutex);
    if (m_stacks.size() >= Recorder::kMaxInternedStacks)
        return Status{ErrorCode::Unsupported, "the recorder's interned stacks are full"};
    m_stacks.push_back({std::move(frames), std::move(kept)});
    return StackId{static_cast<std::uint32_t>(m_stacks.size() - 1)};
}

Result<InternedStacks::Interned> InternedStacks::entry(StackId id) const
{
    std::lock_guard lock(m_mutex);
    if (id.index >= m_stacks.size())
        return Status{ErrorCode::InvalidArgument,
                      "stack id " + std::to_string(id.index) + " was not given by internStack"};
    return m_stacks[id.index];
}

Result<InternedStacks::Frames> InternedStacks::frameIds(StackId id) const
{
    auto found = entry(id);
    if (!found)
        return found.status();
    return std::move(found->frames);
}

Result<InternedStacks::Locations> InternedStacks::locations(StackId id) const
{
    auto found = entry(id);
    if (!found)
        return found.status();
    return std::move(found->locations);
}

Result<InternedStacks::Frames> InternedStacks::shared(Result<std::vector<std::string>> ids)
{
    if (!ids)
        return ids.status();
    return Frames(std::make_shared<const std::vector<std::string>>(std::move(*ids)));
}

} // namespace nanscope::detail
