// SPDX-License-Identifier: GPL-3.0-or-later
// The Alerts panel's origin box: where the first non-finite value was made, why, what fixes it,
// and TensorBoard's first alert when that is another op. All text is plain.
#pragma once

#include "nanscope/core/digests.hpp"
#include "nanscope/core/origin.hpp"

#include <QFrame>
#include <optional>

class QLabel;
class QPushButton;

namespace nanscope::views {

class OriginBox : public QFrame
{
    Q_OBJECT

public:
    explicit OriginBox(QWidget* parent = nullptr);

    // `firstAlertOp`: the op of TensorBoard's first alert, as the alert list names it.
    void showOrigin(const core::Origin& origin, const std::optional<core::Alert>& firstAlert,
                    const QString& firstAlertOp);
    // The lines shown (title, where, cause, fix, inputs, TensorBoard's first alert).
    QString text() const;

Q_SIGNALS:
    void goToOriginClicked();

private:
    QLabel* m_title = nullptr;
    QLabel* m_where = nullptr;
    QLabel* m_cause = nullptr;
    QLabel* m_fix = nullptr;
    QLabel* m_inputs = nullptr;
    QLabel* m_tensorBoard = nullptr;
    QPushButton* m_goToOrigin = nullptr;
};

} // namespace nanscope::views
