// SPDX-License-Identifier: Apache-2.0
// Declaring and tracing graph ops whose outputs are device tensors: the GPU twin of
// FunctionGraph::op, with the calling line as the op's creation stack.
#pragma once

#include "gpu_tensor.hpp"
#include "instrumentation.hpp"

#include <source_location>
#include <utility>
#include <vector>

namespace nanscope::demo::cuda {

// Declares the op if needed, records `value` as its output 0 (the summary kernel is enqueued on
// the demo's stream now), and returns `value`.
template <typename T>
const GpuTensor<T>& op(FunctionGraph& g, const OpDef& def, const GpuTensor<T>& value,
                       std::source_location where = std::source_location::current())
{
    g.declare(def, where);
    g.trace(def.name, 0, view(value));
    return value;
}

template <typename T>
GpuTensor<T> op(FunctionGraph& g, const OpDef& def, GpuTensor<T>&& value,
                std::source_location where = std::source_location::current())
{
    op(g, def, static_cast<const GpuTensor<T>&>(value), where);
    return std::move(value);
}

// An op with several outputs (a nested function call): one trace per output.
template <typename R>
requires requires(const R& r)
{
    r.views();
}
R op(FunctionGraph& g, const OpDef& def, R&& value,
     std::source_location where = std::source_location::current())
{
    g.declare(def, where);
    int slot = 0;
    for (const TensorView& output : value.views())
        g.trace(def.name, slot++, output);
    return std::forward<R>(value);
}

} // namespace nanscope::demo::cuda
