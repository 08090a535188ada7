/* libclwarp: run-time OpenCL C builds with a program cache and one portable warp API. */
/* SPDX-License-Identifier: MIT */
/** @file */
#ifndef CLWARP_CLWARP_H
#define CLWARP_CLWARP_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CLWARP_BUILDING_LIBRARY) && defined(__GNUC__)
#define CLWARP_EXPORT __attribute__((visibility("default")))
#else
#define CLWARP_EXPORT
#endif

/*
 * Thread safety.
 *
 * An engine may be shared by several threads: building programs, looking up
 * kernels, creating, reading and writing buffers (asynchronously too),
 * allocating and freeing host memory, listing devices and querying
 * backends are safe to call concurrently on one engine. A clwarp_kernel holds
 * argument state (like a cl_kernel), so one kernel object must not be used by
 * two threads at once: give each thread its own with clwarp_kernel_new().
 * clwarp_engine_free() must not race with any other call on that engine.
 */

/** @return the library's version, "MAJOR.MINOR.PATCH". */
CLWARP_EXPORT const char *clwarp_version(void);

/* ------------------------------------------------------------------ status */

typedef enum clwarp_status {
	CLWARP_OK = 0,
	CLWARP_ERROR_INVALID_ARGUMENT,   /**< a NULL or out-of-range argument */
	CLWARP_ERROR_OUT_OF_MEMORY,      /**< a host allocation failed */
	CLWARP_ERROR_NO_DEVICE,          /**< no OpenCL platform or device at all */
	CLWARP_ERROR_DEVICE_NOT_FOUND,   /**< a device spec matched no device */
	CLWARP_ERROR_IO,                 /**< a file is missing, unreadable or unwritable */
	CLWARP_ERROR_BUILD,              /**< the OpenCL C compiler rejected the program */
	CLWARP_ERROR_KERNEL_NOT_FOUND,   /**< no kernel of that name in the program */
	CLWARP_ERROR_OPENCL,             /**< an OpenCL call failed; see clwarp_last_cl_error() */
	CLWARP_ERROR_BACKEND_UNAVAILABLE,/**< a forced warp backend cannot run on this device */
	CLWARP_ERROR_WARP_CONTRACT,      /**< a launch would break the warp contract */
	CLWARP_ERROR_TOO_LARGE,          /**< a size exceeds what the device or the host allows */
	CLWARP_ERROR_TIMEOUT,            /**< a device did not finish within a group's time limit */
} clwarp_status;

/** @return a short English description of @p status; never NULL. */
CLWARP_EXPORT const char *clwarp_status_name(clwarp_status status);

/** @return the name of an OpenCL error code, e.g. "CL_BUILD_PROGRAM_FAILURE". */
CLWARP_EXPORT const char *clwarp_cl_error_name(cl_int err);

/* --------------------------------------------------------------- logging */

typedef enum clwarp_log_level {
	CLWARP_LOG_ERROR = 0,
	CLWARP_LOG_WARNING = 1,
	CLWARP_LOG_INFO = 2,
	CLWARP_LOG_DEBUG = 3,
} clwarp_log_level;

/** A log handler receives one complete message, without a trailing newline. */
typedef void (*clwarp_log_fn)(clwarp_log_level level, const char *message, void *user_data);

/* ---------------------------------------------------------------- devices */

/** What libclwarp knows about one OpenCL device. Strings are owned by the list. */
typedef struct clwarp_device_info {
	unsigned platform_index;
	unsigned device_index;
	const char *platform_name;
	const char *platform_version;
	const char *name;
	const char *vendor;
	const char *driver_version;
	const char *device_version;     /**< "OpenCL X.Y ..." */
	const char *opencl_c_version;   /**< "OpenCL C X.Y ..." */
	const char *extensions;         /**< space-separated, as the driver reports them */
	cl_device_type type;
	size_t max_work_group_size;
	uint64_t local_mem_size;
	uint64_t global_mem_size;
	uint64_t max_alloc_size;
	unsigned nv_warp_size;          /**< CL_DEVICE_WARP_SIZE_NV, 0 where absent */
	int has_subgroups;              /**< cl_khr_subgroups or OpenCL 3.0 sub-groups advertised */
	int has_fp64;
} clwarp_device_info;

