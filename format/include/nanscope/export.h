/* SPDX-License-Identifier: Apache-2.0 */
/* NANSCOPE_API marks the recorder's public classes and functions. The shared library
 * libnanscope-recorder is built with hidden visibility and exports only what carries it; in the
 * static libraries that NaNscope's own programs link it changes nothing. */
#ifndef NANSCOPE_EXPORT_H
#define NANSCOPE_EXPORT_H

#if defined(__GNUC__) && !defined(_WIN32)
#define NANSCOPE_API __attribute__((visibility("default")))
#else
#define NANSCOPE_API
#endif

#endif /* NANSCOPE_EXPORT_H */
