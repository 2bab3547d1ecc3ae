// SPDX-License-Identifier: GPL-3.0-or-later
// Records the demo's logdir (FULL_HEALTH unless told, every event written) into `dir`, for the
// tests that open a real one; NANSCOPE_DEMO_MLP is the demo's path, set by the build.
#pragma once

#include <QProcess>
#include <QString>

namespace nanscope::test {

inline bool runDemo(const QString& dir, const QString& mode = QStringLiteral("FULL_HEALTH"))
{
    QProcess demo;
    demo.start(QStringLiteral(NANSCOPE_DEMO_MLP),
               {QStringLiteral("--dump_dir"), dir, QStringLiteral("--dump_tensor_debug_mode"), mode,
                QStringLiteral("--dump_circular_buffer_size"), QStringLiteral("-1")});
    return demo.waitForFinished(120000) && demo.exitStatus() == QProcess::NormalExit &&
           demo.exitCode() == 0;
}

} // namespace nanscope::test