/**
 * List every device of every platform.
 * @param[out] list  an array the caller frees with clwarp_device_list_free()
 * @param[out] count number of entries
 * @return CLWARP_OK (possibly with *count == 0), or an error
 */
CLWARP_EXPORT clwarp_status clwarp_device_list_new(clwarp_device_info **list, size_t *count);
/** Free a list from clwarp_device_list_new() and its strings; NULL is fine. */
CLWARP_EXPORT void clwarp_device_list_free(clwarp_device_info *list, size_t count);

/* ---------------------------------------------------------------- engine */

typedef struct clwarp_engine clwarp_engine;
typedef struct clwarp_program clwarp_program;
typedef struct clwarp_kernel clwarp_kernel;

/** How warp primitives are implemented on a device. */
typedef enum clwarp_backend {
	CLWARP_BACKEND_AUTO = 0, /**< probe the device and take the best that works */
	CLWARP_BACKEND_KHR,      /**< cl_khr_subgroups and friends */
	CLWARP_BACKEND_INTEL,    /**< cl_intel_subgroups */
	CLWARP_BACKEND_NV,       /**< inline PTX on NVIDIA */
	CLWARP_BACKEND_LOCAL,    /**< local-memory emulation, works everywhere */
} clwarp_backend;

/** @return "auto", "khr", "intel", "nv" or "local". */
CLWARP_EXPORT const char *clwarp_backend_name(clwarp_backend backend);
/** Parse a backend name; @return CLWARP_ERROR_INVALID_ARGUMENT for an unknown one. */
CLWARP_EXPORT clwarp_status clwarp_backend_from_name(const char *name, clwarp_backend *out);

enum clwarp_engine_flags {
	/** Ignore every CLWARP_* environment variable. */
	CLWARP_ENGINE_NO_ENVIRONMENT = 1u << 0,
	/** Neither read nor write the on-disk program cache. */
	CLWARP_ENGINE_NO_DISK_CACHE = 1u << 1,
	/** Create the command queue with profiling enabled. */
	CLWARP_ENGINE_PROFILING = 1u << 2,
	/** khr backend: run at the device's own sub-group width even where
	 *  cl_intel_required_subgroup_size could pin it to 32. Only that: where
	 *  the device has no fixed native width, khr is unavailable (no
	 *  fallback to the pin). */
	CLWARP_ENGINE_NATIVE_WIDTH = 1u << 3,
};

#define CLWARP_ENGINE_KNOWN_FLAGS 0xfu

/** Default bound on the disk cache folder, in bytes (256 MiB). */
#define CLWARP_CACHE_DEFAULT_MAX_BYTES (256ull << 20)

/**
 * Options for clwarp_engine_new(). Fill with clwarp_engine_options_init()
 * first, then change what you need; NULL pointers mean "default".
 *
 * Environment (unless CLWARP_ENGINE_NO_ENVIRONMENT): CLWARP_DEVICE,
 * CLWARP_BACKEND, CLWARP_WARP_SIZE, CLWARP_NATIVE_WIDTH (1 sets
 * CLWARP_ENGINE_NATIVE_WIDTH), CLWARP_CACHE (0 turns the disk cache
 * off), CLWARP_CACHE_DIR, CLWARP_CACHE_GROUP, CLWARP_CACHE_MAX_BYTES, CLWARP_LOG_LEVEL
 * (error|warning|info|debug or 0-3), CLWARP_STAGING (the staging of
 * clwarp_buffer_read() and clwarp_buffer_write(), docs/copies.md). An
 * explicit option wins over the environment.
 */
