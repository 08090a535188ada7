/* clwarp-run's build step: the driver's own chatter kept off the terminal,
 * and one clean report of a failed build. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_BUILD_STEP_H
#define CLWARP_RUN_BUILD_STEP_H

#include <stdbool.h>
#include <stdio.h>

#include <clwarp/clwarp.h>

/*
 * clwarp_program_build_file with the process's stderr sent to a temporary
 * file: OpenCL drivers print compiler output there themselves (PoCL: "1
 * error generated."), which would land between clwarp-run's messages.
 * *driver_output gets what they printed (malloc'd; NULL when nothing, or
 * when stderr could not be redirected and was left alone).
 */
clwarp_status build_step(clwarp_engine *engine, const char *path, const char *options,
			 clwarp_program **program, clwarp_build_info *info, char **driver_output);

/*
 * A failed build, reported once: the library's one-line message on stderr
 * ("clwarp-run: ... FILE:LINE:COL: ..."), then one line saying what -v adds
 * (with `verbose` the library's debug log has shown the compiler's log
 * already). With `json`, stdout also gets {"error", "build_log",
 * "driver_output"}.
 */
void build_step_report_failure(const char *path, clwarp_status status,
			       const clwarp_build_info *info, const char *driver_output,
			       bool verbose, bool json);

#endif
