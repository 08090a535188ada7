/* The engine: one device, its context and queue, its caches and warp backend. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_ENGINE_H
#define CLWARP_ENGINE_H

#include <pthread.h>
#include <stdbool.h>

#include "clwarp/clwarp.h"
#include "diskcache.h"
#include "log.h"
#include "staging.h"

/* Feature bits of the khr and intel backends, each set only after a probe passed with it. */
enum backend_feature {
	FEATURE_KHR_SHUFFLE = 1u << 0,
	FEATURE_KHR_SHUFFLE_RELATIVE = 1u << 1,
	FEATURE_KHR_BALLOT = 1u << 2,
	/* cl_khr_subgroup_non_uniform_arithmetic: whole-warp mul and xor
	 * reductions of the integer types (kernels/warp/common.cl) */
	FEATURE_SG_NON_UNIFORM_ARITH = 1u << 3,
	/* cl_khr_subgroup_extended_types: whole-warp broadcasts of vectors
	 * (kernels/warp/types.cl) */
	FEATURE_SG_EXTENDED_TYPES = 1u << 4,
};

/* Everything about the warp backend that changes the code a program is built with. */
struct backend_config {
	clwarp_backend backend;   /* never CLWARP_BACKEND_AUTO here */
	unsigned warp_size;
	unsigned features;        /* enum backend_feature */
	unsigned nv_sm;           /* NVIDIA compute capability major*10+minor */
	bool fp64;
	bool fp16;                /* cl_khr_fp16: the half warp functions */
	bool native;              /* khr: the device's own sub-group width, no pin */
	bool cl_std_30;           /* khr: sub-groups are an OpenCL C 3.0 feature, build with -cl-std=CL3.0 */
	bool dim0_only;           /* the probe's finding, not a choice: sub-groups follow dimension 0,
				   * so a local size's x extent must be a multiple of warp_size */
	bool pin_query;           /* the probe's finding: CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
				   * reports the width pin, so each kernel's is checked */
	bool barrier_warps;       /* khr on PoCL: its sub-group functions are work-group barriers
				   * underneath, so warp calls under branches take the flow
				   * rewrite (src/warpflow.h), as on local */
	bool generic_scans;       /* khr, intel: a measured choice, not a probe's: the whole-warp
				   * scans take generic.cl's shuffles, where the core
				   * sub_group_scan_* were measured slower (Intel's CPU runtime) */
};

struct clwarp_program {
	struct clwarp_engine *engine;
	cl_program program;
	uint8_t key[32];
	char **kernel_names;
	size_t kernel_count;
	struct backend_config config;
	bool uses_warp;          /* the source names warp_* functions */
	bool scratch_arg;        /* its kernels end with the hidden scratch parameter (source.h) */
	struct clwarp_program *next;
};

struct clwarp_engine {
	cl_platform_id platform;
	cl_context context;
	cl_device_id device;
	cl_command_queue queue;
	bool queue_in_order;             /* no CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE */
	clwarp_device_info info;
	unsigned flags;
	struct clwarp_logger logger;
	struct diskcache disk;

	pthread_mutex_t programs_lock;   /* guards `programs` */
	struct clwarp_program *programs; /* the in-memory program cache */

	pthread_mutex_t memo_lock;       /* guards `memo` */
	struct build_memo *memo;         /* repeated build requests (src/buildmemo.c) */

	pthread_mutex_t backend_lock;    /* guards the backend fields below */
	clwarp_backend requested_backend;
	unsigned requested_warp_size;    /* local backend width */
	bool prefer_native;              /* khr: the native sub-group width even where a pin exists */
	bool backend_resolved;
	clwarp_status backend_status;
	char backend_error[1024];
	struct backend_config backend;

	pthread_mutex_t algorithms_lock; /* guards `algorithms` (src/algorithms.c) */
	struct algorithms *algorithms;

	pthread_mutex_t host_lock;       /* guards the two below (src/hostmem.c) */
	struct host_block *host_blocks;  /* clwarp_host_buffer_new's blocks still out */
	size_t host_bytes;               /* their sum */

	struct staging staging;          /* chunks for blocking copies (src/staging.c) */
	unsigned pocl_slot;              /* PoCL 4 and 5: -D CLWARP_POCL_SLOT (src/pocl_slot.h) */
	bool runtime_keeps_kernels;      /* binaries from a second process (src/pocl_kcache.h) */
};


/* The defaults, as clwarp_engine_options_init(). */
void engine_options_init(clwarp_engine_options *options);

/* clwarp_engine_new and clwarp_engine_free without the public entry's
 * error reset, for the library's own callers (src/group.c). */
clwarp_status engine_new(const clwarp_engine_options *options, clwarp_engine **engine);
void engine_free(clwarp_engine *engine);

#endif