typedef struct clwarp_engine_options {
	unsigned flags;              /**< clwarp_engine_flags */
	const char *device;          /**< "P:D", "cpu", "gpu" or a name substring */
	clwarp_backend backend;      /**< CLWARP_BACKEND_AUTO unless forced */
	unsigned warp_size;          /**< local backend width, 0 = default (32) */
	const char *cache_dir;       /**< disk cache folder */
	uint64_t cache_max_bytes;    /**< 0 = CLWARP_CACHE_DEFAULT_MAX_BYTES */
	clwarp_log_fn log_fn;        /**< NULL: messages go to stderr */
	void *log_user_data;
	int log_level;               /**< -1 = from env, else clwarp_log_level */
	/** A group that shares the disk cache folder: its members' entries are
	 *  trusted and the folder may be group-writable (docs/cache.md,
	 *  "Trust"). NULL = CLWARP_CACHE_GROUP, else the folder is the
	 *  user's alone. */
	const char *cache_group;
} clwarp_engine_options;

/** Fill @p options with the defaults: no flags, automatic backend, log level from the environment. */
CLWARP_EXPORT void clwarp_engine_options_init(clwarp_engine_options *options);

/**
 * Create an engine on a device chosen by @p options (NULL: all defaults).
 * Default device: CLWARP_DEVICE, else the first GPU, else the first device.
 * @param[out] engine freed with clwarp_engine_free()
 */
CLWARP_EXPORT clwarp_status clwarp_engine_new(const clwarp_engine_options *options,
                                              clwarp_engine **engine);

/**
 * Wrap OpenCL objects the application already has. The engine retains
 * them and releases its references in clwarp_engine_free(); the
 * application keeps its own. @p queue may be NULL (one is created).
 */
CLWARP_EXPORT clwarp_status clwarp_engine_new_from_cl(cl_context context, cl_device_id device,
                                                      cl_command_queue queue,
                                                      const clwarp_engine_options *options,
                                                      clwarp_engine **engine);

/**
 * Free the engine, every program it built, and its OpenCL references. NULL
 * is fine. Blocks from clwarp_host_buffer_new() still out are freed too, after
 * the engine waits for its queue to finish (copies in flight may use
 * them); an engine holding none does not wait, and commands still queued
 * complete on their own (their host memory must stay valid until then).
 */
CLWARP_EXPORT void clwarp_engine_free(clwarp_engine *engine);

/** @return the engine's OpenCL context, owned by the engine (retain it to keep it longer). */
CLWARP_EXPORT cl_context clwarp_engine_context(const clwarp_engine *engine);
/** @return the engine's OpenCL device. */
CLWARP_EXPORT cl_device_id clwarp_engine_device(const clwarp_engine *engine);
/** @return the queue every call on this engine enqueues on, owned by the engine. */
CLWARP_EXPORT cl_command_queue clwarp_engine_queue(const clwarp_engine *engine);
/** @return the engine's device description; valid while the engine lives. */
CLWARP_EXPORT const clwarp_device_info *clwarp_engine_device_info(const clwarp_engine *engine);

/**
 * The backend the engine uses for warp primitives and its warp width. The
 * first call probes the device (or reads the cached verdict) unless the
 * backend was forced. Forcing a backend the device cannot run gives
 * CLWARP_ERROR_BACKEND_UNAVAILABLE.
 */
CLWARP_EXPORT clwarp_status clwarp_engine_backend(clwarp_engine *engine, clwarp_backend *backend,
                                                  unsigned *warp_size);

/**
 * Whether the engine's warp width is the device's own sub-group width (the
 * khr backend without a pin; the width may then be anything from 1 to 64
 * that the probe measured). @param[out] native 1 or 0. Resolves the
 * backend like clwarp_engine_backend().
 */
CLWARP_EXPORT clwarp_status clwarp_engine_backend_native(clwarp_engine *engine, int *native);

/** @return the raw OpenCL error of the last failed OpenCL call in this thread, or CL_SUCCESS. */
CLWARP_EXPORT cl_int clwarp_last_cl_error(void);

/**
 * @return the last error message for this thread (e.g. "kernels/a.cl:12:
 * error: ..."), or "" when there is none. Valid until the next call into the
 * library from this thread.
 */
CLWARP_EXPORT const char *clwarp_last_error(void);

/** @return the disk cache folder in use (resolved: absolute, no symbolic
 *  links), or NULL when the disk cache is off or its folder was refused. */
CLWARP_EXPORT const char *clwarp_engine_cache_dir(const clwarp_engine *engine);

/* --------------------------------------------------------------- programs */

