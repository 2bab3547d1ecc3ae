// SPDX-License-Identifier: Apache-2.0
#include "nonfinitewatch.hpp"

#include "internedstacks.hpp"

#include <algorithm>
#include <array>
#include <fstream>

namespace nanscope::detail {

namespace {

// Values remembered at once: a long run makes a mask every step, and an eager tensor's id is
// never reused, so the oldest are forgotten. A value forgotten only loses its explanation: an op
// that later carries it on looks like one that computed it.
constexpr std::size_t kMaxValues = std::size_t{1} << 16;
// Suspects described; past this, a suspect's NaN names the op that made the NaN.
constexpr std::size_t kMaxSuspects = 1024;

// What item() and its kin are called in the record: they take a value out of the program's
// tensors, so an infinity they read was neither absorbed nor turned into NaN where we can see.
constexpr std::array kValueTakers = {
    std::string_view{"aten::_local_scalar_dense"},
    std::string_view{"aten::item"},
};

bool takesValueOut(std::string_view opType)
{
    return std::find(kValueTakers.begin(), kValueTakers.end(), opType) != kValueTakers.end();
}

std::string kindsText(std::uint8_t kinds)
{
    if (kinds & kUnknownKind)
        return "non-finite values";
    return nonFiniteKindsText(kinds);
}

std::string describeOp(const NonFiniteOp& op)
{
    std::string text = op.opType;
    if (!op.opName.empty() && op.opName != op.opType)
        text += " (op " + op.opName + ")";
    if (!op.modulePath.empty())
        text += " in " + op.modulePath;
    if (!op.stack.empty()) {
        const CodeLocation& where = op.stack.back();
        text += " at " + where.file;
        if (where.line > 0)
            text += ":" + std::to_string(where.line);
        if (!where.function.empty())
            text += " (" + where.function + ")";
    }
    return text;
}

} // namespace

std::uint8_t summaryKinds(TensorDebugMode mode, std::span<const double> summary)
{
    auto at = [summary](std::size_t i) {
        return i < summary.size() ? summary[i] : 0.0;
    };
    std::uint8_t kinds = 0;
    auto add = [&kinds](double count, std::uint8_t bit) {
        if (count > 0)
            kinds |= bit;
    };
    switch (mode) {
    case TensorDebugMode::CurtHealth: // [id, any non-finite]
        add(at(1), kUnknownKind);
        break;
    case TensorDebugMode::ConciseHealth: // [id, size, -inf, +inf, nan]
        add(at(2), nonfinite::NegInf);
        add(at(3), nonfinite::PosInf);
        add(at(4), nonfinite::NaN);
        break;
    case TensorDebugMode::FullHealth: // [id, device, dtype, rank, size, -inf, +inf, nan, …]
        add(at(5), nonfinite::NegInf);
        add(at(6), nonfinite::PosInf);
        add(at(7), nonfinite::NaN);
        break;
    default:
        break;
    }
    return kinds;
}

Result<std::vector<ExpectedPattern>> stopPatterns(const RecorderOptions& options)
{
    std::vector<ExpectedPattern> patterns;
    if (!options.stopAtFirstNonFinite)
        return patterns;
    switch (options.mode) {
    case TensorDebugMode::CurtHealth:
    case TensorDebugMode::ConciseHealth:
    case TensorDebugMode::FullHealth:
    case TensorDebugMode::FullTensor:
        break;
    default:
        return Status{ErrorCode::InvalidArgument,
                      "stopping at the first non-finite value needs a mode that reads values "
                      "(CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH or FULL_TENSOR), not " +
                          std::string(toString(options.mode))};
    }
    if (options.stopLagEvents < 0)
        return Status{ErrorCode::InvalidArgument, "stopLagEvents must be 0 or more"};
    for (const std::string& text : options.expectedNonFinite) {
        std::string error;
        auto pattern = ExpectedPattern::parse(text, &error);
        if (!pattern) {
            std::string message = "expected non-finite pattern \"";
            message += text;
            message += "\": ";
            message += error;
            return Status{ErrorCode::InvalidArgument, std::move(message)};
        }
        patterns.push_back(std::move(*pattern));
    }
    std::ifstream file(options.dumpRoot / std::string(kExpectedFileName), std::ios::binary);
    if (file) {
        std::string text(kMaxExpectedFileBytes, '\0');
        file.read(text.data(), static_cast<std::streamsize>(text.size()));
        text.resize(static_cast<std::size_t>(file.gcount()));
        for (auto& pattern : parseExpectedFile(text).patterns)
            patterns.push_back(std::move(pattern));
    }
    return patterns;
}

std::int64_t graphTensorKey(std::string_view graphId, std::string_view opName, int slot)
{
    std::uint64_t hash = 14695981039346656037ull; // FNV-1a
    auto mix = [&hash](std::string_view bytes) {
        for (const char c : bytes) {
            hash ^= static_cast<unsigned char>(c);
            hash *= 1099511628211ull;
        }
        hash ^= 0xff; // a separator no UTF-8 text holds
        hash *= 1099511628211ull;
    };
    mix(graphId);
    mix(opName);
    mix(std::to_string(slot));
    // Eager ids count up from 1 and never reach 2^62.
    return static_cast<std::int64_t>((hash >> 2) | (std::uint64_t{1} << 62));
}

NonFiniteWatch::NonFiniteWatch(std::vector<ExpectedPattern> expected, const InternedStacks& stacks,
                               std::filesystem::path logdir)
    : m_expected(std::move(expected)), m_stacks(stacks), m_logdir(std::move(logdir))
{}

const NonFiniteWatch::Value* NonFiniteWatch::find(std::int64_t key) const
{
    const auto it = m_values.find(key);
    return it == m_values.end() ? nullptr : &it->second;
}

void NonFiniteWatch::remember(std::int64_t key, Value value)
{
    auto [it, added] = m_values.insert_or_assign(key, value);
    if (!added)
        return;
    m_order.push_back(key);
    while (m_order.size() > kMaxValues) {
        m_values.erase(m_order.front());
        m_order.pop_front();
    }
}

bool NonFiniteWatch::expected(const WatchedEvent& event, std::uint8_t kinds) const
{
    // A mode that does not tell the kind is explained only by a pattern that allows any.
    const std::uint8_t needed = (kinds & kUnknownKind) ? nonfinite::Any : kinds;
    return std::any_of(m_expected.begin(), m_expected.end(), [&](const ExpectedPattern& p) {
        return (p.kinds & needed) == needed && p.matchesOp(event.opType, event.opName);
    });
}

NonFiniteOp NonFiniteWatch::describe(const WatchedEvent& event, std::uint8_t kinds) const
{
    NonFiniteOp op{.opType = event.opType,
                   .opName = event.opName,
                   .modulePath = event.modulePath,
                   .kinds = kindsText(kinds),
                   .stack = event.stack};
    if (event.internedStack)
        if (auto stack = m_stacks.locations(*event.internedStack))
            op.stack = **stack;
    return op;
}

bool NonFiniteWatch::inspect(const WatchedEvent& event)
{
    std::lock_guard lock(m_mutex);
    if (m_stop) {
        ++m_stop->eventsLate;
        return false;
    }
    std::uint8_t intendedIn = 0;
    std::uint8_t suspectIn = 0;
    std::uint32_t suspect = 0; // the first suspect read
    bool suspectRead = false;
    for (const std::int64_t key : event.inputs) {
        const Value* value = find(key);
        if (!value)
            continue;
        if (value->intended) {
            intendedIn |= value->kinds;
        } else {
            suspectIn |= value->kinds;
            if (!suspectRead)
                suspect = value->suspect;
            suspectRead = true;
        }
    }
    auto suspectOp = [this](std::uint32_t index) -> std::optional<NonFiniteOp> {
        if (index == 0)
            return std::nullopt;
        return m_suspects[index - 1];
    };
    if (suspectRead && takesValueOut(event.opType)) {
        if (auto origin = suspectOp(suspect)) {
            stopAt(std::move(*origin), describe(event, suspectIn));
            return true;
        }
    }
    for (std::size_t i = 0; i < event.outputs.size() && i < event.kinds.size(); ++i) {
        const std::uint8_t kinds = event.kinds[i];
        const std::int64_t key = event.outputs[i];
        if (kinds & kUnsummarised)
            continue;
        if (kinds == 0) {
            m_values.erase(key); // written over with finite values (in place, or the next step)
            continue;
        }
        const std::uint8_t carried = intendedIn | suspectIn;
        const bool constant = carried == 0 && isConstantWriter(event.opType);
        if (constant || expected(event, kinds)) {
            remember(key, {.kinds = kinds, .intended = true});
            continue;
        }
        // A mode that does not tell kinds apart sees no new kind in what an input had.
        const std::uint8_t made =
            (carried & kUnknownKind) || ((kinds & kUnknownKind) && carried != 0)
                ? std::uint8_t{0}
                : static_cast<std::uint8_t>(kinds & ~carried);
        if (made == 0) { // carried on unchanged: intended only if nothing suspect came in
            remember(key, {.kinds = kinds, .intended = suspectIn == 0, .suspect = suspect});
            continue;
        }
        if (made & (nonfinite::NaN | kUnknownKind)) {
            // NaN from a suspect's infinities names the suspect; from intended ones (−∞ · 0, a
            // row masked entirely) or from finite values, this op made it.
            if (auto origin = suspectRead ? suspectOp(suspect) : std::nullopt)
                stopAt(std::move(*origin), describe(event, kinds));
            else
                stopAt(describe(event, kinds), std::nullopt);
            return true;
        }
        // New infinities: a suspect. Made from a suspect's (−∞ negated), they are still its.
        std::uint32_t index = suspectRead ? suspect : 0;
        if (!suspectRead && m_suspects.size() < kMaxSuspects) {
            m_suspects.push_back(describe(event, kinds));
            index = static_cast<std::uint32_t>(m_suspects.size());
        }
        remember(key, {.kinds = kinds, .intended = false, .suspect = index});
    }
    return false;
}

void NonFiniteWatch::stopAt(NonFiniteOp origin, std::optional<NonFiniteOp> stoppedAt)
{
    NonFiniteStop stop{
        .origin = std::move(origin), .stoppedAt = std::move(stoppedAt), .logdir = m_logdir};
    stop.message = "NaNscope stopped the recording at the first non-finite value that is not "
                   "intended: " +
                   describeOp(stop.origin) + " made " + stop.origin.kinds;
    if (stop.stoppedAt)
        stop.message +=
            ", which " + describeOp(*stop.stoppedAt) +
            (takesValueOut(stop.stoppedAt->opType) ? " took out of the record"
                                                   : " turned into " + stop.stoppedAt->kinds);
    stop.message += ". Everything recorded up to it is in " + m_logdir.string() + ".";
    m_stop = std::move(stop);
}

bool NonFiniteWatch::stopped() const
{
    std::lock_guard lock(m_mutex);
    return m_stop.has_value();
}

std::optional<NonFiniteStop> NonFiniteWatch::stop() const
{
    std::lock_guard lock(m_mutex);
    return m_stop;
}

} // namespace nanscope::detail
