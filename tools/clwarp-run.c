/* clwarp-run: build and run one OpenCL C kernel from the command line.
 * This file is the run itself: the kernel file and its arguments, the
 * engine and the build, then the launch (launch.c) and the check. Its
 * options are in options.c, --list-devices in list-devices.c, the output
 * in output.c and report.c, its state in run-state.h. */
/* SPDX-License-Identifier: MIT */
#include "argcheck.h"
#include "argspec.h"
#include "build-step.h"
#include "check.h"
#include "kernel-file.h"
#include "launch.h"
#include "list-devices.h"
#include "options.h"
#include "output.h"
#include "report.h"
#include "run-state.h"
#include "sanitize.h"

#include <clwarp/clwarp.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- timing */

static int
compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ run */

static void
run_state_clear(struct run_state *s)
{
	for (size_t i = 0; i < s->spec_count; i++) {
		if (s->mems && s->mems[i])
			clReleaseMemObject(s->mems[i]);
		if (s->host)
			free(s->host[i]);
		argspec_clear(&s->specs[i]);
	}
	free(s->specs);
	free(s->host);
	free(s->guards);
	free(s->mems);
	free(s->outs);
	free(s->times);
	free(s->build_options);
	check_report_clear(&s->report);
	clwarp_build_info_free(&s->info);
	clwarp_kernel_free(s->kernel);
	clwarp_engine_free(s->engine);
	kernel_file_clear(&s->kf);
	options_clear(&s->cli);
	options_clear(&s->merged);
}

/* The kernel names of the program, ", "-separated, into @p buf. */
static void
kernel_names(const clwarp_program *prog, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < clwarp_program_kernel_count(prog); i++) {
		if (n >= len)
			break;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      clwarp_program_kernel_name(prog, i));
	}
}

/* "expect[K]" or "expect[K]@W", for messages about line @p x. */
static const char *
expect_name(const struct kf_expect *x, char *buf, size_t len)
{
	if (x->width)
		snprintf(buf, len, "expect[%u]@%u", x->k, x->width);
	else
		snprintf(buf, len, "expect[%u]", x->k);
	return buf;
}

/* The kernel file's options and the command line's, merged into
 * s->merged; *done when that is the whole run (--help, --version,
 * --list-devices, --sanitize's parent), whose status it returns. */
static int
run_options(struct run_state *s, int argc, char **argv, bool *done)
{
	struct options *o = &s->merged;
	char err[1024];
	int rc;

	*done = true;
	rc = options_parse(argc, argv, &s->cli, NULL, NULL);
	if (rc)
		return rc;
	if (s->cli.help) {
		fputs(options_help_text, stdout);
		return 0;
	}
	if (s->cli.version) {
		printf("clwarp-run %s\n", clwarp_version());
		return 0;
	}
	if (s->cli.list_devices) {
		if (s->cli.file)
			return report_usage("--list-devices takes no FILE.cl");
		return list_devices(&s->cli);
	}
	if (!s->cli.file)
		return report_usage("no FILE.cl given");

	/* The kernel file and its directives. */
	rc = kernel_file_load(s->cli.file, &s->kf, err, sizeof(err));
	if (rc)
		return report_usage("%s", err);
	for (size_t i = 0; i < s->kf.run_count; i++) {
		char where[512];

		snprintf(where, sizeof(where), "%s:%d", s->kf.path, s->kf.runs[i].line);
		rc = options_parse(s->kf.runs[i].argc, s->kf.runs[i].argv, o, where, s->kf.dir);
		if (rc)
			return rc;
	}
	/* SPECs of the file take @file paths from the file's folder. */
	s->args_from_file = s->cli.args.count == 0;
	rc = options_merge(o, &s->cli);
	if (rc)
		return rc;
	report_set_json(o->json);
	if (o->sanitize && !sanitize_is_child())
		return sanitize_run(argv, o);
	*done = false;
	return 0;
}

