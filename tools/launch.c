/* clwarp-run: the launch, from the sizes to the read-back (launch.h). */
/* SPDX-License-Identifier: MIT */
#include "launch.h"

#include "argspec.h"
#include "check.h"
#include "elemtype.h"
#include "guard.h"
#include "kernel-file.h"
#include "launch-size.h"
#include "report.h"
#include "sanitize.h"

#include <clwarp/clwarp.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The global and local sizes, and the warp contract for them. */
int
run_sizes(struct run_state *s)
{
	const struct options *o = &s->merged;
	clwarp_status status;

	for (unsigned d = 0; d < 3; d++)
		s->global[d] = s->local[d] = 1;
	if (o->local_set && o->global_set && o->local_dims != o->global_dims)
		return report_usage("the local size has %u dimension%s, the global size %u",
				   o->local_dims, o->local_dims == 1 ? "" : "s", o->global_dims);
	if (o->global_set) {
		s->dims = o->global_dims;
		memcpy(s->global, o->global, sizeof(s->global));
	} else {
		size_t i;

		for (i = 0; i < s->spec_count && s->specs[i].kind != ARGSPEC_BUFFER; i++)
			;
		if (i == s->spec_count)
			return report_usage("no -g given and no buffer argument to take the global size from");
		s->dims = o->local_set ? o->local_dims : 1;
		if (s->dims != 1)
			return report_usage("a %u-dimensional local size needs -g with as many dimensions",
					   s->dims);
		s->global[0] = s->specs[i].count;
	}
	s->has_local = o->local_set;
	if (s->has_local) {
		memcpy(s->local, o->local, sizeof(s->local));
		for (unsigned d = 0; d < s->dims; d++) {
			if (s->global[d] % s->local[d] != 0)
				return report_usage("the local size %zu does not divide the global size %zu (dimension %u)",
						   s->local[d], s->global[d], d);
		}
	}

	/* The local size and the warp contract. */
	if (!s->has_local)
		s->has_local = launch_size_default_local(s->global, s->dims, s->warp,
							 s->dev->max_work_group_size, s->local);
	status = clwarp_kernel_warp_info(s->kernel, s->dims, s->has_local ? s->local : NULL,
					 &s->backend, &s->warp);
	if (status != CLWARP_OK)
		return report_library_error("cannot launch", status);
	return 0;
}

/* Device buffers, each with its guard zone, and the kernel's arguments. */
int
run_set_args(struct run_state *s)
{
	char err[1024];
	clwarp_status status;
	int rc;
	size_t work_items = 1;

	for (unsigned d = 0; d < s->dims; d++)
		work_items *= s->global[d];
	for (unsigned i = 0; i < s->nargs; i++) {
		const struct argspec *a = &s->specs[i];

		if (a->kind == ARGSPEC_BUFFER) {
			/* Under Oclgrind (--sanitize) the buffers keep their
			 * real size: Oclgrind reports a write past it. */
			s->guards[i] = sanitize_is_child() ? 0 : guard_size(a, work_items,
									       s->dev->max_alloc_size);
			rc = guard_buffer_new(s->engine, i, a, s->guards[i], &s->host[i], &s->mems[i]);
			if (rc)
				return rc;
			status = clwarp_kernel_set_arg_buffer(s->kernel, i, s->mems[i]);
		} else if (a->kind == ARGSPEC_LOCAL) {
			status = clwarp_kernel_set_arg_local(s->kernel, i, a->bytes);
		} else {
			unsigned char value[8];

			argspec_scalar_value(a, value);
			status = clwarp_kernel_set_arg_scalar(s->kernel, i, elemtype_size(a->type), value);
		}
		if (status != CLWARP_OK) {
			snprintf(err, sizeof(err), "argument %u ('%s')", i, a->text);
			return report_library_error(err, status);
		}
	}
	return 0;
}

/* The time of run @p r, from its profiled event (released here). */
static int
run_time(struct run_state *s, cl_event ev, unsigned r)
{
	cl_ulong start = 0, end = 0;
	cl_int e = clWaitForEvents(1, &ev);

	if (e == CL_SUCCESS)
		e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(start), &start, NULL);
	if (e == CL_SUCCESS)
		e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL);
	clReleaseEvent(ev);
	if (e != CL_SUCCESS) {
		report_error("kernel %s failed or has no profiling times: %s", s->kname,
			  clwarp_cl_error_name(e));
		return EXIT_RUNTIME;
	}
	s->times[r] = end > start ? end - start : 0;
	return 0;
}

/* Launch, once or --repeat times, each from the same inputs. */
int
run_launch(struct run_state *s)
{
	const struct options *o = &s->merged;
	clwarp_status status;
	int rc;

	s->runs = o->repeat ? o->repeat : 1;
	if (o->repeat) {
		s->times = calloc(s->runs, sizeof(uint64_t));
		if (!s->times) {
			report_error("out of memory");
			return EXIT_RUNTIME;
		}
	}
	for (unsigned r = 0; r < s->runs; r++) {
		cl_event ev = NULL;

		/* Every run starts from the same inputs. */
		for (unsigned i = 0; r > 0 && i < s->nargs; i++) {
			if (s->specs[i].kind != ARGSPEC_BUFFER)
				continue;
			status = clwarp_buffer_write(s->engine, s->mems[i], 0, s->specs[i].bytes, s->host[i]);
			if (status != CLWARP_OK)
				return report_library_error("cannot reset a buffer", status);
		}
		status = clwarp_kernel_launch(s->kernel, s->dims, s->global, s->has_local ? s->local : NULL,
					      o->repeat ? &ev : NULL);
		if (status != CLWARP_OK)
			return report_library_error("launch failed", status);
		if (ev && (rc = run_time(s, ev, r)))
			return rc;
	}
	return 0;
}

/* Read back, and check every guard zone: a write past the end of any
 * buffer fails the run. Then --check's comparisons. */
int
run_read_back(struct run_state *s)
{
	int rc, overflow = 0;

	for (unsigned i = 0; i < s->nargs; i++) {
		const struct argspec *a = &s->specs[i];

		if (a->kind != ARGSPEC_BUFFER)
			continue;
		rc = guard_read_back(s->engine, i, a, s->guards[i], s->host[i], s->mems[i]);
		if (rc == EXIT_OVERFLOW)
			overflow = rc;
		else if (rc)
			return rc;
		if (!a->out)
			continue;
		s->outs[s->nout].arg = i;
		s->outs[s->nout].type = a->type;
		s->outs[s->nout].count = a->count;
		s->outs[s->nout].data = s->host[i];
		s->nout++;
	}
	if (overflow)
		return overflow;
	if (s->merged.check) {
		for (size_t k = 0; k < s->nout; k++) {
			const struct kf_expect *x = kernel_file_expect(&s->kf, (unsigned)k, s->warp);

			if (x)
				check_compare(&s->report, s->outs[k].type, s->outs[k].data, s->outs[k].count,
					      s->outs[k].arg, x->values, x->count);
		}
	}
	return 0;
}
