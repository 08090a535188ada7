/* Device-wide algorithms: one call, from taking the lock to handing out its
 * event. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "algo.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "backend.h"
#include "error.h"
#include "kernel.h"

/* ------------------------------------------------------------ launches */

clwarp_status
algo_call_begin(struct algo_call *c, const char *fn, clwarp_engine *engine, enum algo_kind kind,
		clwarp_type type, clwarp_op op, int inclusive, const char *predicate, int value_type,
		size_t n, const cl_event *event)
{
	clwarp_status status;

	memset(c, 0, sizeof(*c));
	c->fn = fn;
	c->engine = engine;
	/* A blocking call on an in-order queue waits with clFinish: no events. */
	c->events = event || !engine->queue_in_order;
	status = backend_resolve(engine, &c->config);
	if (status != CLWARP_OK)
		return status;
	pthread_mutex_lock(&engine->algorithms_lock);
	c->locked = true;
	status = algo_state_get(engine, c->config, &c->a);
	if (status == CLWARP_OK)
		status = algo_variant_get(fn, engine, c->a, c->config, kind, type, op, inclusive, predicate,
					  value_type, n, &c->v);
	return status;
}

/* Queue the held launch, with an event only when it ends the call. */
static clwarp_status
flush_pending(struct algo_call *c, bool last)
{
	clwarp_kernel *k = c->pending;
	size_t local = c->v->wg;

	if (!k)
		return CLWARP_OK;
	c->pending = NULL;
	if (c->last) {
		clReleaseEvent(c->last);
		c->last = NULL;
	}
	return kernel_enqueue_at(k, 1, NULL, &c->pending_global, &local, last ? &c->last : NULL);
}

/* Set argument i unless the memo says it holds these bytes already
 * (memo false: a caller's buffer, set every time and not remembered). */
static clwarp_status
set_arg(struct algo_call *c, unsigned which, unsigned i, size_t size, const void *value, bool memo)
{
	struct algo_variant *v = c->v;
	clwarp_status status;

	if (i >= ALGO_ARGS || size > sizeof(v->memo[which][i].bytes))
		memo = false;
	else if (memo && v->memo[which][i].size == size &&
		 memcmp(v->memo[which][i].bytes, value, size) == 0)
		return CLWARP_OK;
	if (i < ALGO_ARGS)
		v->memo[which][i].size = 0;
	status = kernel_set_arg(v->kernels[which], i, size, value);
	if (status == CLWARP_OK && memo) {
		memcpy(v->memo[which][i].bytes, value, size);
		v->memo[which][i].size = (unsigned char)size;
	}
	return status;
}

/* Arguments: 'b' cl_mem of the caller's, 't' cl_mem of the engine's
 * (struct algorithms' temporaries), 'l' cl_ulong, 'u' cl_uint, 'v' one
 * element of the variant's type, passed as a const void *. */
clwarp_status
algo_call_launch(struct algo_call *c, unsigned which, size_t global, const char *sig, ...)
{
	clwarp_kernel *k = c->v->kernels[which];
	size_t local = c->v->wg;
	va_list ap;
	clwarp_status status;
	cl_int err;

	/* Before the arguments change: the held launch may be this kernel's. */
	status = flush_pending(c, false);
	/* A temporary released since the memo was made: forget all of it. */
	if (c->v->memo_gen[which] != c->a->temps_gen) {
		memset(c->v->memo[which], 0, sizeof(c->v->memo[which]));
		c->v->memo_gen[which] = c->a->temps_gen;
	}
	va_start(ap, sig);
	for (unsigned i = 0; sig[i] && status == CLWARP_OK; i++) {
		if (sig[i] == 'b' || sig[i] == 't') {
			cl_mem b = va_arg(ap, cl_mem);

			status = set_arg(c, which, i, sizeof(b), &b, sig[i] == 't');
		} else if (sig[i] == 'v') {
			status = set_arg(c, which, i, algo_types[c->v->type].size,
					 va_arg(ap, const void *), true);
		} else if (sig[i] == 'l') {
			cl_ulong x = va_arg(ap, cl_ulong);

			status = set_arg(c, which, i, sizeof(x), &x, true);
		} else {
			cl_uint x = va_arg(ap, cl_uint);

			status = set_arg(c, which, i, sizeof(x), &x, true);
		}
	}
	va_end(ap);
	if (status != CLWARP_OK)
		return status;
	if (c->a->out_of_order) {
		err = clEnqueueBarrierWithWaitList(c->engine->queue, 0, NULL, NULL);
		if (err != CL_SUCCESS)
			return set_cl_error(err, "clEnqueueBarrierWithWaitList");
	}
	global = (global + local - 1) / local * local;
	if (!c->events)
		return kernel_enqueue_at(k, 1, NULL, &global, &local, NULL);
	c->pending = k;
	c->pending_global = global;
	return CLWARP_OK;
}

