// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a whole tensor as a NumPy .npy file on a thread of its own (a tensor of hundreds of
// megabytes must not stop the window), through QSaveFile: a failed export leaves no half file.
#pragma once

#include "nanscope/items/tensorslicemodel.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

namespace nanscope::views {

class TensorExport : public QObject
{
    Q_OBJECT

public:
    explicit TensorExport(QObject* parent = nullptr);
    ~TensorExport() override;

    // One export at a time: false when one is running.
    bool start(items::TensorPtr tensor, const QString& path);
    bool isRunning() const { return m_watcher.isRunning(); }

    // What the file dialog says: the type written, and why when it is not the tensor's own.
    static QString caption(DType dtype);

Q_SIGNALS:
    // `error` is empty when the file was written.
    void finished(const QString& path, const QString& error);

private:
    QFutureWatcher<QString> m_watcher;
    QString m_path;
};

} // namespace nanscope::views
