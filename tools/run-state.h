/* clwarp-run: the state of one run, which its steps (clwarp-run.c,
 * launch.c) fill in turn: options, kernel file, arguments, engine,
 * kernel, sizes, buffers and results. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_STATE_H
#define CLWARP_RUN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <clwarp/clwarp.h>

#include "argspec.h"
#include "check.h"
#include "kernel-file.h"
#include "options.h"
#include "output.h"

struct run_state {
	struct options cli, merged;
	struct kernel_file kf;
	struct argspec *specs;
	size_t spec_count;
	void **host;
	size_t *guards;          /* each buffer's guard zone (guard.h) */
	cl_mem *mems;
	clwarp_engine *engine;
	clwarp_kernel *kernel;
	clwarp_build_info info;
	struct output_buffer *outs;
	struct check_report report;
	uint64_t *times;
	char *build_options;
	bool args_from_file;     /* the SPECs are the kernel file's */
	size_t out_count;        /* the out: arguments */
	clwarp_backend backend;
	unsigned warp;
	int native;
	const clwarp_device_info *dev;
	const char *kname;
	unsigned nargs;
	unsigned dims;
	size_t global[3], local[3];
	bool has_local;
	unsigned runs;           /* launches: --repeat, or 1 */
	size_t nout;             /* s->outs in use */
};

#endif