/** Where a build came from. */
typedef enum clwarp_build_source {
	CLWARP_BUILD_COMPILED = 0,  /**< the OpenCL C compiler ran */
	CLWARP_BUILD_DISK_HIT,      /**< a binary from the disk cache */
	CLWARP_BUILD_MEMORY_HIT,    /**< a program this engine already built */
} clwarp_build_source;

/** @return "compiled", "disk" or "memory". */
CLWARP_EXPORT const char *clwarp_build_source_name(clwarp_build_source source);

/**
 * What a build did. Pass one to the build calls to learn it; release with
 * clwarp_build_info_free(). After CLWARP_ERROR_BUILD, @c log holds the
 * compiler's full log, with file names and line numbers of the user's
 * sources.
 */
typedef struct clwarp_build_info {
	clwarp_build_source source;
	double milliseconds;   /**< wall time of the whole build call */
	char *log;             /**< build log, may be NULL; owned, see clwarp_build_info_free() */
	cl_int cl_error;       /**< the OpenCL error, CL_SUCCESS if none */
} clwarp_build_info;

/** Free @p info's log and zero it, ready for another build; NULL is fine. */
CLWARP_EXPORT void clwarp_build_info_free(clwarp_build_info *info);

/**
 * Build an OpenCL C file for the engine's device. `#include "x.cl"` is
 * resolved relative to the including file's folder, then the -I folders in
 * @p options. The warp API is available without an #include.
 *
 * @param path     file to build
 * @param options  extra compiler options, may be NULL
 * @param[out] program owned by the engine; valid until clwarp_engine_free()
 * @param[out] info may be NULL
 */
CLWARP_EXPORT clwarp_status clwarp_program_build_file(clwarp_engine *engine, const char *path,
                                                      const char *options,
                                                      clwarp_program **program,
                                                      clwarp_build_info *info);

/**
 * Build OpenCL C source text. @p name appears in compiler messages (NULL:
 * "<string>"); relative #include paths start from the current folder.
 */
CLWARP_EXPORT clwarp_status clwarp_program_build_source(clwarp_engine *engine, const char *source,
                                                        const char *name, const char *options,
                                                        clwarp_program **program,
                                                        clwarp_build_info *info);

/** @return the built cl_program, owned by the engine; NULL for a NULL program. */
CLWARP_EXPORT cl_program clwarp_program_cl(const clwarp_program *program);

/** @return number of kernels; @p index < count gives each name (owned by the program). */
CLWARP_EXPORT size_t clwarp_program_kernel_count(const clwarp_program *program);
/** @return the name of kernel @p index, owned by the program; NULL when out of range. */
CLWARP_EXPORT const char *clwarp_program_kernel_name(const clwarp_program *program, size_t index);

/** Create a kernel object; free it with clwarp_kernel_free(). */
CLWARP_EXPORT clwarp_status clwarp_kernel_new(clwarp_program *program, const char *name,
                                              clwarp_kernel **kernel);

/* ---------------------------------------------------------------- kernels */

/** Free a kernel object from clwarp_kernel_new(); NULL is fine. */
CLWARP_EXPORT void clwarp_kernel_free(clwarp_kernel *kernel);
/**
 * @return the kernel's cl_kernel, owned by the kernel object. Set its
 * arguments through clwarp_kernel_set_arg_*(): clwarp_kernel_launch() and
 * clwarp_kernel_enqueue() refuse a kernel with an argument never set that
 * way.
 */
CLWARP_EXPORT cl_kernel clwarp_kernel_cl(const clwarp_kernel *kernel);

/** Number of arguments the user's kernel declares (hidden ones excluded). */
CLWARP_EXPORT unsigned clwarp_kernel_arg_count(const clwarp_kernel *kernel);

/**
 * Set argument @p index to @p buffer. Indexes count the arguments the
 * user's kernel declares (clwarp_kernel_arg_count(), hidden ones excluded),
 * here and in the two calls below.
 */
CLWARP_EXPORT clwarp_status clwarp_kernel_set_arg_buffer(clwarp_kernel *kernel, unsigned index,
                                                         cl_mem buffer);
