// SPDX-License-Identifier: GPL-3.0-or-later
#include "demorunner.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

namespace nanscope::app {

DemoRunner::DemoRunner(QObject* parent) : QObject(parent), m_program(defaultProgram()) {}

DemoRunner::~DemoRunner()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

QString DemoRunner::defaultProgram()
{
    QString nextToApp =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("nanscope-demo-mlp"));
    if (QFileInfo(nextToApp).isExecutable())
        return nextToApp;
#ifdef NANSCOPE_DEMO_BUILD_PATH
    QString built = QStringLiteral(NANSCOPE_DEMO_BUILD_PATH);
    if (QFileInfo(built).isExecutable())
        return built;
#endif
    return {};
}

bool DemoRunner::isAvailable() const
{
    return !m_program.isEmpty() && QFileInfo(m_program).isExecutable();
}

bool DemoRunner::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

QString DemoRunner::logdir() const
{
    return m_dir ? m_dir->path() : QString();
}

void DemoRunner::start()
{
    if (isRunning())
        return;
    if (!isAvailable()) {
        Q_EMIT failed(tr("The demo program nanscope-demo-mlp was not found next to NaNscope."));
        return;
    }
    m_dir = std::make_unique<QTemporaryDir>(
        QDir::temp().filePath(QStringLiteral("nanscope-demo-XXXXXX")));
    if (!m_dir->isValid()) {
        Q_EMIT failed(tr("Could not create a temporary folder: %1").arg(m_dir->errorString()));
        return;
    }
    if (!m_process) {
        m_process = new QProcess(this);
        m_process->setProcessChannelMode(QProcess::MergedChannels);
        connect(
            m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
                if (status == QProcess::NormalExit && code == 0) {
                    Q_EMIT finished(m_dir->path());
                    return;
                }
                const QString output = QString::fromLocal8Bit(m_process->readAll()).trimmed();
                Q_EMIT failed(
                    tr("The demo stopped with exit code %1. %2").arg(code).arg(output.right(400)));
            });
        connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart)
                Q_EMIT failed(tr("The demo could not start: %1").arg(m_process->errorString()));
        });
    }
    m_process->start(m_program,
                     {QStringLiteral("--dump_dir"), m_dir->path(),
                      QStringLiteral("--dump_tensor_debug_mode"), QStringLiteral("FULL_HEALTH"),
                      QStringLiteral("--dump_circular_buffer_size"), QStringLiteral("-1")});
    Q_EMIT started();
}

} // namespace nanscope::app
