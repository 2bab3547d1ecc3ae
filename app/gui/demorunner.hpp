// SPDX-License-Identifier: GPL-3.0-or-later
// Runs nanscope-demo-mlp (the tutorial's buggy network) into a fresh temporary logdir, without
// blocking the window, for "Open the Demo".
#pragma once

#include <QObject>
#include <QString>
#include <memory>

class QProcess;
class QTemporaryDir;

namespace nanscope::app {

class DemoRunner : public QObject
{
    Q_OBJECT

public:
    explicit DemoRunner(QObject* parent = nullptr);
    ~DemoRunner() override;

    // Next to the application, else where the build put it; empty when neither exists.
    static QString defaultProgram();
    void setProgram(const QString& program) { m_program = program; }
    QString program() const { return m_program; }
    bool isAvailable() const;
    bool isRunning() const;
    // The logdir of the last run (removed when the runner goes, or with the next run).
    QString logdir() const;

public Q_SLOTS:
    void start();

Q_SIGNALS:
    void started();
    void finished(const QString& logdir);
    void failed(const QString& message);

private:
    QString m_program;
    QProcess* m_process = nullptr;
    std::unique_ptr<QTemporaryDir> m_dir;
};

} // namespace nanscope::app
