// SPDX-License-Identifier: GPL-3.0-or-later
// Pages of memory taken out of the process's resident set, or brought in before they are needed.
#pragma once

#include <cstddef>

namespace nanscope::core {

// Drops the whole pages within [data, data + bytes) from the resident set (MADV_DONTNEED): their
// contents stay in the file and the page cache, and the next access maps them again. Only for
// memory that maps a file (a saved index, the spill file): anonymous memory would read back as
// zeros.
void releaseFilePages(const void* data, std::size_t bytes);

// Faults in the whole pages within [data, data + bytes) for writing (MADV_POPULATE_WRITE) and
// changes nothing they hold: memory that one thread is about to fill, page after page, made
// ready by another meanwhile. Safe on memory that is freed or reused meanwhile (it only faults
// pages in); does nothing where the system cannot.
void populatePages(void* data, std::size_t bytes);

} // namespace nanscope::core
