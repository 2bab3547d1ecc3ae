// SPDX-License-Identifier: GPL-3.0-or-later
// An op type as a list, a strip or a small box shows it: without the part that every op of its
// framework repeats, so that the part that differs shows whole instead of an elided middle.
// PyTorch's "aten::" namespace goes ("masked_fill" for aten::masked_fill), and tf.function's
// "__inference_" (etc.) prefix ("train_step_81"). Other namespaces (prims::, c10d::) and
// TensorFlow's op types stay as they are; tooltips, details and the origin keep the full type.
#pragma once

#include <QString>
#include <string_view>

namespace nanscope::items {

inline QString opTypeText(std::string_view opType)
{
    for (const std::string_view prefix : {"aten::", "__inference_", "__forward_", "__backward_"})
        if (opType.starts_with(prefix) && opType.size() > prefix.size()) {
            opType.remove_prefix(prefix.size());
            break;
        }
    return QString::fromUtf8(opType.data(), static_cast<qsizetype>(opType.size()));
}

inline QString opTypeText(const QString& opType)
{
    const QByteArray utf8 = opType.toUtf8();
    return opTypeText(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
}

} // namespace nanscope::items
