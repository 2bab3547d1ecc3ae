// SPDX-License-Identifier: GPL-3.0-or-later
// The Tensor panel following the Navigator's focus: a FULL_TENSOR trace's shape, statistics and
// slice, opened on its first non-finite cell; the index boxes and "First non-finite"; Copy; the
// .npy export's header and bytes; an execution's non-finite output; and the empty state of a
// trace recorded in another mode.
#include "nanscope/core/logdirreader.hpp"
#include "nanscope/items/tensorslicemodel.hpp"
#include "nanscope/recorder.hpp"
#include "nanscope/views/tensorpanel.hpp"
#include "nanscope/widgets/uniformtableview.hpp"
#include "screenshot.hpp"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace nanscope;
using Model = items::TensorSliceModel;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// [2, 3, 4]: element i holds i / 4, with -inf at [1, 0, 3] (15) and NaN at [1, 2, 1] (21).
std::vector<float> cubeValues()
{
    std::vector<float> values(24);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>(i) / 4;
    values[15] = -kInf;
    values[21] = kNaN;
    return values;
}

// Trace 0: the cube (float32). Trace 1: a float16 vector. Execution 0: two outputs, the second
// with a NaN.
bool writeFullTensorLogdir(const std::filesystem::path& path)
{
    auto recorder = Recorder::open(
        {.dumpRoot = path, .mode = TensorDebugMode::FullTensor, .circularBufferSize = -1});
    if (!recorder)
        return false;
    auto graph = (*recorder)->declareGraph("g");
    auto conv = (*recorder)->declareOp({.graph = *graph, .type = "Conv2D", .name = "conv/Conv2D"});
    auto cast = (*recorder)->declareOp({.graph = *graph, .type = "Cast", .name = "Cast"});
    if (!conv || !cast)
        return false;
    const std::vector<float> cube = cubeValues();
    const std::int64_t cubeShape[] = {2, 3, 4};
    const std::uint16_t halves[] = {0x3c00, 0x7e00, 0xfc00}; // 1, NaN, -inf
    const std::int64_t halfShape[] = {3};
    const std::vector<float> ones(4, 1.0F);
    std::vector<float> broken(4, 2.0F);
    broken[2] = kNaN;
    const std::int64_t pairShape[] = {2, 2};
    const std::int64_t a = (*recorder)->newTensorId();
    const std::int64_t b = (*recorder)->newTensorId();
    return (*recorder)
               ->recordTrace(*conv, 0,
                             {.data = cube.data(), .dtype = DType::Float32, .shape = cubeShape})
               .ok() &&
           (*recorder)
               ->recordTrace(*cast, 0,
                             {.data = halves, .dtype = DType::Float16, .shape = halfShape})
               .ok() &&
           (*recorder)
               ->recordExecution(
                   {.opType = "aten::split",
                    .outputIds = {a, b},
                    .outputs = {{.data = ones.data(), .dtype = DType::Float32, .shape = pairShape},
                                {.data = broken.data(),
                                 .dtype = DType::Float32,
                                 .shape = pairShape}}})
               .ok() &&
           (*recorder)->close().ok();
}

bool writeCurtHealthLogdir(const std::filesystem::path& path)
{
    auto recorder = Recorder::open({.dumpRoot = path, .mode = TensorDebugMode::CurtHealth});
    if (!recorder)
        return false;
    auto graph = (*recorder)->declareGraph("g");
    auto op = (*recorder)->declareOp({.graph = *graph, .type = "Log", .name = "Log"});
    const float values[] = {1.0F, kNaN};
    const std::int64_t shape[] = {2};
    return op &&
           (*recorder)
               ->recordTrace(*op, 0, {.data = values, .dtype = DType::Float32, .shape = shape})
               .ok() &&
           (*recorder)->close().ok();
}

} // namespace

class TestTensorPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void nothingFocusedSaysHowToSeeValues();
    void showsTheFocusedTraceOnItsFirstNonFiniteCell();
    void indexBoxesAndFirstNonFiniteMoveTheSlice();
    void copiesTheSelectedCells();
    void exportsTheTensorAsNpy();
    void exportsFloat16AsItsOwnType();
    void anExecutionShowsItsNonFiniteOutput();
    void otherModesSayWhyThereAreNoValues();

