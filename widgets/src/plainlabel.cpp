// SPDX-License-Identifier: GPL-3.0-or-later
#include "nanscope/widgets/plainlabel.hpp"

#include <QEvent>
#include <QLabel>
#include <array>

namespace nanscope::widgets {
namespace {

// A label that remembers the heights its wrapped text takes at the last few widths. QLabel shapes
// and breaks the whole text again at every call, and every layout pass of the window asks each
// wrapped label several times; a label with a panel's placeholder or the origin's lines made the
// window's relayout during a load one of its longest events. What the height depends on is part
// of the key, so a changed text, font, wrap or margin is measured again.
class PlainLabel : public QLabel
{
public:
    PlainLabel(const QString& text, QWidget* parent) : QLabel(text, parent)
    {
        setTextFormat(Qt::PlainText);
    }

    int heightForWidth(int width) const override
    {
        const Key key = keyFor(width);
        for (const Entry& e : m_heights)
            if (e.valid && e.key == key)
                return e.height;
        Entry& slot = m_heights[m_next];
        m_next = (m_next + 1) % m_heights.size();
        slot = {key, QLabel::heightForWidth(width), true};
        return slot.height;
    }

protected:
    void changeEvent(QEvent* event) override
    {
        // Style and palette changes may change the metrics without a new font.
        if (event->type() == QEvent::StyleChange || event->type() == QEvent::FontChange)
            m_heights = {};
        QLabel::changeEvent(event);
    }

private:
    struct Key
    {
        int width = -1;
        QString text;
        QFont font;
        bool wrap = false;
        int margin = 0;
        int indent = 0;
        QMargins contents;
        Qt::Alignment alignment;

        bool operator==(const Key& o) const
        {
            return width == o.width && wrap == o.wrap && margin == o.margin && indent == o.indent &&
                   contents == o.contents && alignment == o.alignment && text == o.text &&
                   font == o.font;
        }
    };
    struct Entry
    {
        Key key;
        int height = 0;
        bool valid = false;
    };

    Key keyFor(int width) const
    {
        return {width,      text(), font(), wordWrap(), margin(), indent(), contentsMargins(),
                alignment()};
    }

    // A layout pass asks for a few widths (the box's, its minimum's): three are kept.
    mutable std::array<Entry, 3> m_heights{};
    mutable std::size_t m_next = 0;
};

} // namespace

QLabel* plainLabel(const QString& text, QWidget* parent)
{
    return new PlainLabel(text, parent);
}

QLabel* selectableLabel(const QString& text, QWidget* parent)
{
    QLabel* label = plainLabel(text, parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace nanscope::widgets
