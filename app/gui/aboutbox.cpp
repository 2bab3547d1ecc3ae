// SPDX-License-Identifier: GPL-3.0-or-later
#include "aboutbox.hpp"

#include "appicon.hpp"
#include "nanscope/version.hpp"

#include <QCoreApplication>
#include <QMessageBox>

namespace nanscope::app {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("nanscope::app::AboutBox", text);
}

} // namespace

void showAboutBox(QWidget* parent)
{
    QMessageBox box(parent);
    box.setWindowTitle(tr("About NaNscope"));
    box.setIconPixmap(appIcon().pixmap(64, 64));
    box.setTextFormat(Qt::RichText);
    box.setText(tr("<h3>NaNscope %1</h3>"
                   "<p>A native debugger for NaN and infinity: it reads TensorFlow's tfdbg2 "
                   "logdirs (and NaNscope's recorder's) and finds the op that made the first "
                   "NaN or ∞, and why.</p><p>Built with Qt %2.</p>")
                    .arg(QStringLiteral(NANSCOPE_VERSION), QString::fromLatin1(qVersion())));
    box.exec();
}

} // namespace nanscope::app
