// SPDX-License-Identifier: GPL-3.0-or-later
// The Tensor panel's widgets: the header, the statistics, the slice's pickers and index boxes,
// the tools and the table, kept in step with the model's slice.
#include "nanscope/items/tensorslicemodel.hpp"
#include "nanscope/views/tensorpanel.hpp"
#include "nanscope/widgets/elidedlabel.hpp"
#include "nanscope/widgets/plaintextdelegate.hpp"
#include "nanscope/widgets/toolrow.hpp"
#include "tensorcelldelegate.hpp"
#include "tensortableview.hpp"
#include "viewhelpers.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

namespace nanscope::views {

namespace {

// A picker of the tool row. Its items change with each tensor; the default policy would size it
// once, while still empty.
QComboBox* toolPicker(const QString& toolTip, QWidget* parent)
{
    auto* picker = new QComboBox(parent);
    picker->setToolTip(toolTip);
    picker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return picker;
}

} // namespace

void TensorPanel::buildLayout()
{
    buildLabels();
    auto* tools = new widgets::ToolRow(this);
    m_tools = tools;
    buildSlicePickers(tools);
    buildToolButtons(tools);
    m_view = new TensorTableView(this);
    m_view->setModel(m_model);
    m_empty = emptyStateLabel({}, this);
    arrangeWidgets();
    connectSlicePickers();
    connectToolButtons();
}

void TensorPanel::buildLabels()
{
    m_header = new widgets::ElidedLabel(this);
    m_header->setElideMode(Qt::ElideMiddle);
    QFont bold = m_header->font();
    bold.setBold(true);
    m_header->setFont(bold);

    m_stats = widgets::plainLabel({}, this);
    m_stats->setWordWrap(true);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status = toolStatusLabel(this);
}

void TensorPanel::buildSlicePickers(widgets::ToolRow* tools)
{
    m_outputs = toolPicker(tr("Which output of the execution to show"), tools);
    m_rowsLabel = widgets::plainLabel(tr("Rows"), tools);
    m_rows = toolPicker(tr("The dimension shown as rows"), tools);
    m_columnsLabel = widgets::plainLabel(tr("Columns"), tools);
    m_columns = toolPicker(tr("The dimension shown as columns"), tools);
    m_indices = new QWidget(tools);
    auto* indices = new QHBoxLayout(m_indices);
    indices->setContentsMargins(0, 0, 0, 0);
    indices->setSpacing(4);
    tools->leading()->addWidget(m_outputs);
    tools->leading()->addWidget(m_rowsLabel);
    tools->leading()->addWidget(m_rows);
    tools->leading()->addWidget(m_columnsLabel);
    tools->leading()->addWidget(m_columns);
    tools->leading()->addWidget(m_indices);
}

void TensorPanel::buildToolButtons(widgets::ToolRow* tools)
{
    m_firstNonFinite = toolButton(tr("First non-finite"),
                                  tr("Show the slice that holds the first NaN or ±inf (in "
                                     "row-major order) and select it"),
                                  tools);
    m_copy =
        toolButton(tr("Copy"), tr("Copy the selected cells as tab-separated text (Ctrl+C)"), tools);
    m_export =
        toolButton(tr("Export .npy…"), tr("Write the whole tensor as a NumPy .npy file"), tools);
    m_heatMap = toolButton(tr("Heat map"),
                           tr("Shade finite values by their magnitude (NaN, ±inf and zeros are "
                              "always coloured)"),
                           tools);
    m_heatMap->setCheckable(true);
    m_heatMap->setChecked(true);
    tools->trailing()->addWidget(m_firstNonFinite);
    tools->trailing()->addWidget(m_copy);
    tools->trailing()->addWidget(m_export);
    tools->trailing()->addWidget(m_heatMap);
}

void TensorPanel::arrangeWidgets()
{
    auto* statsRow = new QHBoxLayout;
    statsRow->setSpacing(8);
    statsRow->addWidget(m_stats, 1);
    statsRow->addWidget(m_status);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_header);
    layout->addLayout(statsRow);
    layout->addWidget(m_tools);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);
}

void TensorPanel::connectSlicePickers()
{
    connect(m_outputs, &QComboBox::activated, this,
            [this](int output) { showOutput(static_cast<std::uint32_t>(output)); });
    // Picking the other picker's dimension swaps the two.
    connect(m_rows, &QComboBox::activated, this, [this](int rows) {
        const int columns = rows == m_model->columnDimension() ? m_model->rowDimension()
                                                               : m_model->columnDimension();
        m_model->setDimensions(rows, columns);
        updateSliceControls();
    });
    connect(m_columns, &QComboBox::activated, this, [this](int columns) {
        const int rows = columns == m_model->rowDimension() ? m_model->columnDimension()
                                                            : m_model->rowDimension();
        m_model->setDimensions(rows, columns);
        updateSliceControls();
    });
}