/* The -a SPECs, parsed, and the arrays kept for each. */
static int
run_args(struct run_state *s)
{
	const struct options *o = &s->merged;
	char err[1024];

	s->spec_count = o->args.count;
	s->specs = calloc(s->spec_count + 1, sizeof(*s->specs));
	s->host = calloc(s->spec_count + 1, sizeof(void *));
	s->guards = calloc(s->spec_count + 1, sizeof(size_t));
	s->mems = calloc(s->spec_count + 1, sizeof(cl_mem));
	s->outs = calloc(s->spec_count + 1, sizeof(*s->outs));
	if (!s->specs || !s->host || !s->guards || !s->mems || !s->outs) {
		report_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < s->spec_count; i++) {
		if (!argspec_parse(o->args.items[i], s->args_from_file ? s->kf.dir : NULL, &s->specs[i], err,
				   sizeof(err)))
			return report_usage("%s", err);
		if (s->specs[i].out)
			s->out_count++;
	}
	return 0;
}

/* --check: every expect line names an out: argument, and its values fit
 * that argument's type. */
static int
run_check_expects(struct run_state *s)
{
	char err[1024];

	if (s->kf.expect_count == 0)
		return report_usage("--check: %s has no //! expect lines", s->kf.path);
	for (size_t e = 0; e < s->kf.expect_count; e++) {
		const struct kf_expect *x = &s->kf.expects[e];
		char name[48];
		size_t k = 0;
		bool found = false;

		for (size_t i = 0; i < s->spec_count && !found; i++) {
			if (!s->specs[i].out)
				continue;
			if (k++ == x->k) {
				found = true;
				if (!check_validate(s->specs[i].type, x->values, x->count, err,
						    sizeof(err)))
					return report_usage("%s:%d: %s: %s", s->kf.path, x->line,
							   expect_name(x, name, sizeof(name)), err);
			}
		}
		if (!found)
			return report_usage("%s:%d: %s, but there %s only %zu out: argument%s",
					   s->kf.path, x->line, expect_name(x, name, sizeof(name)),
					   s->out_count == 1 ? "is" : "are", s->out_count,
					   s->out_count == 1 ? "" : "s");
	}
	return 0;
}

/* The engine, its backend and warp width, against -w and --check. */
static int
run_engine(struct run_state *s)
{
	struct options *o = &s->merged;
	clwarp_engine_options eo;
	clwarp_status status;

	options_engine(o, &eo, o->device);
	status = clwarp_engine_new(&eo, &s->engine);
	if (status != CLWARP_OK)
		return report_library_error("cannot open a device", status);
	status = clwarp_engine_backend(s->engine, &s->backend, &s->warp);
	if (status == CLWARP_OK)
		status = clwarp_engine_backend_native(s->engine, &s->native);
	if (status != CLWARP_OK)
		return report_library_error("no warp backend", status);
	/* -w sets the local backend's width; on a native backend it would be
	 * silently ignored and the results would be for another width. */
	if (o->warp_size && o->warp_size != s->warp)
		return report_usage("-w %u: the %s backend runs warps of %u; add -b local to emulate width %u",
				   o->warp_size, clwarp_backend_name(s->backend), s->warp, o->warp_size);
	/* Expect lines for other widths only are no check of this run. */
	if (o->check) {
		for (size_t k = 0; k < s->out_count; k++) {
			char widths[64];

			if (!kernel_file_expects(&s->kf, (unsigned)k) ||
			    kernel_file_expect(&s->kf, (unsigned)k, s->warp))
				continue;
			kernel_file_expect_widths(&s->kf, (unsigned)k, widths, sizeof(widths));
			return report_usage("--check: %s has expect[%zu] lines for warp width%s %s only, none for this run's width %u (add '//! expect[%zu]@%u:' or a line without @W)",
					   s->kf.path, k, strchr(widths, ',') ? "s" : "", widths, s->warp,
					   k, s->warp);
		}
	}
	s->dev = clwarp_engine_device_info(s->engine);
	return 0;
}

