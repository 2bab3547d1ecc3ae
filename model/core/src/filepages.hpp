// SPDX-License-Identifier: GPL-3.0-or-later
// Taking the pages of a file mapping out of the process's resident set.
#pragma once

#include <cstddef>

namespace nanscope::core {

// Drops the whole pages within [data, data + bytes) from the resident set (MADV_DONTNEED): their
// contents stay in the file and the page cache, and the next access maps them again. Only for
// memory that maps a file (a saved index, the spill file): anonymous memory would read back as
// zeros.
void releaseFilePages(const void* data, std::size_t bytes);

// The same for memory of the process's own that holds nothing needed: it reads back as zeros.
void releaseMemoryPages(void* data, std::size_t bytes);

} // namespace nanscope::core
