// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/core/snapshot.hpp"

#include "eventparse.hpp"
#include "expectedfile.hpp"
#include "healthrules.hpp"
#include "indexstate.hpp"
#include "loaders.hpp"
#include "originanalysis.hpp"
#include "tensorproto.hpp"

#include <algorithm>

namespace nanscope::core {
namespace {

const LogdirLayout& emptyLayout()
{
    static const LogdirLayout layout;
    return layout;
}

// The value of a payload tensor the way TensorFlow's reader returns it.
struct ParsedTensor
{
    std::string bytes; // what `view` points into
    TensorProtoView view;
    bool parsed = false;
    std::vector<double> values; // when parsed as numbers
    bool numeric = false;
};

// Summary vectors (a few doubles, never more than kTensorValuesKept, and within what is left of
// `elementBudget`, the values all tensors of one record may still expand to) are decoded whole;
// a FULL_TENSOR tensor is not: its health is counted on its bytes and only kTensorValuesKept of
// its values are converted. A read on the GUI thread thus costs one pass over the record's bytes.
ParsedTensor parseTensor(std::string bytes, DebugMode mode, std::uint64_t& elementBudget)
{
    ParsedTensor t;
    t.bytes = std::move(bytes);
    t.parsed = parseTensorProto(t.bytes, t.view);
    if (t.parsed && mode != DebugMode::FullTensor && mode != DebugMode::NoTensor) {
        std::string ignored;
        t.numeric = readAllDoubles(t.view, t.values, &ignored,
                                   std::min<std::uint64_t>(kTensorValuesKept, elementBudget));
        elementBudget -= std::min<std::uint64_t>(elementBudget, t.values.size());
    }
    return t;
}

// Doubles a record's tensors may expand to in memory: 8 bytes each, twice while a vector grows.
std::uint64_t elementBudgetOf(std::uint64_t maxDecodedBytes)
{
    return maxDecodedBytes / 16;
}

ExecutionDigest digestOf(const Snapshot::Data& data, const ExecutionColumns& x, std::uint64_t i)
{
    ExecutionDigest d;
    d.wallTime = x.wallTime[i];
    d.offset = x.offset[i];
    d.opType = data.strings[x.opType[i]];
    d.graphId = data.strings[x.graphId[i]];
    d.modulePath = data.strings[x.module[i]];
    d.mode = static_cast<DebugMode>(x.mode[i]);
    d.health.bits = x.health[i];
    d.numInputIds = x.inputCount[i];
    d.numOutputIds = x.outputCount[i];
    d.numTensorValues = x.healthCount[i];
    return d;
}

TensorHealth healthOf(DebugMode mode, const ParsedTensor& t)
{
    if (!t.parsed || mode == DebugMode::NoTensor)
        return {};
    if (mode == DebugMode::FullTensor)
        return fullTensorHealth(t.view);
    if (!t.numeric)
        return {};
    bool malformed = false;
    return healthFromSummary(mode, t.values, t.view.elementCount, malformed);
}

} // namespace

Snapshot::Snapshot(std::unique_ptr<Data> data) : m_data(std::move(data)) {}
Snapshot::~Snapshot() = default;

const LogdirLayout& Snapshot::layout() const
{
    return m_data->layout ? *m_data->layout : emptyLayout();
}

std::uint64_t Snapshot::generation() const
{
    return m_data->generation;
}

bool Snapshot::complete() const
{
    return m_data->complete;
}

const std::vector<Diagnostic>& Snapshot::diagnostics() const
{
    return m_data->diagnostics;
}

std::uint64_t Snapshot::indexBytes() const
{
    std::uint64_t alerts =
        (m_data->traceAlerts.size() + m_data->executionAlerts.size()) * sizeof(Alert);
    std::uint64_t otherHosts = 0;
    for (const auto& columns : m_data->otherHostExecutions)
        otherHosts += columns.bytes();
    return m_data->traces.bytes() + m_data->executions.bytes() + otherHosts + alerts;
}

std::uint64_t Snapshot::traceCount() const
{
    return m_data->traces.size();
}

std::uint64_t Snapshot::executionCount() const
{
    return m_data->executions.size();
}

const GraphTable& Snapshot::graphs() const
{
    return *m_data->graphs;
}

const CodeTable& Snapshot::code() const
{
    return *m_data->code;
}

DebugModeSet Snapshot::traceModes() const
{
    return m_data->traceModes;
}

DebugModeSet Snapshot::executionModes() const
{
    return m_data->executionModes;
}

TraceDigest Snapshot::trace(std::uint64_t i) const
{
    const auto& t = m_data->traces;
    TraceDigest d;
    d.wallTime = t.wallTime[i];
    d.fileIndex = m_data->traceFileIndex(i);
    d.offset = t.offset[i];
    d.op = t.op[i];
    d.outputSlot = t.slot[i];
    d.mode = static_cast<DebugMode>(t.mode[i]);
    d.health.bits = t.health[i];
    d.device = t.device[i];
    return d;
}

void Snapshot::releaseMappedPages() const
{
    if (m_data->spill)
        m_data->spill->releaseAll();
}

OpId Snapshot::traceOp(std::uint64_t i) const
{
    return m_data->traces.op[i];
}

std::uint16_t Snapshot::traceDevice(std::uint64_t i) const
{
    return m_data->traces.device[i];
}

std::uint32_t Snapshot::traceFileIndex(std::uint64_t i) const
{
    return m_data->traceFileIndex(i);
}

const std::vector<std::string>& Snapshot::traceDevices() const
{
    return m_data->traceDevices;
}

ExecutionDigest Snapshot::execution(std::uint64_t i) const
{
    return digestOf(*m_data, m_data->executions, i);
}

std::uint64_t Snapshot::hostExecutionCount(std::size_t host) const
{
    const ExecutionColumns* x = m_data->executionsOf(host);
    return x ? x->size() : 0;
}

ExecutionDigest Snapshot::hostExecution(std::size_t host, std::uint64_t index) const
{
    return digestOf(*m_data, *m_data->executionsOf(host), index);
}

std::vector<std::int64_t> Snapshot::executionInputIds(std::uint64_t i) const
{
    const auto& x = m_data->executions;
    std::vector<std::int64_t> ids(x.inputCount[i]);
    for (std::size_t k = 0; k < ids.size(); ++k)
        ids[k] = x.tensorIds[x.idsBegin[i] + k];
    return ids;
}

std::vector<std::int64_t> Snapshot::executionOutputIds(std::uint64_t i) const
{
    const auto& x = m_data->executions;
    std::vector<std::int64_t> ids(x.outputCount[i]);
    for (std::size_t k = 0; k < ids.size(); ++k)
        ids[k] = x.tensorIds[x.idsBegin[i] + x.inputCount[i] + k];
    return ids;
}

std::vector<HealthDigest> Snapshot::executionOutputHealth(std::uint64_t i) const
{
    const auto& x = m_data->executions;
    std::vector<HealthDigest> health(x.healthCount[i]);
    for (std::size_t k = 0; k < health.size(); ++k)
        health[k].bits = x.outputHealth[x.healthBegin[i] + k];
    return health;
}

double Snapshot::wallTime(EventRef event) const
{
    return event.source == EventSource::Graph ? m_data->traces.wallTime[event.index]
                                              : m_data->executions.wallTime[event.index];
}

HealthDigest Snapshot::health(EventRef event) const
{
    // One column, not the whole digest: scans call this for every event.
    return HealthDigest{event.source == EventSource::Graph
                            ? m_data->traces.health[event.index]
                            : m_data->executions.health[event.index]};
}

std::uint64_t Snapshot::alertCount() const
{
    return m_data->traceAlerts.size() + m_data->executionAlerts.size();
}

Alert Snapshot::alert(std::uint64_t k) const
{
    const auto traces = m_data->traceAlerts.size();
    return k < traces ? m_data->traceAlerts[k] : m_data->executionAlerts[k - traces];
}

const std::vector<std::uint64_t>& Snapshot::alertsByWallTime() const
{
    std::call_once(m_data->alertsByTimeOnce, [this] {
        auto& order = m_data->alertsByTime;
        order.resize(alertCount());
        for (std::uint64_t k = 0; k < order.size(); ++k)
            order[k] = k;
        std::stable_sort(order.begin(), order.end(), [this](std::uint64_t a, std::uint64_t b) {
            return wallTime(alert(a).event) < wallTime(alert(b).event);
        });
    });
    return m_data->alertsByTime;
}

const std::vector<TensorBoardStop>& Snapshot::tensorBoardStops() const
{
    return m_data->tensorBoardStops;
}

bool Snapshot::visibleToTensorBoard(EventRef event) const
{
    const Data& d = *m_data;
    if (event.source == EventSource::Eager)
        return event.index < d.executions.size() &&
               d.executions.offset[event.index] < d.executionTensorBoardStop;
    if (event.index >= d.traces.size())
        return false;
    const std::uint32_t file = d.traceFileIndex(event.index);
    return file >= d.traceFileTensorBoardStops.size() ||
           d.traces.offset[event.index] < d.traceFileTensorBoardStops[file];
}

std::uint64_t Snapshot::tensorBoardTraceCount() const
{
    const Data& d = *m_data;
    const auto& stops = d.traceFileTensorBoardStops;
    if (std::all_of(stops.begin(), stops.end(), [](auto s) { return s == Data::kNoStop; }))
        return traceCount();
    std::uint64_t count = 0;
    for (std::uint64_t i = 0; i < traceCount(); ++i)
        count += visibleToTensorBoard({EventSource::Graph, i}) ? 1 : 0;
    return count;
}

std::uint64_t Snapshot::tensorBoardExecutionCount() const
{
    // Offsets grow through the one executions file.
    const Data& d = *m_data;
    std::uint64_t low = 0;
    std::uint64_t high = d.executions.size();
    while (low < high) {
        const std::uint64_t mid = low + (high - low) / 2;
        if (d.executions.offset[mid] < d.executionTensorBoardStop)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

bool Snapshot::tensorBoardRaises(const Alert& alert) const
{
    const Data& d = *m_data;
    const std::uint64_t i = alert.event.index;
    std::uint8_t bits = 0;
    if (alert.event.source == EventSource::Graph) {
        if (i >= d.traces.size())
            return false;
        bits = d.traces.health[i];
    } else {
        const auto& x = d.executions;
        if (i >= x.size() || alert.outputSlot >= x.healthCount[i])
            return false;
        bits = x.outputHealth[x.healthBegin[i] + alert.outputSlot];
    }
    return (bits & health::NoAlert) == 0;
}

std::optional<Alert> Snapshot::tensorBoardFirstAlert() const
{
    for (std::uint64_t k = 0; k < alertCount(); ++k)
        if (const Alert a = alert(k); visibleToTensorBoard(a.event) && tensorBoardRaises(a))
            return a;
    return std::nullopt;
}

std::uint64_t Snapshot::tensorBoardAlertCount() const
{
    // InfNanMonitor checks its limit before each event, so one execution can push it past 1000.
    constexpr std::uint64_t kLimit = 1000;
    std::uint64_t count = 0;
    const auto& traces = m_data->traceAlerts;
    for (std::uint64_t k = 0; k < traces.size() && count < kLimit; ++k)
        count += visibleToTensorBoard(traces[k].event) && tensorBoardRaises(traces[k]) ? 1 : 0;
    const auto& alerts = m_data->executionAlerts;
    for (std::uint64_t k = 0; k < alerts.size() && count < kLimit;) {
        const std::uint64_t execution = alerts[k].event.index;
        const bool visible = visibleToTensorBoard(alerts[k].event);
        while (k < alerts.size() && alerts[k].event.index == execution) {
            count += visible && tensorBoardRaises(alerts[k]) ? 1 : 0;
            ++k;
        }
    }
    return count;
}

void Snapshot::analyse() const
{
    std::call_once(m_data->analysisOnce, [this] {
        Data& d = *m_data;
        AnalysisOptions options;
        options.keepWalk = d.keepWalk;
        PriorAnalysis prior;
        std::optional<intentwalk::WalkState> state;
        if (d.prior)
            state = d.prior->walk->take();
        if (state) {
            prior = {&d.prior->origin, d.prior->propagation, &*state};
            options.prior = &prior;
        }
        NonFiniteAnalysis a = analyseNonFinite(*this, d.expected, options);
        d.origin = std::move(a.origin);
        d.wentOn = a.extended != nullptr;
        d.propagation = a.extended
                            ? std::move(a.extended)
                            : std::make_shared<const KnownPropagation>(std::move(a.propagation));
        d.walk = std::move(a.walk);
        if (d.relay && d.walk)
            d.relay->offer(std::make_shared<const KnownAnalysis>(
                KnownAnalysis{.traces = d.traces.size(),
                              .executions = d.executions.size(),
                              .graphsRead = d.graphsRead,
                              .origin = d.origin,
                              .patterns = patternTexts(d.expected),
                              .propagation = d.propagation,
                              .walk = std::make_shared<const intentwalk::SavedWalkState>(d.walk)}));
    });
}

const std::optional<Origin>& Snapshot::origin() const
{
    if (m_data->known)
        return m_data->known->origin;
    analyse();
    return m_data->origin;
}

const Propagation& Snapshot::propagation() const
{
    if (m_data->known && m_data->known->propagation)
        return m_data->known->propagation->get();
    analyse();
    return m_data->propagation->get();
}

ReadResult<TraceDetails> Snapshot::readTrace(std::uint64_t index,
                                             std::uint64_t maxRecordBytes) const
{
    ReadResult<TraceDetails> result;
    if (index >= traceCount()) {
        result.error = "no graph execution trace #" + std::to_string(index);
        return result;
    }
    const TraceDigest digest = trace(index);
    const std::uint64_t limit = std::min(maxRecordBytes, m_data->maxRecordBytes);
    const auto record =
        readRecord(*m_data->files, m_data->traceFile(digest.fileIndex), digest.offset, limit);
    if (!record) {
        result.error = record.error;
        // Over the reader's own limit the record is unreadable; over the caller's only, later.
        result.deferred = record.deferred && limit < m_data->maxRecordBytes;
        return result;
    }
    if (!decodedEventBytes(*record, m_data->maxDecodedBytes)) {
        result.error =
            "trace #" + std::to_string(index) + ": " + overShare(m_data->maxDecodedBytes);
        return result;
    }
    tfdbg::DebugEvent event;
    if (!parseEvent(event, *record) ||
        event.what_case() != tfdbg::DebugEvent::kGraphExecutionTrace) {
        result.error =
            "the record of trace #" + std::to_string(index) + " is no longer a GraphExecutionTrace";
        return result;
    }
    const auto& t = event.graph_execution_trace();
    TraceDetails d;
    d.wallTime = event.wall_time();
    d.graphId = t.tfdbg_context_id();
    d.opName = t.op_name();
    d.outputSlot = t.output_slot();
    d.mode = debugModeFromWire(static_cast<std::uint64_t>(t.tensor_debug_mode()));
    d.deviceName = t.device_name();
    const GraphTable& g = graphs();
    if (digest.op < g.ops().size())
        d.opType = g.op(digest.op).type;
    if (const auto graph = g.findGraph(d.graphId))
        for (const GraphIndex i : g.chain(*graph))
            d.graphIds.push_back(g.graph(i).id);
    if (t.has_tensor_proto()) {
        std::uint64_t budget = elementBudgetOf(m_data->maxDecodedBytes);
        const ParsedTensor tensor =
            parseTensor(t.tensor_proto().SerializeAsString(), d.mode, budget);
        d.health = healthOf(d.mode, tensor);
        if (d.mode == DebugMode::FullTensor && tensor.parsed)
            d.fullTensor = toTensorValue(tensor.view);
        else if (d.mode != DebugMode::FullTensor && tensor.numeric && !tensor.values.empty())
            d.debugTensorValue = tensor.values;
    }
    result.value = std::move(d);
    return result;
}

ReadResult<ExecutionDetails> Snapshot::readExecution(std::uint64_t index) const
{
    return readHostExecution(0, index);
}

ReadResult<ExecutionDetails> Snapshot::readHostExecution(std::size_t host,
                                                         std::uint64_t index) const
{
    ReadResult<ExecutionDetails> result;
    if (index >= hostExecutionCount(host)) {
        result.error = "no execution #" + std::to_string(index) +
                       (host == 0 ? std::string() : " of host #" + std::to_string(host));
        return result;
    }
    const auto record = readRecord(*m_data->files, layout().fileSets[host].file(kExecutionSuffix),
                                   hostExecution(host, index).offset, m_data->maxRecordBytes);
    if (!record) {
        result.error = record.error;
        return result;
    }
    if (!decodedEventBytes(*record, m_data->maxDecodedBytes)) {
        result.error =
            "execution #" + std::to_string(index) + ": " + overShare(m_data->maxDecodedBytes);
        return result;
    }
    tfdbg::DebugEvent event;
    if (!parseEvent(event, *record) || event.what_case() != tfdbg::DebugEvent::kExecution) {
        result.error =
            "the record of execution #" + std::to_string(index) + " is no longer an Execution";
        return result;
    }
    const auto& e = event.execution();
    ExecutionDetails d;
    d.wallTime = event.wall_time();
    d.opType = e.op_type();
    d.numOutputs = std::clamp(e.num_outputs(), 0, kMaxOutputSlots);
    d.graphId = e.graph_id();
    d.inputTensorIds.assign(e.input_tensor_ids().begin(), e.input_tensor_ids().end());
    d.outputTensorIds.assign(e.output_tensor_ids().begin(), e.output_tensor_ids().end());
    d.outputTensorDeviceIds.assign(e.output_tensor_device_ids().begin(),
                                   e.output_tensor_device_ids().end());
    d.mode = debugModeFromWire(static_cast<std::uint64_t>(e.tensor_debug_mode()));
    d.hostName = e.code_location().host_name();
    d.stackFrameIds.assign(e.code_location().stack_frame_ids().begin(),
                           e.code_location().stack_frame_ids().end());
    if (e.has_framework_context()) {
        const auto& c = e.framework_context();
        d.modulePath = c.module_path();
        d.forwardOpType = c.forward_op_type();
        d.forwardModulePath = c.forward_module_path();
        d.forwardStackFrameIds.assign(c.forward_code_location().stack_frame_ids().begin(),
                                      c.forward_code_location().stack_frame_ids().end());
    }
    std::vector<std::optional<std::vector<double>>> values;
    std::uint64_t budget = elementBudgetOf(m_data->maxDecodedBytes);
    for (const auto& proto : e.tensor_protos()) {
        ParsedTensor tensor = parseTensor(proto.SerializeAsString(), d.mode, budget);
        d.outputHealth.push_back(healthOf(d.mode, tensor));
        if (d.mode == DebugMode::FullTensor) {
            d.fullTensors.push_back(tensor.parsed ? toTensorValue(tensor.view) : TensorValue{});
            values.emplace_back(std::nullopt);
        } else if (tensor.numeric) {
            values.emplace_back(std::move(tensor.values));
        } else {
            values.emplace_back(std::nullopt);
        }
    }
    if (d.mode != DebugMode::NoTensor && d.mode != DebugMode::FullTensor && !values.empty())
        d.debugTensorValues = std::move(values);
    result.value = std::move(d);
    return result;
}

TensorHealth Snapshot::readHealth(EventRef event, std::uint32_t outputSlot) const
{
    if (event.source == EventSource::Graph) {
        const auto details = readTrace(event.index);
        return details ? details->health : TensorHealth{};
    }
    const auto details = readExecution(event.index);
    if (!details || outputSlot >= details->outputHealth.size())
        return {};
    return details->outputHealth[outputSlot];
}

ReadResult<std::vector<std::string>> Snapshot::readSourceLines(std::size_t fileIndex) const
{
    ReadResult<std::vector<std::string>> result;
    const auto& files = code().files();
    if (fileIndex >= files.size() || layout().empty()) {
        result.error = "no source file #" + std::to_string(fileIndex);
        return result;
    }
    const auto record = readRecord(*m_data->files, m_data->mainFile(kSourceFilesSuffix),
                                   files[fileIndex].offset, m_data->maxRecordBytes);
    if (!record) {
        result.error = record.error;
        return result;
    }
    if (!decodedEventBytes(*record, m_data->maxDecodedBytes)) {
        result.error =
            "source file #" + std::to_string(fileIndex) + ": " + overShare(m_data->maxDecodedBytes);
        return result;
    }
    tfdbg::DebugEvent event;
    if (!parseEvent(event, *record) || event.what_case() != tfdbg::DebugEvent::kSourceFile) {
        result.error = "the record of source file #" + std::to_string(fileIndex) +
                       " is no longer a SourceFile";
        return result;
    }
    const auto& lines = event.source_file().lines();
    result.value = std::vector<std::string>(lines.begin(), lines.end());
    return result;
}

std::vector<ResolvedFrame> Snapshot::resolveStack(const std::vector<std::string>& frameIds) const
{
    std::vector<ResolvedFrame> frames;
    frames.reserve(frameIds.size());
    for (const auto& id : frameIds)
        frames.push_back(code().resolve(id));
    return frames;
}

} // namespace nanscope::core
