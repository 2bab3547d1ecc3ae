// SPDX-License-Identifier: Apache-2.0
// The one way NaNscope reads a value out of a byte buffer: tensor elements, protobuf fixed-width
// fields, summary vectors. Such bytes sit at any offset of a record or a user's buffer, so a
// plain dereference would be misaligned (undefined, and a fault on some CPUs) and would break
// the aliasing rules; memcpy of a constant size compiles to one (vector) load instead.
//
// Native byte order: every file NaNscope reads and writes is little-endian, as is every machine
// it runs on (the reader asserts it where it decodes tensors). Header-only and C++17, like the
// rest of the vocabulary.
#pragma once

#include <cstring>
#include <type_traits>

// Forced inline: the summary's multiversioned kernels (target_clones) call it in their hot
// loops, where a call would stop the vectoriser.
#if defined(__GNUC__)
#define NANSCOPE_UNALIGNED_INLINE [[gnu::always_inline]] inline
#else
#define NANSCOPE_UNALIGNED_INLINE inline
#endif

namespace nanscope {

// The T whose bytes start at `p`, wherever `p` points.
template <class T>
NANSCOPE_UNALIGNED_INLINE T loadUnaligned(const void* p) noexcept
{
    static_assert(std::is_trivially_copyable_v<T>, "only plain values can be read from bytes");
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

} // namespace nanscope

#undef NANSCOPE_UNALIGNED_INLINE
