// SPDX-License-Identifier: GPL-3.0-or-later
// A table's column widths as its panel's rule fits them to the rows on screen (columnfit.hpp),
// until the user drags the edge of a column the rule sizes: from then on the user's widths stand.
#pragma once

#include <QList>
#include <QObject>
#include <functional>
#include <optional>

namespace nanscope::widgets {

class UniformTableView;

class FittedColumns : public QObject
{
    Q_OBJECT

public:
    // `fit` is the panel's rule; `growOnly`: no column narrows (while the user scrolls).
    using Fit = std::function<void(bool growOnly)>;

    FittedColumns(UniformTableView* view, Fit fit, QObject* parent);

    // The columns whose drag by the user ends the fitting; every column's until set, none for
    // an empty list (the rule then always applies).
    void setUserSizedColumns(QList<int> columns);

    // Applies the rule, unless the user sized a column, the table shows no rows, or a fit is
    // under way (its own widths changing make the model report new data).
    void fit(bool growOnly = false);
    // Whether the rule ran since the last restart.
    bool fitted() const { return m_fitted; }
    bool userSized() const { return m_userSized; }
    // Another logdir's rows: fitted again, whatever the user did to the last one's.
    void restart();

private:
    UniformTableView* m_view;
    Fit m_fit;
    std::optional<QList<int>> m_userColumns;
    bool m_fitting = false;
    bool m_fitted = false;
    bool m_userSized = false;
};

} // namespace nanscope::widgets
