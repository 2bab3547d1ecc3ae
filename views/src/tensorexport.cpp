// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorexport.hpp"

#include "backgroundpool.hpp"
#include "nanscope/core/tensornpy.hpp"
#include "nanscope/items/healthformat.hpp"

#include <QCoreApplication>
#include <QSaveFile>

namespace nanscope::views {
namespace {

QThreadPool* exportPool()
{
    static QThreadPool* pool = newBackgroundPool(QStringLiteral("nanscope-tensor-export"), 1);
    return pool;
}

QString writeFile(const items::TensorPtr& tensor, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    std::string error;
    const bool written = core::writeNpy(
        *tensor,
        [&file](std::string_view piece) {
            return file.write(piece.data(), static_cast<qint64>(piece.size())) ==
                   static_cast<qint64>(piece.size());
        },
        &error);
    if (!written) {
        file.cancelWriting();
        return file.error() != QFileDevice::NoError ? file.errorString()
                                                    : QString::fromStdString(error);
    }
    return file.commit() ? QString() : file.errorString();
}

} // namespace

TensorExport::TensorExport(QObject* parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcherBase::finished, this,
            [this] { Q_EMIT finished(m_path, m_watcher.result()); });
}

TensorExport::~TensorExport()
{
    // The write holds its own reference to the tensor; the file is finished either way.
    m_watcher.waitForFinished();
}

bool TensorExport::start(items::TensorPtr tensor, const QString& path)
{
    if (isRunning() || !tensor)
        return false;
    m_path = path;
    m_watcher.setFuture(runInBackground(
        exportPool(), [tensor = std::move(tensor), path] { return writeFile(tensor, path); }));
    return true;
}

QString TensorExport::caption(DType dtype)
{
    const core::NpyType type = core::npyTypeOf(dtype);
    const QString own = items::dtypeText(dtype);
    if (!type.converted)
        return QCoreApplication::translate("TensorExport", "Export the %1 tensor as .npy").arg(own);
    return QCoreApplication::translate(
               "TensorExport", "Export the %1 tensor as .npy — written as %2: NumPy has no %1")
        .arg(own, items::dtypeText(type.written));
}

} // namespace nanscope::views