private:
    void focus(core::EventRef event)
    {
        m_navigator->focusEvent(event);
        QVERIFY(QTest::qWaitFor([this] { return !m_panel->isBusy(); }, 10000));
    }
    QString cell(int row, int column) const
    {
        return m_panel->model()->index(row, column).data().toString();
    }

    QTemporaryDir m_dir;
    items::SnapshotPtr m_snapshot;
    std::unique_ptr<views::Navigator> m_navigator;
    std::unique_ptr<views::TensorPanel> m_panel;
};

void TestTensorPanel::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const std::filesystem::path path = m_dir.filePath(QStringLiteral("full")).toStdString();
    QVERIFY(writeFullTensorLogdir(path));
    core::LogdirReader reader(path);
    m_snapshot = reader.update();
    QCOMPARE(m_snapshot->traceCount(), quint64(2));
    QCOMPARE(m_snapshot->executionCount(), quint64(1));
}

void TestTensorPanel::init()
{
    m_navigator = std::make_unique<views::Navigator>();
    m_panel = std::make_unique<views::TensorPanel>(m_navigator.get());
    m_panel->resize(640, 360);
    m_panel->show();
    m_navigator->setSnapshot(m_snapshot);
}

void TestTensorPanel::cleanup()
{
    m_panel.reset();
    m_navigator.reset();
}

void TestTensorPanel::nothingFocusedSaysHowToSeeValues()
{
    QVERIFY(!m_panel->shownEvent());
    QVERIFY(m_panel->emptyText().contains(QStringLiteral("click a trace")));
    QVERIFY(!m_panel->view()->isVisible());
}

void TestTensorPanel::showsTheFocusedTraceOnItsFirstNonFiniteCell()
{
    focus({core::EventSource::Graph, 0});
    QCOMPARE(m_panel->shownEvent(), std::optional(core::EventRef{core::EventSource::Graph, 0}));
    QVERIFY(m_panel->view()->isVisible());
    QVERIFY2(m_panel->headerText().contains(QStringLiteral("conv/Conv2D:0")),
             qPrintable(m_panel->headerText()));
    QVERIFY(m_panel->headerText().endsWith(QStringLiteral("float32 [2, 3, 4]")));
    const QString stats = m_panel->statsText();
    QVERIFY2(stats.startsWith(QStringLiteral("24 elements · 1 NaN · 1 −∞ · 0 +∞ · 1 zero")),
             qPrintable(stats));
    QVERIFY(stats.contains(QStringLiteral("max 5.75")));
    // The last two dimensions as rows and columns; the first fixed where the -inf is.
    const Model* model = m_panel->model();
    QCOMPARE(model->rowDimension(), 1);
    QCOMPARE(model->columnDimension(), 2);
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->columnCount(), 4);
    QCOMPARE(m_panel->sliceText(), QStringLiteral("[1, :, :]"));
    const QModelIndex current = m_panel->view()->currentIndex();
    QCOMPARE(current, model->index(0, 3));
    QVERIFY(m_panel->view()->selectionModel()->isSelected(current));
    QCOMPARE(cell(0, 3), QStringLiteral("-inf"));
    QCOMPARE(cell(2, 1), QStringLiteral("NaN"));
    QCOMPARE(cell(0, 0), QStringLiteral("3"));
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("tensorpanel-trace")));
}

void TestTensorPanel::indexBoxesAndFirstNonFiniteMoveTheSlice()
{
    focus({core::EventSource::Graph, 0});
    auto* firstSpin = m_panel->findChildren<QSpinBox*>().value(0);
    QVERIFY(firstSpin);
    QVERIFY(firstSpin->isVisible());
    QCOMPARE(firstSpin->value(), 1);
    firstSpin->setValue(0);
    QCOMPARE(m_panel->sliceText(), QStringLiteral("[0, :, :]"));
    QCOMPARE(cell(0, 3), QStringLiteral("0.75"));
    m_panel->view()->clearSelection();

    QToolButton* go = nullptr;
    for (QToolButton* button : m_panel->findChildren<QToolButton*>())
        if (button->text() == QStringLiteral("First non-finite"))
            go = button;
    QVERIFY(go && go->isEnabled());
    go->click();
    QCOMPARE(m_panel->sliceText(), QStringLiteral("[1, :, :]"));
    QCOMPARE(firstSpin->value(), 1);
    QCOMPARE(m_panel->view()->currentIndex(), m_panel->model()->index(0, 3));
    QVERIFY(m_panel->view()->selectionModel()->isSelected(m_panel->view()->currentIndex()));
}

