// SPDX-License-Identifier: Apache-2.0
// Tensors whose memory no op has written yet: the outputs of torch.empty and its kin, and what
// aliases them whole. torch's nn.Parameter makes its tensor by detaching the torch.empty it is
// given (a call that dispatch modes never see, and the C++ observer does): the detached alias
// holds the same unwritten bits, which are no value of the program's, so it is recorded
// without values, as the torch.empty is. Views are not followed: a kernel the observer cannot
// see (Triton, a C extension) may have written the memory by then. Thread-safe.
#pragma once

#include "nanscope/unwrittenops.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <span>
#include <string_view>
#include <unordered_set>

namespace nanscope::python {

class UnwrittenTensors
{
public:
    // Notes an op's effect; returns whether its outputs hold unwritten memory (and are to be
    // recorded without values).
    bool noteOp(std::string_view opType, std::span<const std::int64_t> inputIds,
                std::span<const std::int64_t> outputIds)
    {
        const std::lock_guard lock(m_mutex);
        if (writesNoValues(opType)) {
            if (m_ids.size() + outputIds.size() > kMaxTracked)
                m_ids.clear(); // forgotten ones are then summarised, as before
            m_ids.insert(outputIds.begin(), outputIds.end());
            return false; // the recorder leaves these unsummarised by their op type
        }
        if (m_ids.empty())
            return false;
        const bool aliasOfUnwritten =
            (opType == "aten::detach" || opType == "aten::alias") &&
            std::any_of(inputIds.begin(), inputIds.end(),
                        [this](std::int64_t id) { return m_ids.contains(id); });
        for (const std::int64_t id : outputIds) {
            if (aliasOfUnwritten)
                m_ids.insert(id);
            else
                m_ids.erase(id); // written by this op
        }
        return aliasOfUnwritten;
    }

    void clear()
    {
        const std::lock_guard lock(m_mutex);
        m_ids.clear();
    }

private:
    static constexpr std::size_t kMaxTracked = 4096;
    std::mutex m_mutex;
    std::unordered_set<std::int64_t> m_ids;
};

} // namespace nanscope::python