/* Sizes against the device, then host memory, filled from the SPECs. */
static int
run_host_buffers(struct run_state *s)
{
	char err[1024];

	for (size_t i = 0; i < s->spec_count; i++) {
		const struct argspec *a = &s->specs[i];

		if (a->kind == ARGSPEC_BUFFER && a->bytes > s->dev->max_alloc_size) {
			report_error("argument %zu ('%s'): %zu bytes exceed the device's largest buffer (%llu bytes)",
				  i, a->text, a->bytes, (unsigned long long)s->dev->max_alloc_size);
			return EXIT_RUNTIME;
		}
		if (a->kind == ARGSPEC_LOCAL && a->bytes > s->dev->local_mem_size) {
			report_error("argument %zu ('%s'): %zu bytes exceed the device's local memory (%llu bytes)",
				  i, a->text, a->bytes, (unsigned long long)s->dev->local_mem_size);
			return EXIT_RUNTIME;
		}
	}
	for (size_t i = 0; i < s->spec_count; i++) {
		const struct argspec *a = &s->specs[i];

		if (a->kind != ARGSPEC_BUFFER)
			continue;
		s->host[i] = calloc(1, a->bytes);
		if (!s->host[i]) {
			report_error("argument %zu ('%s'): cannot allocate %zu bytes of host memory", i, a->text,
				  a->bytes);
			return EXIT_RUNTIME;
		}
		if (!argspec_fill(a, s->host[i], err, sizeof(err)))
			return report_usage("%s", err);
	}
	return 0;
}

/* The program, built from the kernel file with s->build_options. */
static int
run_build(struct run_state *s, clwarp_program **prog)
{
	const struct options *o = &s->merged;
	clwarp_status status;
	char *driver_output = NULL;

	if (o->verbose) {
		/* the driver's output as it happens, among the library's debug log */
		status = clwarp_program_build_file(s->engine, s->kf.path, s->build_options, prog,
						   &s->info);
	} else {
		status = build_step(s->engine, s->kf.path, s->build_options, prog, &s->info,
				    &driver_output);
	}
	if (status != CLWARP_OK) {
		build_step_report_failure(s->kf.path, status, &s->info, driver_output, o->verbose,
					  o->json);
		free(driver_output);
		return EXIT_RUNTIME;
	}
	free(driver_output);
	return 0;
}

/* The kernel of the program that -k names, or its only one, in s->kernel. */
static int
run_pick_kernel(struct run_state *s, clwarp_program *prog)
{
	const struct options *o = &s->merged;
	char err[1024];
	clwarp_status status;
	size_t kcount = clwarp_program_kernel_count(prog);

	if (kcount == 0)
		return report_usage("%s defines no kernel", s->kf.path);
	if (o->kernel) {
		size_t i;

		for (i = 0; i < kcount && strcmp(clwarp_program_kernel_name(prog, i), o->kernel); i++)
			;
		if (i == kcount) {
			kernel_names(prog, err, sizeof(err));
			return report_usage("%s has no kernel '%s'; it has: %s", s->kf.path, o->kernel, err);
		}
		s->kname = o->kernel;
	} else if (kcount > 1) {
		kernel_names(prog, err, sizeof(err));
		return report_usage("%s has %zu kernels, choose one with -k: %s", s->kf.path, kcount, err);
	} else {
		s->kname = clwarp_program_kernel_name(prog, 0);
	}
	status = clwarp_kernel_new(prog, s->kname, &s->kernel);
	if (status != CLWARP_OK)
		return report_library_error("cannot create the kernel", status);
	return 0;
}

/* A new engine, with the disk cache off, for a build from source. */
static int
run_engine_without_cache(struct run_state *s)
{
	struct options *o = &s->merged;
	clwarp_engine_options eo;
	clwarp_status status;

	clwarp_kernel_free(s->kernel);
	s->kernel = NULL;
	clwarp_build_info_free(&s->info);
	clwarp_engine_free(s->engine);
	s->engine = NULL;
	o->no_cache = true;
	options_engine(o, &eo, o->device);
	status = clwarp_engine_new(&eo, &s->engine);
	if (status != CLWARP_OK)
		return report_library_error("cannot open a device", status);
	s->dev = clwarp_engine_device_info(s->engine);
	return 0;
}

/* Build, pick the kernel, and check the arguments against its
 * parameters. The library asks for argument info (-cl-kernel-arg-info),
 * which the argument checks (argcheck.c) read and Intel's runtime gives
 * only when asked; not on NVIDIA for a program with a kernel of no
 * parameters, whose compiler then fails (src/program.c). */