void TestTensorPanel::copiesTheSelectedCells()
{
    focus({core::EventSource::Graph, 0});
    auto* view = m_panel->view();
    const Model* model = m_panel->model();
    view->selectionModel()->select(QItemSelection(model->index(1, 0), model->index(2, 1)),
                                   QItemSelectionModel::ClearAndSelect);
    m_panel->copySelection();
    // [1, 1, 0] and [1, 1, 1]; [1, 2, 0] and the NaN at [1, 2, 1].
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("4\t4.25\n5\tNaN"));
}

void TestTensorPanel::exportsTheTensorAsNpy()
{
    focus({core::EventSource::Graph, 0});
    const QString path = m_dir.filePath(QStringLiteral("cube.npy"));
    QSignalSpy finished(m_panel.get(), &views::TensorPanel::exportFinished);
    QVERIFY(m_panel->exportNpyTo(path));
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(0).toString(), path);
    QCOMPARE(finished.first().at(1).toString(), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.startsWith(QByteArray("\x93NUMPY\x01\x00", 8)));
    const int headerLength =
        static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    QCOMPARE((10 + headerLength) % 64, 0);
    const QByteArray header = bytes.mid(10, headerLength);
    QVERIFY2(header.startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }"),
             header.constData());
    QVERIFY(header.endsWith('\n'));
    const std::vector<float> values = cubeValues();
    QCOMPARE(bytes.size(), 10 + headerLength + qsizetype(values.size() * sizeof(float)));
    QVERIFY(std::memcmp(bytes.constData() + 10 + headerLength, values.data(),
                        values.size() * sizeof(float)) == 0);
}

void TestTensorPanel::exportsFloat16AsItsOwnType()
{
    focus({core::EventSource::Graph, 1});
    QVERIFY(m_panel->headerText().endsWith(QStringLiteral("float16 [3]")));
    QCOMPARE(m_panel->model()->columnCount(), 1);
    QCOMPARE(m_panel->view()->currentIndex(), m_panel->model()->index(1, 0)); // the NaN
    const QString path = m_dir.filePath(QStringLiteral("half.npy"));
    QSignalSpy finished(m_panel.get(), &views::TensorPanel::exportFinished);
    QVERIFY(m_panel->exportNpyTo(path));
    QVERIFY(finished.wait(10000));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.contains("'descr': '<f2'"));
    QVERIFY(bytes.contains("'shape': (3,)"));
    QCOMPARE(bytes.right(6), QByteArray("\x00\x3c\x00\x7e\x00\xfc", 6));
}

void TestTensorPanel::anExecutionShowsItsNonFiniteOutput()
{
    focus({core::EventSource::Eager, 0});
    QCOMPARE(m_panel->shownOutput(), 1u);
    QVERIFY(m_panel->headerText().contains(QStringLiteral("aten::split, output 1")));
    QCOMPARE(m_panel->view()->currentIndex(), m_panel->model()->index(1, 0));
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("tensorpanel-execution")));
    m_panel->showOutput(0);
    QVERIFY(QTest::qWaitFor([this] { return !m_panel->isBusy(); }, 10000));
    QCOMPARE(m_panel->shownOutput(), 0u);
    QVERIFY(m_panel->statsText().contains(QStringLiteral("0 NaN")));
    // The same execution focused again keeps the output picked.
    m_navigator->focusTrace(0);
    m_navigator->back();
    QVERIFY(QTest::qWaitFor([this] { return !m_panel->isBusy(); }, 10000));
    QCOMPARE(m_panel->shownEvent(), std::optional(core::EventRef{core::EventSource::Eager, 0}));
}

void TestTensorPanel::otherModesSayWhyThereAreNoValues()
{
    const std::filesystem::path path = m_dir.filePath(QStringLiteral("curt")).toStdString();
    QVERIFY(writeCurtHealthLogdir(path));
    core::LogdirReader reader(path);
    m_navigator->setSnapshot(reader.update());
    focus({core::EventSource::Graph, 0});
    QVERIFY(!m_panel->shownEvent());
    QVERIFY2(m_panel->emptyText().contains(QStringLiteral("CURT_HEALTH mode")),
             qPrintable(m_panel->emptyText()));
    QVERIFY(m_panel->emptyText().contains(QStringLiteral("FULL_TENSOR")));
    QVERIFY(!m_panel->view()->isVisible());
    QVERIFY(test::saveScreenshot(m_panel.get(), QStringLiteral("tensorpanel-curt")));
}

QTEST_MAIN(TestTensorPanel)
#include "tst_tensorpanel.moc"
