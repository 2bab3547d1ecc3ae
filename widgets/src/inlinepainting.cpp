// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/inlinepainting.hpp"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>
#include <atomic>

#if defined(__ELF__)
#include <dlfcn.h>
#endif

namespace nanscope::widgets {
namespace {

std::atomic_bool guiThreadPaints{false};

} // namespace

void paintOnTheGuiThread()
{
    if (!qEnvironmentVariableIsSet("QT_NO_GUI_THREADPOOL"))
        qputenv("QT_NO_GUI_THREADPOOL", "1");
    guiThreadPaints.store(true, std::memory_order_relaxed);
}

bool paintingOnTheGuiThread()
{
    return guiThreadPaints.load(std::memory_order_relaxed);
}

} // namespace nanscope::widgets

#if defined(__ELF__)
// Answers in QtCore's place (see the header). An executable's definition of an exported symbol
// takes precedence over a shared library's (ELF symbol interposition), so QtGui's calls come here;
// this object file is linked only into programs that call paintOnTheGuiThread(), and until they
// do it answers as QtCore does, by asking QtCore's own definition.
bool QThreadPool::contains(const QThread* thread) const
{
    // The GUI thread runs no pool's tasks; the only answer that changes is the painter's: it then
    // fills on this thread rather than handing the fill to the pool and waiting.
    if (nanscope::widgets::paintingOnTheGuiThread()) {
        const QCoreApplication* application = QCoreApplication::instance();
        if (application && thread == application->thread())
            return true;
    }
    using Contains = bool (*)(const QThreadPool*, const QThread*);
    static const auto qtContains =
        reinterpret_cast<Contains>(::dlsym(RTLD_NEXT, "_ZNK11QThreadPool8containsEPK7QThread"));
    return qtContains != nullptr && qtContains(this, thread);
}
#endif
