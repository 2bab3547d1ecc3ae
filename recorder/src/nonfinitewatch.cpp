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

std::optional<NonFiniteOp> NonFiniteWatch::suspectOp(std::uint32_t index) const
{
    if (index == 0)
        return std::nullopt;
    return m_suspects[index - 1];
}

bool NonFiniteWatch::scalesLoss(const WatchedEvent& event) const
{
    if (!isLossScaling(event.opType))
        return false;
    if (std::any_of(event.inputs.begin(), event.inputs.end(),
                    [this](std::int64_t key) { return m_scales.count(key) > 0; }))
        return true;
    // Before the first update names the scale: the multiplication is the scaler's scale().
    auto fromScaler = [](const std::vector<CodeLocation>& stack) {
        return std::any_of(stack.begin(), stack.end(), [](const CodeLocation& frame) {
            return isLossScalingFrame(frame.file, frame.function);
        });
    };
    if (event.internedStack)
        if (auto stack = m_stacks.locations(*event.internedStack))
            return fromScaler(**stack);
    return fromScaler(event.stack);
}

void NonFiniteWatch::followScaling(const WatchedEvent& event)
{
    if (isLossScaleUpdate(event.opType) && !event.inputs.empty())
        m_scales.insert(event.inputs.front());
    if (scalesLoss(event))
        m_scaling = true;
}

NonFiniteWatch::Reads NonFiniteWatch::reads(const WatchedEvent& event)
{
    Reads r;
    const bool check = isLossScalerCheck(event.opType);
    for (const std::int64_t key : event.inputs) {
        const auto it = m_values.find(key);
        if (it == m_values.end())
            continue;
        Value& value = it->second;
        if (value.caught) {
            if (!r.caughtRead)
                r.caughtSuspect = value.suspect;
            r.caughtRead = true;
        } else if (value.intended) {
            r.intended |= value.kinds;
        } else if (value.scaled) {
            if (!r.scaledRead)
                r.scaledSuspect = value.suspect;
            r.scaledRead = true;
            r.scaled |= value.kinds;
        } else {
            if (!r.plainRead)
                r.plainSuspect = value.suspect;
            r.plainRead = true;
            r.plain |= value.kinds;
        }
        if (check && value.scaled)
            value.caught = true;
    }
    return r;
}

bool NonFiniteWatch::inspect(const WatchedEvent& event)
{
    std::lock_guard lock(m_mutex);
    if (m_stop) {
        ++m_stop->eventsLate;
        return false;
    }
    followScaling(event);
    const Reads in = reads(event);
    if (isLossScalerCheck(event.opType)) {
        m_scaling = false; // what it read is caught (reads()); it writes in place, unrecorded
        if (!in.scaledRead) {
            m_skippedSteps = 0; // the scaler found the gradients finite: it recovered
            return false;
        }
        if (m_skippedSteps++ == 0)
            m_firstSkipped = in.scaledSuspect;
        if (m_skippedSteps < kMaxLossScalingSkips)
            return false;
        // No overflow of loss scaling lasts this long: the scale would have shrunk by 2^32.
        if (auto origin = suspectOp(m_firstSkipped)) {
            stopAt(std::move(*origin), describe(event, in.scaled),
                   "caught in each of " + std::to_string(kMaxLossScalingSkips) +
                       " steps in a row: a lasting fault, not loss scaling's passing overflow");
            return true;
        }
        return false;
    }
    // What the scaler caught is read again: the step it should have skipped went on.
    if (in.caughtRead && !isConstantWriter(event.opType) && !consumesNoValue(event.opType)) {
        if (auto origin = suspectOp(in.caughtSuspect)) {
            stopAt(std::move(*origin), describe(event, kUnknownKind),
                   "read after the loss scaler had caught it (the step was not skipped)");
            return true;
        }
    }
    if (takesValueOut(event.opType) && (in.plainRead || in.scaledRead)) {
        if (auto origin = suspectOp(in.plainRead ? in.plainSuspect : in.scaledSuspect)) {
            stopAt(std::move(*origin), describe(event, in.plain | in.scaled));
            return true;
        }
    }
    return inspectOutputs(event, in);
}

bool NonFiniteWatch::inspectOutputs(const WatchedEvent& event, const Reads& in)
{
    const std::uint8_t suspectIn = in.plain | in.scaled;
    // Values made while the loss is scaled, or from scaled ones, are the scaler's to catch
    // unless a suspect of the program's own came in.
    const bool scaled = (m_scaling || in.scaledRead) && !in.plainRead;
    const std::uint32_t suspect = in.plainRead ? in.plainSuspect : in.scaledSuspect;
    for (std::size_t i = 0; i < event.outputs.size() && i < event.kinds.size(); ++i) {
        const std::uint8_t kinds = event.kinds[i];
        const std::int64_t key = event.outputs[i];
        if (kinds & kUnsummarised)
            continue;
        if (kinds == 0) {
            m_values.erase(key); // written over with finite values (in place, or the next step)
            continue;
        }
        const std::uint8_t carried = in.intended | suspectIn;
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
            remember(key, {.kinds = kinds,
                           .intended = suspectIn == 0,
                           .suspect = suspect,
                           .scaled = suspectIn != 0 && scaled});
            continue;
        }
        if ((made & (nonfinite::NaN | kUnknownKind)) && !scaled) {
            // NaN from a suspect's infinities names the suspect; from intended ones (−∞ · 0, a
            // row masked entirely) or from finite values, this op made it.
            if (auto origin = in.plainRead ? suspectOp(in.plainSuspect) : std::nullopt)
                stopAt(std::move(*origin), describe(event, kinds));
            else
                stopAt(describe(event, kinds), std::nullopt);
            return true;
        }
        // New infinities (or, while the loss is scaled, anything new): a suspect. Made from a
        // suspect's values (−∞ negated, a scaled ∞ made NaN), they are still its.
        const bool fromSuspect = in.plainRead || in.scaledRead;
        std::uint32_t index = fromSuspect ? suspect : 0;
        if (!fromSuspect && m_suspects.size() < kMaxSuspects) {
            m_suspects.push_back(describe(event, kinds));
            index = static_cast<std::uint32_t>(m_suspects.size());
        }
        remember(key, {.kinds = kinds, .intended = false, .suspect = index, .scaled = scaled});
    }
    return false;
}

void NonFiniteWatch::stopAt(NonFiniteOp origin, std::optional<NonFiniteOp> stoppedAt,
                            std::string how)
{
    NonFiniteStop stop{
        .origin = std::move(origin), .stoppedAt = std::move(stoppedAt), .logdir = m_logdir};
    stop.message = "NaNscope stopped the recording at the first non-finite value that is not "
                   "intended: " +
                   describeOp(stop.origin) + " made " + stop.origin.kinds;
    if (stop.stoppedAt) {
        if (how.empty())
            how = takesValueOut(stop.stoppedAt->opType) ? "took out of the record"
                                                        : "turned into " + stop.stoppedAt->kinds;
        stop.message += ", which " + describeOp(*stop.stoppedAt) + " " + how;
        stop.stoppedHow = std::move(how);
    }
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
