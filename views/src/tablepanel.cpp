// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/views/tablepanel.hpp"

#include "healthstyle.hpp"
#include "nanscope/views/rowlistproxymodel.hpp"
#include "nanscope/widgets/copyabletableview.hpp"
#include "nanscope/widgets/healthbardelegate.hpp"
#include "tablesearch.hpp"
#include "viewhelpers.hpp"

#include <QHeaderView>
#include <QLabel>

namespace nanscope::views {

TablePanel::TablePanel(Navigator* navigator, const QString& findTip, const QString& goToTip,
                       QWidget* parent)
    : Panel(navigator, parent), m_proxy(new RowListProxyModel(this)),
      m_search(new TableSearch(findTip, goToTip, this)), m_status(toolStatusLabel(this))
{}

TablePanel::~TablePanel()
{
    // ~QWidget deletes the table once this is no longer a table panel, and the header reports
    // its sections resized on the way out: nothing of ours may hear it.
    if (m_view)
        disconnect(m_view->horizontalHeader(), nullptr, this, nullptr);
}

void TablePanel::createTable(QAbstractItemModel* model, int healthColumn, int negInfCountRole)
{
    m_proxy->setSourceModel(model);
    m_view = new widgets::CopyableTableView(this);
    m_view->setModel(m_proxy);
    m_view->setColumnsMenuEnabled(true);
    m_healthDelegate =
        new widgets::HealthBarDelegate(healthstyle::countSegments(negInfCountRole), this);
    m_view->setItemDelegateForColumn(healthColumn, m_healthDelegate);
}

widgets::FindBar* TablePanel::findBar() const
{
    return m_search->findBar();
}

QLineEdit* TablePanel::goToEdit() const
{
    return m_search->goToField();
}

QString TablePanel::statusText() const
{
    return m_status->text();
}

void TablePanel::activateFind()
{
    m_search->activateFind();
}

void TablePanel::activateGoTo()
{
    m_search->activateGoTo();
}

} // namespace nanscope::views
