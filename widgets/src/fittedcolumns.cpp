// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/fittedcolumns.hpp"

#include "nanscope/widgets/uniformtableview.hpp"

#include <QGuiApplication>
#include <QHeaderView>

namespace nanscope::widgets {

FittedColumns::FittedColumns(UniformTableView* view, Fit fit, QObject* parent)
    : QObject(parent), m_view(view), m_fit(std::move(fit))
{
    // This object, not the panel, hears the header: ~QWidget deletes the table after the panel
    // is gone, and the header reports its sections resized on the way out.
    connect(view->horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int column, int, int size) {
                // A drag on a column's edge: not a fit, hiding or showing a column, nor the
                // header stretching its last section to a new width of the table.
                const bool counted = !m_userColumns || m_userColumns->contains(column);
                if (!m_fitting && size > 0 && counted &&
                    QGuiApplication::mouseButtons() != Qt::NoButton)
                    m_userSized = true;
            });
}

void FittedColumns::setUserSizedColumns(QList<int> columns)
{
    m_userColumns = std::move(columns);
}

void FittedColumns::fit(bool growOnly)
{
    if (m_fitting || m_userSized || !m_view->model() || m_view->model()->rowCount() == 0)
        return;
    m_fitting = true;
    m_fit(growOnly);
    m_fitting = false;
    m_fitted = true;
}

void FittedColumns::restart()
{
    m_fitted = false;
    m_userSized = false;
}

} // namespace nanscope::widgets
