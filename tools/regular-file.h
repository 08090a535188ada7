/* clwarp-run: opening the files it reads (the kernel file, @file INIT)
 * only when they are regular files, so that a FIFO, a device, a socket or
 * a folder is refused at once instead of blocking or never ending. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_REGULAR_FILE_H
#define CLWARP_RUN_REGULAR_FILE_H

#include <stddef.h>
#include <stdio.h>

/* @p path opened for reading ("rb"), or NULL with one message in @p err:
 * "PATH is not a regular file (a FIFO)", or "cannot read PATH: REASON".
 * A special file is never opened (a FIFO's open would wait for a writer). */
FILE *regular_file_open(const char *path, char *err, size_t errlen);

#endif