/** A scalar argument: @p size bytes from @p value (not NULL, size > 0), as clSetKernelArg takes it. */
CLWARP_EXPORT clwarp_status clwarp_kernel_set_arg_scalar(clwarp_kernel *kernel, unsigned index,
                                                         size_t size, const void *value);
/** A local-memory argument of @p bytes (> 0). */
CLWARP_EXPORT clwarp_status clwarp_kernel_set_arg_local(clwarp_kernel *kernel, unsigned index,
                                                        size_t bytes);

/**
 * The backend and warp width a launch with this local size would get. A
 * local size that breaks the warp contract gives CLWARP_ERROR_WARP_CONTRACT
 * and a message saying why.
 */
CLWARP_EXPORT clwarp_status clwarp_kernel_warp_info(const clwarp_kernel *kernel, unsigned dims,
                                                    const size_t *local, clwarp_backend *backend,
                                                    unsigned *warp_size);

/**
 * Launch. @p local may be NULL only for kernels that use no warp function
 * (the driver then picks). With @p event NULL the call waits for the kernel
 * to finish; otherwise it returns at once with an event the caller releases.
 * The warp contract check (and the local backend's scratch argument) runs
 * once per local size: a launch of the kernel's last checked local size
 * does no work beyond the size checks and the enqueue. A kernel, like a
 * cl_kernel, is used by one thread at a time.
 * Sizes: a global size of 0, or one the local size does not divide, gives
 * CLWARP_ERROR_INVALID_ARGUMENT; work-items whose count overflows size_t,
 * or more than 2^32 - 1 work-groups (with @p local NULL: work-items;
 * drivers count work-groups in 32 bits), give CLWARP_ERROR_TOO_LARGE.
 * Arguments: one never set through clwarp_kernel_set_arg_*() gives
 * CLWARP_ERROR_OPENCL with clwarp_last_cl_error() CL_INVALID_KERNEL_ARGS
 * and a message naming it, without calling the driver (on NVIDIA's, such
 * a launch breaks what other threads enqueue at the same time).
 */
CLWARP_EXPORT clwarp_status clwarp_kernel_launch(clwarp_kernel *kernel, unsigned dims,
                                                 const size_t *global, const size_t *local,
                                                 cl_event *event);

/**
 * Launch without waiting and without an event: the kernel is queued on the
 * engine's queue (clwarp_engine_queue()) and runs in order with the
 * commands around it there. Wait with clFinish() on that queue, or with a
 * blocking read. Errors that the driver reports only when the kernel runs
 * surface at that wait.
 */
CLWARP_EXPORT clwarp_status clwarp_kernel_enqueue(clwarp_kernel *kernel, unsigned dims,
                                                  const size_t *global, const size_t *local);

/* ---------------------------------------------------------------- buffers */

/**
 * Create a device buffer of @p bytes; when @p host_data is not NULL its
 * contents are copied in. @p flags: CL_MEM_READ_WRITE etc. (no host-pointer
 * flags).
 */
CLWARP_EXPORT clwarp_status clwarp_buffer_new(clwarp_engine *engine, cl_mem_flags flags,
                                              size_t bytes, const void *host_data, cl_mem *buffer);
/**
 * Blocking read of @p bytes at @p offset into @p dst. The range must lie
 * inside the buffer; 0 bytes (with any @p dst, NULL included) does
 * nothing and succeeds. On GPUs whose driver pins CL_MEM_ALLOC_HOST_PTR
 * memory, a copy of 16 MiB or more (the default threshold) to or from
 * ordinary memory goes through pinned chunks kept by the engine, several
 * in flight, with host threads copying (docs/copies.md; CLWARP_STAGING
 * tunes it). Safe to call from
 * several threads on one engine.
 */
CLWARP_EXPORT clwarp_status clwarp_buffer_read(clwarp_engine *engine, cl_mem buffer, size_t offset,
                                               size_t bytes, void *dst);
/** Blocking write of @p bytes from @p src at @p offset; ranges and 0 bytes as clwarp_buffer_read(). */
CLWARP_EXPORT clwarp_status clwarp_buffer_write(clwarp_engine *engine, cl_mem buffer, size_t offset,
                                                size_t bytes, const void *src);