void TensorPanel::connectToolButtons()
{
    connect(m_firstNonFinite, &QToolButton::clicked, this, [this] {
        if (goToFirstNonFinite())
            m_view->setFocus();
    });
    connect(m_copy, &QToolButton::clicked, this, &TensorPanel::copySelection);
    connect(m_export, &QToolButton::clicked, this, &TensorPanel::exportNpy);
    connect(m_heatMap, &QToolButton::toggled, this, [this](bool on) {
        m_view->cellDelegate()->setHeatMap(on);
        m_view->viewport()->update();
    });
}

void TensorPanel::rebuildSliceControls()
{
    const auto& tensor = m_model->tensor();
    const std::vector<std::int64_t> shape = tensor ? tensor->shape() : std::vector<std::int64_t>();
    m_updatingControls = true;
    m_rows->clear();
    m_columns->clear();
    for (std::size_t d = 0; d < shape.size(); ++d) {
        const QString text = tr("dim %1 (%L2)").arg(d).arg(shape[d]);
        m_rows->addItem(text);
        m_columns->addItem(text);
    }
    qDeleteAll(m_indices->findChildren<QWidget*>(Qt::FindDirectChildrenOnly));
    m_spins.clear();
    for (std::size_t d = 0; d < shape.size(); ++d) {
        auto* label = widgets::plainLabel(tr("dim %1").arg(d), m_indices);
        auto* spin = new QSpinBox(m_indices);
        spin->setRange(0, static_cast<int>(std::clamp<std::int64_t>(shape[d] - 1, 0, INT_MAX)));
        spin->setToolTip(
            tr("The index of dimension %1 (of %L2) that the table shows").arg(d).arg(shape[d]));
        spin->setKeyboardTracking(false);
        m_indices->layout()->addWidget(label);
        m_indices->layout()->addWidget(spin);
        spin->setProperty("label", QVariant::fromValue<QObject*>(label));
        const int dimension = static_cast<int>(d);
        connect(spin, &QSpinBox::valueChanged, this, [this, dimension](int value) {
            if (!m_updatingControls)
                m_model->setFixedIndex(dimension, value);
        });
        m_spins.push_back(spin);
    }
    m_updatingControls = false;
    updateSliceControls();
}

void TensorPanel::updateSliceControls()
{
    const auto& tensor = m_model->tensor();
    const bool pickers = tensor && tensor->shape().size() >= 2;
    m_updatingControls = true;
    m_rowsLabel->setVisible(pickers);
    m_rows->setVisible(pickers);
    m_columnsLabel->setVisible(pickers);
    m_columns->setVisible(pickers);
    if (pickers) {
        m_rows->setCurrentIndex(m_model->rowDimension());
        m_columns->setCurrentIndex(m_model->columnDimension());
    }
    bool anyFixed = false;
    for (std::size_t d = 0; d < m_spins.size(); ++d) {
        const int dimension = static_cast<int>(d);
        const bool fixed =
            dimension != m_model->rowDimension() && dimension != m_model->columnDimension();
        QSpinBox* spin = m_spins[d];
        spin->setVisible(fixed);
        qobject_cast<QWidget*>(spin->property("label").value<QObject*>())->setVisible(fixed);
        if (fixed)
            spin->setValue(
                static_cast<int>(std::min<std::int64_t>(m_model->fixedIndices()[d], INT_MAX)));
        anyFixed = anyFixed || fixed;
    }
    m_indices->setVisible(anyFixed);
    m_updatingControls = false;
    if (m_model->columnsCapped())
        m_status->setText(tr("The first %L1 columns: pick the longer dimension as rows to see "
                             "them all")
                              .arg(items::TensorSliceModel::kMaxColumns));
    else if (m_status->text().startsWith(tr("The first")))
        m_status->clear();
}

void TensorPanel::setColumnWidthFor(const core::TensorData& tensor)
{
    // Every cell shares one width, wide enough for any text the type shows (six significant
    // digits with an exponent; an integer's extremes), so that a screenful never measures a
    // cell. Set while the model has no columns: the header makes every new section this wide,
    // where resizing thousands of sections would relayout the table for each.
    const core::TensorStats& stats = tensor.stats();
    QString widest = QStringLiteral("-0.000123457");
    if (tensor.dtype() == DType::Bool)
        widest = QStringLiteral("false");
    else if (tensor.isIntegral())
        widest = std::max(QString::number(stats.min, 'f', 0), QString::number(stats.max, 'f', 0),
                          [](const QString& a, const QString& b) { return a.size() < b.size(); });
    std::int64_t columns = 1;
    for (const std::int64_t size : tensor.shape())
        columns = std::max(columns, size);
    const QString lastColumn =
        QString::number(std::min<std::int64_t>(columns, items::TensorSliceModel::kMaxColumns) - 1);
    const QFontMetrics metrics = m_view->fontMetrics();
    const int width =
        std::max(metrics.horizontalAdvance(widest), metrics.horizontalAdvance(lastColumn)) +
        widgets::PlainTextDelegate::textMargins(m_view) + 8;
    QHeaderView* header = m_view->horizontalHeader();
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(std::min(width, header->minimumSectionSize()));
    header->setDefaultSectionSize(width);
}

} // namespace nanscope::views