/* Nothing to compute: an event all the same, where one is wanted. */
clwarp_status
algo_call_marker(struct algo_call *c)
{
	cl_int err;

	if (!c->events)
		return CLWARP_OK;
	if (c->pending)
		return flush_pending(c, true);
	err = clEnqueueMarkerWithWaitList(c->engine->queue, 0, NULL, &c->last);
	return err == CL_SUCCESS ? CLWARP_OK : set_cl_error(err, "clEnqueueMarkerWithWaitList");
}

/* A copy between buffers, in the call's order of commands. */
clwarp_status
algo_call_copy(struct algo_call *c, cl_mem from, cl_mem to, size_t bytes)
{
	cl_event done = NULL;
	cl_int err;
	clwarp_status status = flush_pending(c, false);

	if (status != CLWARP_OK)
		return status;
	if (c->a->out_of_order) {
		err = clEnqueueBarrierWithWaitList(c->engine->queue, 0, NULL, NULL);
		if (err != CL_SUCCESS)
			return set_cl_error(err, "clEnqueueBarrierWithWaitList");
	}
	err = clEnqueueCopyBuffer(c->engine->queue, from, to, 0, 0, bytes, 0, NULL,
				  c->events ? &done : NULL);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clEnqueueCopyBuffer");
	if (done) {
		if (c->last)
			clReleaseEvent(c->last);
		c->last = done;
	}
	return CLWARP_OK;
}

/* Unlock, then hand out the last event or wait for it. */
clwarp_status
algo_call_end(struct algo_call *c, clwarp_status status, cl_event *event)
{
	cl_int err;

	/* The last command makes the call's event (a failed call drops it). */
	if (status == CLWARP_OK)
		status = flush_pending(c, true);
	c->pending = NULL;
	if (c->locked)
		pthread_mutex_unlock(&c->engine->algorithms_lock);
	if (status != CLWARP_OK) {
		if (c->last)
			clReleaseEvent(c->last);
		return status;
	}
	if (!c->events) {
		/* In order: everything this call queued is done when the queue is. */
		err = clFinish(c->engine->queue);
		return err == CL_SUCCESS ? CLWARP_OK : set_cl_error(err, c->fn);
	}
	if (!c->last)
		return CLWARP_OK;
	if (event) {
		*event = c->last;
		return CLWARP_OK;
	}
	err = clWaitForEvents(1, &c->last);
	clReleaseEvent(c->last);
	if (err != CL_SUCCESS)
		return set_cl_error(err, c->fn);
	return CLWARP_OK;
}

/* A fresh epoch for the look-back status words, and room for `tiles` tiles. */
clwarp_status
algo_lookback_prepare(struct algo_call *c, size_t tiles, size_t value_size, cl_uint *epoch)
{
	struct algorithms *a = c->a;
	clwarp_status status;

	if (tiles >= INT_MAX)
		return set_error(CLWARP_ERROR_TOO_LARGE, "%s: %zu tiles are too many", c->fn, tiles);
	/* A held launch is queued first: the reserve may replace buffers it
	 * uses, and the fill below must follow it. */
	status = flush_pending(c, false);
	if (status == CLWARP_OK)
		status = algo_temp_reserve(c->engine, &a->tile_words, &a->tile_words_bytes,
			      tiles * sizeof(cl_ulong));
	if (status == CLWARP_OK)
		status = algo_temp_reserve(c->engine, &a->tile_slots, &a->tile_slots_bytes,
				      2 * tiles * value_size);
	if (status != CLWARP_OK)
		return status;
	if (++a->epoch >= EPOCH_LIMIT) {
		cl_uint zero = 0;
		cl_int err = clEnqueueFillBuffer(c->engine->queue, a->tile_words, &zero,
						 sizeof(zero), 0, a->tile_words_bytes, 0, NULL,
						 NULL);

		if (err != CL_SUCCESS)
			return set_cl_error(err, "clEnqueueFillBuffer");
		a->epoch = 1;
	}
	*epoch = a->epoch;
	return CLWARP_OK;
}
