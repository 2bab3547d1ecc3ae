// SPDX-License-Identifier: GPL-3.0-or-later
#include "randomprogram.hpp"

#include <algorithm>

namespace nanscope::test {
namespace {

namespace ev = events;

constexpr int kFull = 4;
constexpr double kSize = 8;

const std::vector<std::string> kGraphTypes = {"Placeholder", "Log",    "AddV2", "Softmax",
                                              "Fill",        "Empty",  "Shape", "Mul",
                                              "Identity",    "Select", "Exp",   "Relu"};
const std::vector<std::string> kEagerTypes = {
    "aten::add",         "aten::mul",   "aten::softmax",
    "aten::masked_fill", "aten::empty", "aten::size",
    "aten::log",         "aten::sum",   "aten::_amp_foreach_non_finite_check_and_unscale_",
    "aten::zero_",       "aten::exp",   "aten::_amp_update_scale_",
    "__inference_f"};

} // namespace

RandomProgram::RandomProgram(unsigned seed, const std::filesystem::path& dir)
    : m_random(seed), m_set(emptyRun(dir))
{
    m_set.append("graphs", ev::graph("g", "f"));
    m_ops = 4 + pick(10);
    for (int k = 0; k < m_ops; ++k) {
        std::vector<std::string> inputs;
        for (int i = 0; k > 0 && i < pick(3); ++i)
            inputs.push_back("op" + std::to_string(pick(k)) + ":0");
        m_set.append("graphs", ev::op("g", kGraphTypes[pick(kGraphTypes.size())],
                                      "op" + std::to_string(k), inputs, {k + 1}));
    }
}

void RandomProgram::addEvents(int count)
{
    for (int e = 0; e < count; ++e) {
        const double wallTime = 1.0 + m_events++;
        if (pick(2) == 0) {
            m_set.append(
                "graph_execution_traces",
                ev::trace(wallTime, "g", "op" + std::to_string(pick(m_ops)), 0, kFull, health(1)));
            continue;
        }
        std::vector<std::int64_t> inputs;
        for (int i = 0; !m_ids.empty() && i < pick(3); ++i)
            inputs.push_back(m_ids[pick(m_ids.size())]);
        // Now and then an id written again: the old value is overwritten.
        const std::int64_t output = !m_ids.empty() && pick(8) == 0
                                        ? m_ids[pick(m_ids.size())]
                                        : static_cast<std::int64_t>(m_ids.size() + 1000);
        m_ids.push_back(output);
        const std::string& type = kEagerTypes[pick(kEagerTypes.size())];
        m_set.append("execution", ev::execution(wallTime, type, inputs, {output}, kFull,
                                                {health(static_cast<double>(output))},
                                                type == "__inference_f" ? "g" : ""));
    }
}

int RandomProgram::pick(std::size_t n)
{
    return static_cast<int>(m_random() % std::max<std::size_t>(n, 1));
}

// Mostly finite; otherwise some -inf, +inf or NaN, alone or mixed.
tfdbg::TensorProto RandomProgram::health(double id)
{
    if (pick(3) != 0)
        return ev::fullHealth(id, kSize, 0, 0, 0, 0, 1, kSize - 1);
    const double negInf = pick(2) ? 1 : 0;
    const double posInf = pick(3) == 0 ? 1 : 0;
    const double nan = negInf + posInf == 0 || pick(3) == 0 ? 1 : 0;
    return ev::fullHealth(id, kSize, negInf, posInf, nan, 0, 0, kSize - negInf - posInf - nan);
}

} // namespace nanscope::test
