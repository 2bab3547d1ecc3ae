// SPDX-License-Identifier: GPL-3.0-or-later
#include "executiondescription.hpp"

#include "nanscope/items/firstexecution.hpp"
#include "nanscope/items/fromstd.hpp"
#include "nanscope/items/healthformat.hpp"

#include <QDateTime>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <set>

namespace nanscope::views {

using items::fromStd;

namespace {

constexpr std::size_t kMaxIdsShown = 16;
constexpr std::size_t kMaxValuesShown = 8;

QString idList(const std::vector<std::int64_t>& ids)
{
    if (ids.empty())
        return QStringLiteral("none");
    QStringList shown;
    for (std::size_t i = 0; i < ids.size() && i < kMaxIdsShown; ++i)
        shown << QString::number(ids[i]);
    QString text = QStringLiteral("%1 (%2)").arg(
        ids.size() == 1 ? QStringLiteral("1 tensor") : QStringLiteral("%1 tensors").arg(ids.size()),
        shown.join(QStringLiteral(", ")));
    if (ids.size() > kMaxIdsShown)
        text.insert(text.size() - 1, QStringLiteral(", …"));
    return text;
}

QString shapeText(const std::vector<std::int64_t>& shape)
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims << QString::number(d);
    return u'[' + dims.join(QStringLiteral(", ")) + u']';
}

QString valuesText(const core::TensorValue& value)
{
    if (!value.numeric || value.values.empty())
        return {};
    QStringList shown;
    for (std::size_t i = 0; i < value.values.size() && i < kMaxValuesShown; ++i)
        shown << QString::number(value.values[i], 'g', 6);
    if (value.elementCount > kMaxValuesShown)
        shown << QStringLiteral("… (%1 values)").arg(value.elementCount);
    return shown.join(QStringLiteral(", "));
}

QString wallTimeText(double wallTime, double firstWallTime)
{
    // A record may hold any double: converting one far outside the calendar (or NaN) to an
    // integer is undefined, so only years 1 to 9999 are shown as dates.
    if (!(std::fabs(wallTime) < 253402300800.0))
        return QStringLiteral("not a time (%1)").arg(QString::number(wallTime));
    const auto ms = static_cast<qint64>(wallTime * 1000.0);
    const QString clock =
        QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    return QStringLiteral("%1 (+%2 s since the first execution)")
        .arg(clock, QString::number(wallTime - firstWallTime, 'f', 3));
}

QString digestWords(core::HealthDigest digest)
{
    if (!digest.known())
        return QStringLiteral("not recorded");
    if (!digest.nonFinite())
        return QStringLiteral("all outputs finite");
    return QStringLiteral("non-finite outputs: ") + items::nonFiniteKinds(digest);
}

} // namespace

bool isFunctionCall(std::string_view opType, std::string_view graphId)
{
    return !graphId.empty() || opType.starts_with("__inference_") ||
           opType.starts_with("__forward_") || opType.starts_with("__backward_");
}

QString ExecutionDescription::toText() const
{
    QStringList lines{title};
    for (const auto& [name, value] : fields)
        lines << name + QStringLiteral(": ") + value;
    for (const Output& output : outputs) {
        QString line = QStringLiteral("Output slot %1: %2").arg(output.slot).arg(output.summary);
        if (!output.type.isEmpty())
            line += QStringLiteral(" (") + output.type + u')';
        if (!output.values.isEmpty())
            line += QStringLiteral("; values ") + output.values;
        lines << line;
    }
    return lines.join(u'\n');
}

