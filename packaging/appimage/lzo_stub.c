/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * squashfuse can read LZO-compressed images through liblzo2, which is GPL. NaNscope's images
 * are zstd-compressed, so the runtime links this stub instead of liblzo2: an LZO image is
 * reported as corrupt rather than read.
 */
#include <stddef.h>

int lzo1x_decompress_safe(const unsigned char* src, unsigned long srcLength, unsigned char* dst,
                          unsigned long* dstLength, void* workMemory);

int lzo1x_decompress_safe(const unsigned char* src, unsigned long srcLength, unsigned char* dst,
                          unsigned long* dstLength, void* workMemory)
{
    (void)src;
    (void)srcLength;
    (void)dst;
    (void)workMemory;
    if (dstLength)
        *dstLength = 0;
    return -1; /* LZO_E_ERROR */
}