static int
run_kernel(struct run_state *s)
{
	char err[1024];
	int rc;

	s->build_options = options_build_string(&s->merged, "");
	if (!s->build_options) {
		report_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (;;) {
		clwarp_program *prog = NULL;

		rc = run_build(s, &prog);
		if (!rc)
			rc = run_pick_kernel(s, prog);
		if (rc)
			return rc;
		s->nargs = clwarp_kernel_arg_count(s->kernel);
		if (s->nargs != s->spec_count)
			return report_usage("kernel %s takes %u argument%s, but %zu -a %s given", s->kname,
					   s->nargs, s->nargs == 1 ? "" : "s", s->spec_count,
					   s->spec_count == 1 ? "was" : "were");
		if (s->info.source != CLWARP_BUILD_DISK_HIT ||
		    argcheck_has_types(clwarp_kernel_cl(s->kernel), s->nargs))
			break;
		/* A binary from the disk cache without the parameters' types
		 * (Intel's runtime keeps none in one): build from source, with
		 * the disk cache off, so that the arguments can be checked. */
		rc = run_engine_without_cache(s);
		if (rc)
			return rc;
	}
	for (unsigned i = 0; i < s->nargs; i++) {
		if (!argcheck(clwarp_kernel_cl(s->kernel), s->kname, i, &s->specs[i], err, sizeof(err)))
			return report_usage("%s", err);
	}
	return 0;
}

/* The report, as text or JSON, and the check's verdict. */
static int
run_output(struct run_state *s)
{
	const struct options *o = &s->merged;
	struct run_report rep = {
		.device = s->dev->name,
		.platform = s->dev->platform_name,
		.backend = clwarp_backend_name(s->backend),
		.warp_size = s->warp,
		.native_width = s->native != 0,
		.kernel = s->kname,
		.dims = s->dims,
		.has_local = s->has_local,
		.build_source = clwarp_build_source_name(s->info.source),
		.build_ms = s->info.milliseconds,
		.buffers = s->outs,
		.buffer_count = s->nout,
		.has_check = o->check,
		.check = &s->report,
	};
	unsigned runs = s->runs;

	memcpy(rep.global, s->global, sizeof(s->global));
	memcpy(rep.local, s->local, sizeof(s->local));
	if (o->repeat) {
		qsort(s->times, runs, sizeof(uint64_t), compare_u64);
		rep.runs = runs;
		rep.time_min_ns = (double)s->times[0];
		rep.time_max_ns = (double)s->times[runs - 1];
		rep.time_median_ns = runs % 2 ? (double)s->times[runs / 2]
			: ((double)s->times[runs / 2 - 1] + (double)s->times[runs / 2]) / 2;
	}
	if (o->json)
		output_json(stdout, &rep);
	else
		output_text(stdout, &rep, o->quiet);
	report_output_done();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		report_error("cannot write the output: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	if (s->report.mismatches) {
		report_error("check failed: %zu mismatch%s", s->report.mismatches,
			  s->report.mismatches == 1 ? "" : "es");
		return EXIT_RUNTIME;
	}
	return 0;
}

static int
run(struct run_state *s, int argc, char **argv)
{
	bool done;
	int rc = run_options(s, argc, argv, &done);

	if (done)
		return rc;
	if ((rc = run_args(s)))
		return rc;
	if (s->merged.check && (rc = run_check_expects(s)))
		return rc;
	if ((rc = run_engine(s)) || (rc = run_host_buffers(s)) || (rc = run_kernel(s)) ||
	    (rc = run_sizes(s)) || (rc = run_set_args(s)) || (rc = run_launch(s)) ||
	    (rc = run_read_back(s)))
		return rc;
	return run_output(s);
}

int
main(int argc, char **argv)
{
	struct run_state s;
	int rc;

	memset(&s, 0, sizeof(s));
	report_set_json(report_argv_wants_json(argc, argv));
	rc = run(&s, argc, argv);
	report_finish(rc);
	run_state_clear(&s);
	return rc;
}