ExecutionDescription describeExecution(const core::Snapshot& snapshot, std::size_t host,
                                       std::uint64_t index)
{
    ExecutionDescription d;
    const core::ExecutionDigest digest = snapshot.hostExecution(host, index);
    d.title = host == 0 ? QStringLiteral("Execution #%1: %2").arg(index).arg(fromStd(digest.opType))
                        : QStringLiteral("Execution #%1 of host %2: %3")
                              .arg(index)
                              .arg(fromStd(snapshot.layout().fileSets[host].hostName),
                                   fromStd(digest.opType));
    const core::ReadResult<core::ExecutionDetails> details =
        snapshot.readHostExecution(host, index);
    if (!details) {
        d.fields.emplace_back(QStringLiteral("Error"),
                              QStringLiteral("the record could not be read: ") +
                                  QString::fromStdString(details.error));
        return d;
    }
    const core::ExecutionDetails& e = *details;
    // Graph and device names are read from the first host's files only: another host's ids
    // would name whatever the first host declared under them, so they are shown as ids.
    const core::GraphTable* names = host == 0 ? &snapshot.graphs() : nullptr;
    const auto deviceName = [names](std::int32_t id) {
        const std::string_view name = names ? names->deviceName(id) : std::string_view();
        return name.empty() ? QStringLiteral("device %1").arg(id) : fromStd(name);
    };
    const bool function = isFunctionCall(e.opType, e.graphId);
    d.fields.emplace_back(QStringLiteral("Op type"), QString::fromStdString(e.opType));
    if (function) {
        QString graph = QStringLiteral("function call");
        if (!e.graphId.empty()) {
            const auto found = names ? names->findGraph(e.graphId) : std::nullopt;
            const QString name =
                found ? QString::fromStdString(names->graph(*found).name) : QString();
            graph = QStringLiteral("function call of graph %1 (id %2)")
                        .arg(name.isEmpty() ? QStringLiteral("(unnamed)") : u'“' + name + u'”',
                             QString::fromStdString(e.graphId));
        }
        d.fields.emplace_back(QStringLiteral("Kind"), graph);
    } else {
        d.fields.emplace_back(QStringLiteral("Kind"), QStringLiteral("eager op"));
    }
    d.fields.emplace_back(QStringLiteral("Health"), digestWords(digest.health));
    if (const auto& origin = snapshot.origin();
        host == 0 && origin && origin->event == core::EventRef{core::EventSource::Eager, index})
        d.fields.emplace_back(QStringLiteral("Root cause"),
                              QStringLiteral("the first non-finite value appeared here"));
    d.fields.emplace_back(QStringLiteral("Inputs"), idList(e.inputTensorIds));
    d.fields.emplace_back(QStringLiteral("Outputs"), idList(e.outputTensorIds));
    std::set<std::int32_t> deviceIds(e.outputTensorDeviceIds.begin(),
                                     e.outputTensorDeviceIds.end());
    QStringList devices;
    for (const std::int32_t id : deviceIds)
        devices << deviceName(id);
    if (!devices.isEmpty())
        d.fields.emplace_back(QStringLiteral("Devices"), devices.join(QStringLiteral(", ")));
    d.fields.emplace_back(QStringLiteral("Debug mode"), fromStd(core::toString(e.mode)));
    if (!e.hostName.empty())
        d.fields.emplace_back(QStringLiteral("Host"), QString::fromStdString(e.hostName));
    d.fields.emplace_back(QStringLiteral("Wall time"),
                          wallTimeText(e.wallTime, items::firstExecutionWallTime(snapshot)));

    const std::size_t slots = std::max({static_cast<std::size_t>(std::max(e.numOutputs, 0)),
                                        e.outputTensorIds.size(), e.outputHealth.size()});
    for (std::size_t k = 0; k < slots; ++k) {
        ExecutionDescription::Output output;
        output.slot = static_cast<int>(k);
        if (k < e.outputHealth.size()) {
            output.health = e.outputHealth[k];
            output.summary = QString::fromStdString(output.health.describe());
        } else {
            output.summary = e.mode == core::DebugMode::NoTensor
                                 ? QStringLiteral("not recorded (NO_TENSOR mode)")
                                 : QStringLiteral("not recorded");
        }
        QStringList type;
        if (const QString name = items::dtypeText(output.health.dtype); !name.isEmpty())
            type << name;
        if (output.health.rank >= 0)
            type << QStringLiteral("%1-D").arg(output.health.rank);
        if (k < e.fullTensors.size()) {
            const core::TensorValue& value = e.fullTensors[k];
            if (output.health.dtype == DType::Invalid && value.dtype != DType::Invalid)
                type.prepend(items::dtypeText(value.dtype));
            type << QStringLiteral("shape ") + shapeText(value.shape);
            output.values = valuesText(value);
        }
        output.type = type.join(QStringLiteral(", "));
        if (k < e.outputTensorIds.size())
            output.tensorId = QString::number(e.outputTensorIds[k]);
        if (k < e.outputTensorDeviceIds.size())
            output.device = deviceName(e.outputTensorDeviceIds[k]);
        d.outputs.push_back(std::move(output));
    }
    return d;
}

widgets::BarSegments healthSegments(const core::TensorHealth& health)
{
    const QColor nan(0xd9, 0x30, 0x25);
    const QColor negInf(0xe8, 0x71, 0x0a);
    const QColor posInf(0xf9, 0xab, 0x00);
    const QColor finite(0xbd, 0xc1, 0xc6);
    using Detail = core::TensorHealth::Detail;
    switch (health.detail) {
    case Detail::None:
        return {};
    case Detail::Flag:
        return {{1, health.nonFinite ? nan : finite}};
    case Detail::Counts: {
        const double rest =
            health.size - health.negativeInfinity - health.positiveInfinity - health.nan;
        return {{rest, finite},
                {health.negativeInfinity, negInf},
                {health.positiveInfinity, posInf},
                {health.nan, nan}};
    }
    case Detail::Full:
        break;
    }
    return {{health.negativeFinite, QColor(0x9a, 0xa0, 0xa6)},
            {health.zero, QColor(0xda, 0xdc, 0xe0)},
            {health.positiveFinite, finite},
            {health.negativeInfinity, negInf},
            {health.positiveInfinity, posInf},
            {health.nan, nan}};
}

} // namespace nanscope::views
