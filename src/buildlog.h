/* Build logs: map compiler positions back to the user's files and lines. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_BUILDLOG_H
#define CLWARP_BUILDLOG_H

/*
 * Some compilers (NVIDIA's, seen with driver 580) ignore #line and report
 * positions in the text they were given, as "<kernel>:LINE:COL". Rewrite
 * each such position to the file and line the #line markers in `text` say
 * it came from. Returns a new malloc'd log (NULL only when out of memory);
 * positions already naming a file are left as they are.
 */
char *buildlog_remap(const char *log, const char *text);

#endif
