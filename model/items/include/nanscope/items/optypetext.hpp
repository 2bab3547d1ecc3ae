// SPDX-License-Identifier: GPL-3.0-or-later
// An op type as a list shows it: PyTorch's ops without their "aten::" namespace, which every
// one of them repeats ("masked_fill" for aten::masked_fill), so that a column shows the part
// that differs whole instead of eliding its middle. Other namespaces (prims::, c10d::) and
// TensorFlow's op types stay as they are; tooltips and the origin keep the full type.
#pragma once

#include <QString>

namespace nanscope::items {

inline QString opTypeText(const QString& opType)
{
    static const QString aten = QStringLiteral("aten::");
    return opType.startsWith(aten) && opType.size() > aten.size() ? opType.mid(aten.size())
                                                                  : opType;
}

} // namespace nanscope::items
