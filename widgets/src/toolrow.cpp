// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/toolrow.hpp"

#include <QHBoxLayout>
#include <QLayout>
#include <algorithm>
#include <memory>

namespace nanscope::widgets {
namespace {

QHBoxLayout* rowLayout(QWidget* part)
{
    auto* layout = new QHBoxLayout(part);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    return layout;
}

} // namespace

// Lays out the two parts: side by side when their preferred widths fit, else one above the
// other. A layout, not a resize handler, so that it is asked again whenever either part's size
// hint changes (a combo box filled, a field shown), and tells its parent the height a width
// needs.
class ToolRow::Layout : public QLayout
{
public:
    Layout(QWidget* owner, QWidget* leading, QWidget* trailing) : QLayout(owner)
    {
        setContentsMargins(0, 0, 0, 0);
        m_leading = std::make_unique<QWidgetItem>(leading);
        m_trailing = std::make_unique<QWidgetItem>(trailing);
    }

    bool wrapped() const { return m_wrapped; }

    void addItem(QLayoutItem* item) override { delete item; } // the two parts only
    int count() const override { return 2; }
    QLayoutItem* itemAt(int index) const override
    {
        return index == 0 ? m_leading.get() : index == 1 ? m_trailing.get() : nullptr;
    }
    QLayoutItem* takeAt(int) override { return nullptr; }

    QSize sizeHint() const override // one line: wrapping never makes a dock narrower
    {
        return {oneLineWidth(), oneLineHeight()};
    }
    QSize minimumSize() const override
    {
        const QSize leading = m_leading->minimumSize();
        const QSize trailing = m_trailing->minimumSize();
        return {std::max(leading.width(), trailing.width()), heightForWidth(0)};
    }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override
    {
        if (!wraps(width))
            return oneLineHeight();
        return m_leading->sizeHint().height() + kLineGap + m_trailing->sizeHint().height();
    }
    Qt::Orientations expandingDirections() const override { return Qt::Horizontal; }

    void setGeometry(const QRect& rect) override
    {
        QLayout::setGeometry(rect);
        m_wrapped = wraps(rect.width());
        const QSize leading = m_leading->sizeHint();
        const QSize trailing = m_trailing->sizeHint();
        const int leadingWidth = std::min(leading.width(), rect.width());
        const int trailingWidth = std::min(trailing.width(), rect.width());
        if (m_wrapped) {
            m_leading->setGeometry({rect.topLeft(), QSize(leadingWidth, leading.height())});
            m_trailing->setGeometry({QPoint(rect.left(), rect.top() + leading.height() + kLineGap),
                                     QSize(trailingWidth, trailing.height())});
            return;
        }
        const int height = oneLineHeight();
        m_leading->setGeometry({QPoint(rect.left(), rect.top() + (height - leading.height()) / 2),
                                QSize(leadingWidth, leading.height())});
        m_trailing->setGeometry({QPoint(rect.right() + 1 - trailingWidth,
                                        rect.top() + (height - trailing.height()) / 2),
                                 QSize(trailingWidth, trailing.height())});
    }

private:
    static constexpr int kPartGap = 8;
    static constexpr int kLineGap = 4;

    bool trailingShown() const
    {
        return !m_trailing->isEmpty() && !m_trailing->sizeHint().isEmpty();
    }
    int oneLineWidth() const
    {
        const int leading = m_leading->sizeHint().width();
        return trailingShown() ? leading + kPartGap + m_trailing->sizeHint().width() : leading;
    }
    int oneLineHeight() const
    {
        return std::max(m_leading->sizeHint().height(),
                        trailingShown() ? m_trailing->sizeHint().height() : 0);
    }
    bool wraps(int width) const { return trailingShown() && oneLineWidth() > width; }

    std::unique_ptr<QWidgetItem> m_leading;
    std::unique_ptr<QWidgetItem> m_trailing;
    bool m_wrapped = false;
};

ToolRow::ToolRow(QWidget* parent)
    : QWidget(parent), m_leading(new QWidget(this)), m_trailing(new QWidget(this)),
      m_leadingLayout(rowLayout(m_leading)), m_trailingLayout(rowLayout(m_trailing)),
      m_layout(new Layout(this, m_leading, m_trailing))
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

bool ToolRow::isWrapped() const
{
    return m_layout->wrapped();
}

} // namespace nanscope::widgets
