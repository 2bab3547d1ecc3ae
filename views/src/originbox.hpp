// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts panel's origin box: where the first non-finite value was made, why, what fixes it,
// and TensorBoard's first alert when that is another op; below it, what was set aside as made on
// purpose (core/intent.hpp). All text is plain.
#pragma once

#include "nanscope/core/digests.hpp"
#include "nanscope/core/origin.hpp"

#include <QColor>
#include <QFrame>
#include <cstdint>
#include <optional>
#include <vector>

class QLabel;
class QPushButton;

namespace nanscope::widgets {
class ElidedLabel;
}

namespace nanscope::views {

class OriginBox : public QFrame
{
    Q_OBJECT

public:
    explicit OriginBox(QWidget* parent = nullptr);

    // `firstAlertOp`: the op of TensorBoard's first alert, as the alert list names it;
    // `firstAlertSetAside`: whether its values were set aside (then it may come first).
    void showOrigin(const core::Origin& origin, const std::optional<core::Alert>& firstAlert,
                    const QString& firstAlertOp, bool firstAlertSetAside = false);
    // No origin although `setAsideEvents` non-finite tensors were seen: all were set aside.
    void showNoUnintended(std::uint64_t setAsideEvents);
    // Groups of set-aside values that differ only in their module (a mask in every layer of a
    // model) make one line: the first group, with the others' counts added.
    struct SetAsideLine
    {
        core::SetAside group;
        std::size_t modules = 0; // with a module path
    };
    // In the order of their first event; for a worker thread (a graph may have thousands).
    static std::vector<SetAsideLine> setAsideLines(const std::vector<core::SetAside>& groups);
    // The first few lines, then how many more; none hides them.
    void showSetAside(const std::vector<SetAsideLine>& lines);
    // The lines shown (title, where, cause, fix, inputs, TensorBoard's first alert, set aside).
    QString text() const;

    // Lines of set-aside groups shown before "and N more".
    static constexpr std::size_t kSetAsideLines = 3;
    // "Set aside as intended: −∞ from aten::masked_fill (Model.attn), 24×, absorbed by
    // aten::_softmax".
    static QString setAsideText(const SetAsideLine& line);

Q_SIGNALS:
    void goToOriginClicked();

private:
    void tint(const QColor& accent);

    QColor m_window; // the style's window colour, before any tint
    QLabel* m_title = nullptr;
    QLabel* m_where = nullptr;
    QLabel* m_cause = nullptr;
    QLabel* m_fix = nullptr;
    QLabel* m_inputs = nullptr;
    QLabel* m_tensorBoard = nullptr;
    // One line per group, elided (the whole line in its tooltip): the origin's own lines wrap,
    // and these must not push the alert list out of a small window.
    std::vector<widgets::ElidedLabel*> m_setAside;
    QPushButton* m_goToOrigin = nullptr;
};

} // namespace nanscope::views
