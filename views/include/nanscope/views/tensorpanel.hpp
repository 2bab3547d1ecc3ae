// SPDX-License-Identifier: GPL-3.0-or-later
// The values of the focused tensor: a FULL_TENSOR graph trace's tensor, or an execution's output
// (the first non-finite one unless the user picks another). Its dtype, shape and statistics, and
// a 2-D slice as a table, with the other dimensions fixed by index boxes; it opens on the first
// NaN or ±inf. The whole tensor is read and counted on a pool thread (core::readTensorData); the
// table converts the cells it shows. Events recorded in other modes hold no values: the panel
// says so.
#pragma once

#include "nanscope/core/tensordata.hpp"
#include "nanscope/views/panel.hpp"

#include <QString>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QSpinBox;
class QToolButton;
class QWidget;

namespace nanscope::items {
class TensorSliceModel;
}
namespace nanscope::widgets {
class ElidedLabel;
class ToolRow;
class UniformTableView;
} // namespace nanscope::widgets

namespace nanscope::views {

template <typename T>
class SnapshotJob;
class TensorExport;
class TensorTableView;

class TensorPanel : public Panel
{
    Q_OBJECT

public:
    explicit TensorPanel(Navigator* navigator, QWidget* parent = nullptr);
    ~TensorPanel() override;

    items::TensorSliceModel* model() const { return m_model; }
    // The table (a TensorTableView: Ctrl+C and Edit › Copy copy its selected cells).
    widgets::UniformTableView* view() const;
    // A tensor is being read, or written to a file.
    bool isBusy() const;

    // What is shown: the event and output of the tensor (none while the empty state shows), the
    // header and statistics lines, and the empty state's reason (empty while a tensor shows).
    std::optional<core::EventRef> shownEvent() const;
    std::uint32_t shownOutput() const { return m_shown.output; }
    QString headerText() const;
    QString statsText() const;
    QString emptyText() const;
    // The slice as NumPy would index it: "[1, :, :]"; "[]" for a 0-D tensor.
    QString sliceText() const;

public Q_SLOTS:
    // Shows the slice that holds the first NaN or ±inf and selects its cell; false when the
    // tensor has none.
    bool goToFirstNonFinite();
    void copySelection();
    // Asks for a file, then writes it in the background (exportFinished says how it went).
    void exportNpy();
    // Writes the whole tensor to `path` in the background; false when there is nothing to write
    // or an export is running.
    bool exportNpyTo(const QString& path);
    // Shows output `output` of the focused execution.
    void showOutput(std::uint32_t output);

Q_SIGNALS:
    // A tensor (or the reason there is none) is shown.
    void tensorShown();
    void exportFinished(const QString& path, const QString& error);

protected:
    void snapshotChanged(const items::SnapshotPtr& snapshot) override;
    void focusChanged(const Focus& focus) override;

private:
    struct Shown
    {
        std::optional<core::EventRef> event;
        std::uint32_t output = 0;
        friend bool operator==(const Shown&, const Shown&) = default;
    };
    struct ReadOutcome
    {
        Shown shown;
        std::shared_ptr<const core::TensorData> tensor;
        std::string error;
    };

    // The widgets, built in the order of their tab chain, then laid out and connected.
    void buildLayout();
    void buildLabels(); // the header, the statistics and the status
    void buildSlicePickers(widgets::ToolRow* tools);
    void buildToolButtons(widgets::ToolRow* tools);
    void arrangeWidgets();
    void connectSlicePickers();
    void connectToolButtons();
    void request(const Shown& shown);
    void deliver(const ReadOutcome& outcome);
    void showEmpty(const QString& why);
    // Why the event holds no values (its mode, no outputs); empty when it may.
    QString noValuesReason(core::EventRef event) const;
    // The event of `shown`, and the type and shape of `tensor` when it is read.
    void updateHeader(const Shown& shown, const core::TensorData* tensor);
    void updateStats();
    void updateOutputs();
    void rebuildSliceControls();
    void updateSliceControls();
    void setColumnWidthFor(const core::TensorData& tensor);

    items::TensorSliceModel* m_model = nullptr;
    TensorTableView* m_view = nullptr;
    widgets::ElidedLabel* m_header = nullptr;
    QLabel* m_stats = nullptr;
    QLabel* m_empty = nullptr;
    QLabel* m_status = nullptr;
    QWidget* m_tools = nullptr;
    QComboBox* m_outputs = nullptr;
    QLabel* m_rowsLabel = nullptr;
    QComboBox* m_rows = nullptr;
    QLabel* m_columnsLabel = nullptr;
    QComboBox* m_columns = nullptr;
    QWidget* m_indices = nullptr; // a label and a spin box per fixed dimension
    std::vector<QSpinBox*> m_spins;
    QToolButton* m_firstNonFinite = nullptr;
    QToolButton* m_copy = nullptr;
    QToolButton* m_export = nullptr;
    QToolButton* m_heatMap = nullptr;
    std::unique_ptr<SnapshotJob<ReadOutcome>> m_job;
    TensorExport* m_exporter = nullptr;
    items::SnapshotPtr m_snapshot;
    Shown m_shown;     // what the table shows, or what the empty state is about
    Shown m_requested; // what is being read
    bool m_updatingControls = false;
};

} // namespace nanscope::views