/**
 * Asynchronous read: enqueue a copy of @p bytes at @p offset into @p dst
 * on the engine's queue and return at once. The copy starts after the
 * @p num_wait events of @p wait (and, on the engine's in-order queue,
 * after every command queued before it).
 *
 * Lifetime: @p dst must stay valid, and must not be read, until the copy
 * has completed (wait for @p event, or clFinish() the engine's queue).
 * Host memory from clwarp_host_buffer_new() copies at the bus's full speed.
 *
 * Ranges as clwarp_buffer_read(). 0 bytes copies nothing; the event, if
 * asked for, is then a marker that completes after @p wait.
 * @param num_wait number of events in @p wait; 0 with @p wait NULL
 * @param[out] event may be NULL; otherwise an event the caller releases
 *                   with clReleaseEvent()
 */
CLWARP_EXPORT clwarp_status clwarp_buffer_read_async(clwarp_engine *engine, cl_mem buffer,
                                                     size_t offset, size_t bytes, void *dst,
                                                     cl_uint num_wait, const cl_event *wait,
                                                     cl_event *event);
/**
 * Asynchronous write of @p bytes from @p src at @p offset, as
 * clwarp_buffer_read_async(): @p src must stay valid and unchanged until
 * the copy has completed.
 */
CLWARP_EXPORT clwarp_status clwarp_buffer_write_async(clwarp_engine *engine, cl_mem buffer,
                                                      size_t offset, size_t bytes, const void *src,
                                                      cl_uint num_wait, const cl_event *wait,
                                                      cl_event *event);

/* ------------------------------------------------------------ host memory */

/**
 * Allocate @p bytes of host memory that the engine's device copies at full
 * speed, like cudaMallocHost(): a CL_MEM_ALLOC_HOST_PTR buffer of the
 * engine's context, mapped for reading and writing (the map waits for
 * the commands already on the engine's queue). Use it as the host side of
 * clwarp_buffer_read(), clwarp_buffer_write() and their _async forms.
 *
 * Fallback: where that gives nothing faster (PoCL, whose devices use host
 * memory anyway; any device that is not a GPU), or where the driver
 * refuses to create or map the buffer, the memory is ordinary
 * page-aligned memory (anonymous mmap pages). Either way it works the same;
 * clwarp_host_buffer_pinned() says which one a block is.
 *
 * Errors: 0 bytes and NULL arguments give CLWARP_ERROR_INVALID_ARGUMENT;
 * more than the device's largest allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE)
 * gives CLWARP_ERROR_TOO_LARGE; CLWARP_ERROR_OUT_OF_MEMORY when the
 * memory cannot be had, or when the engine would hold more than half the
 * host's physical memory in such blocks at once.
 *
 * @param[out] out the memory, freed with clwarp_host_buffer_free() on the same
 *                 engine. Blocks still out when the engine is freed are
 *                 freed with it: clwarp_engine_free() then first waits for
 *                 the engine's queue to finish.
 */
CLWARP_EXPORT clwarp_status clwarp_host_buffer_new(clwarp_engine *engine, size_t bytes, void **out);
/**
 * Free a block from clwarp_host_buffer_new() on this engine; @p ptr NULL does
 * nothing. Every copy that uses the block must have completed. A pointer
 * the engine did not give (another engine's, one freed already, or one
 * into the middle of a block) gives CLWARP_ERROR_INVALID_ARGUMENT and
 * frees nothing.
 */
CLWARP_EXPORT clwarp_status clwarp_host_buffer_free(clwarp_engine *engine, void *ptr);
/**
 * Whether @p ptr, anywhere inside a block from clwarp_host_buffer_new() on
 * this engine, is pinned (@p pinned 1) or the fallback's ordinary memory
 * (0). A pointer into no such block gives CLWARP_ERROR_INVALID_ARGUMENT.
 */
CLWARP_EXPORT clwarp_status clwarp_host_buffer_pinned(clwarp_engine *engine, const void *ptr,
                                                      int *pinned);

#ifdef __cplusplus
}
#endif

#include "clwarp/algorithms.h"

#endif /* CLWARP_CLWARP_H */
