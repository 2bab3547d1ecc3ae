// SPDX-License-Identifier: Apache-2.0
// Which of a thread's dispatcher calls are the ops a Python dispatch mode would see, told from
// the RecordFunction frames that PyTorch opens around every dispatcher call.
//
// RecordFunction fires for each call through the dispatcher, nested ones included: a composite
// op (aten::linear) and the ops it is made of (aten::t, aten::addmm), an autocast wrapper and
// the casts and the op it calls, and whatever a kernel calls internally (aten::empty inside
// aten::addmm). A dispatch mode sits below autograd and sees each op once: the outermost call
// that reaches a kernel of its own, and neither what that kernel calls nor the composite ops
// above it. The frames are classified as they open:
//   - a call made with the Python dispatch key excluded is one that torch hides from dispatch
//     modes (the tensor constructor's allocation and copy): Inside, as all it calls;
//   - a composite op (a CompositeImplicitAutograd kernel) is a Wrapper: its parts are ops;
//   - a call inside an Op is Inside (the kernel's own business) unless the call newly
//     excludes the autocast keys: then the Op was the autocast wrapper of the op, it becomes a
//     Wrapper, and the call (a cast, or the op itself) is classified afresh.
#pragma once

#include <c10/core/DispatchKeySet.h>
#include <vector>

namespace nanscope::python {

class OpFrames
{
public:
    enum class Kind : unsigned char {
        Wrapper, // not an op of its own: what it calls may be
        Op,      // an op the program ran, recorded when it ends
        Inside,  // called by an op's kernel
    };

    // A dispatcher call opens: `composite` when the op decomposes into others, `excluded` the
    // thread's excluded dispatch keys as the call starts.
    Kind enter(bool composite, c10::DispatchKeySet excluded)
    {
        Kind kind = composite ? Kind::Wrapper : Kind::Op;
        if (excluded.has(c10::DispatchKey::Python)) {
            kind = Kind::Inside;
        } else if (!m_frames.empty()) {
            Frame& parent = m_frames.back();
            if (parent.kind == Kind::Inside) {
                kind = Kind::Inside;
            } else if (parent.kind == Kind::Op) {
                if ((excluded - parent.excluded).has_any(c10::autocast_dispatch_keyset))
                    parent.kind = Kind::Wrapper;
                else
                    kind = Kind::Inside;
            }
        }
        m_frames.push_back({kind, excluded});
        return kind;
    }

    // A frame that is no op but whose calls are (a backward node running its ops).
    void enterWrapper(c10::DispatchKeySet excluded)
    {
        m_frames.push_back({Kind::Wrapper, excluded});
    }

    // The innermost frame closes: what it turned out to be.
    Kind leave()
    {
        if (m_frames.empty())
            return Kind::Inside; // opened before observing began
        const Kind kind = m_frames.back().kind;
        m_frames.pop_back();
        return kind;
    }

    bool empty() const { return m_frames.empty(); }

private:
    struct Frame
    {
        Kind kind;
        c10::DispatchKeySet excluded;
    };
    std::vector<Frame> m_frames;
};

} // namespace nanscope::python
