/* Program builds: source assembly, the in-memory and on-disk program caches. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "buildlog.h"
#include "error.h"
#include "sha256.h"
#include "source.h"
#include "util.h"

/* Always on: clwarp-run and argument checks read kernel argument types. */
#define ALWAYS_OPTIONS "-cl-kernel-arg-info"

CLWARP_EXPORT const char *
clwarp_build_source_name(clwarp_build_source source)
{
	switch (source) {
	case CLWARP_BUILD_COMPILED: return "compiled";
	case CLWARP_BUILD_DISK_HIT: return "disk";
	case CLWARP_BUILD_MEMORY_HIT: return "memory";
	}
	return "unknown";
}

CLWARP_EXPORT void
clwarp_build_info_free(clwarp_build_info *info)
{
	build_info_clear(info);
}

void
build_info_clear(clwarp_build_info *info)
{
	if (!info)
		return;
	free(info->log);
	memset(info, 0, sizeof(*info));
}

/*
 * The cache key covers everything that changes the binary: the library's
 * version, the platform and device identity, the final options, and the
 * full program text, which already holds the backend prelude and the
 * contents of every quoted #include.
 */
static void
program_key(const clwarp_engine *engine, const char *options, const char *text, uint8_t key[32])
{
	const clwarp_device_info *d = &engine->info;
	struct sha256 h;

	sha256_init(&h);
	sha256_update_str(&h, "clwarp program " CLWARP_VERSION);
	sha256_update_str(&h, d->platform_name);
	sha256_update_str(&h, d->platform_version);
	sha256_update_str(&h, d->name);
	sha256_update_str(&h, d->vendor);
	sha256_update_str(&h, d->driver_version);
	sha256_update_str(&h, d->device_version);
	sha256_update_str(&h, d->opencl_c_version);
	sha256_update_str(&h, options);
	sha256_update_str(&h, text);
	sha256_final(&h, key);
}

static char *
build_log(cl_program program, cl_device_id device)
{
	size_t size = 0;
	char *log;

	if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
		return NULL;
	log = calloc(1, size + 1);
	if (log && clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) !=
			   CL_SUCCESS)
		log[0] = '\0';
	return log;
}

/*
 * clBuildProgram, once or twice more where it failed without a compiler
 * diagnostic. PoCL 3.1 fails about one build in 300-500, with a log that
 * only says the device "failed to build the program", while other
 * processes build the same programs into its empty kernel cache; the
 * same build then succeeds (contrib/driver-bugs/pocl-kcache-race/). A compile error
 * names an error in the log and is not retried.
 */
#define BUILD_RETRIES 2

cl_int
program_cl_build(clwarp_engine *engine, cl_program program, const char *options)
{
	cl_int err = clBuildProgram(program, 1, &engine->device, options, NULL, NULL);

	for (int retry = 0; retry < BUILD_RETRIES && err == CL_BUILD_PROGRAM_FAILURE; retry++) {
		char *log = build_log(program, engine->device);
		bool diagnosed = log && strstr(log, "error");

		free(log);
		if (diagnosed)
			break;
		log_info(&engine->logger, "a build failed with no diagnostic in its log; building it again");
		err = clBuildProgram(program, 1, &engine->device, options, NULL, NULL);
	}
	return err;
}

/* The first line of a build log that reports an error, for the one-line message. */
static void
first_error_line(const char *log, char *line, size_t size)
{
	const char *p = log ? strstr(log, "error") : NULL;
	const char *start, *end;

	line[0] = '\0';
	if (!p)
		return;
	start = p;
	while (start > log && start[-1] != '\n')
		start--;
	end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	snprintf(line, size, "%.*s", (int)(end - start), start);
}

static clwarp_status
program_kernel_names(clwarp_program *prog)
{
	size_t count = 0, size = 0;
	char *names, *save = NULL;
	cl_int err;

	/* Count first: NVIDIA's driver crashes when asked for the names of a
	 * program without kernels, and Intel's CPU runtime calls such a
	 * program's executable invalid (contrib/driver-bugs/nvidia-driver/README.md). A
	 * program that got here was built, so either way it has none. */
	err = clGetProgramInfo(prog->program, CL_PROGRAM_NUM_KERNELS, sizeof(count), &count, NULL);
	if (err == CL_INVALID_PROGRAM_EXECUTABLE || (err == CL_SUCCESS && count == 0))
		return CLWARP_OK;
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clGetProgramInfo(CL_PROGRAM_NUM_KERNELS)");
	err = clGetProgramInfo(prog->program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clGetProgramInfo(CL_PROGRAM_KERNEL_NAMES)");
	names = calloc(1, size + 1);
	if (!names)
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	err = clGetProgramInfo(prog->program, CL_PROGRAM_KERNEL_NAMES, size, names, NULL);
	if (err != CL_SUCCESS) {
		free(names);
		return set_cl_error(err, "clGetProgramInfo(CL_PROGRAM_KERNEL_NAMES)");
	}
	for (char *tok = strtok_r(names, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		char **list = realloc(prog->kernel_names, (prog->kernel_count + 1) * sizeof(char *));

		if (!list || !(list[prog->kernel_count] = strdup(tok))) {
			if (list)
				prog->kernel_names = list;
			free(names);
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		}
		prog->kernel_names = list;
		prog->kernel_count++;
	}
	free(names);
	return CLWARP_OK;
}

static void
program_destroy(clwarp_program *prog)
{
	if (!prog)
		return;
	if (prog->program)
		clReleaseProgram(prog->program);
	for (size_t i = 0; i < prog->kernel_count; i++)
		free(prog->kernel_names[i]);
	free(prog->kernel_names);
	free(prog);
}

/* Try the disk cache; any failure just means "compile instead". */
static cl_program
load_from_disk(clwarp_engine *engine, const uint8_t key[32], const char *options)
{
	void *binary = NULL;
	size_t size = 0;
	cl_int err, binary_status = CL_SUCCESS;
	cl_program program;

	if (!diskcache_load(&engine->disk, key, "bin", &binary, &size))
		return NULL;
	program = clCreateProgramWithBinary(engine->context, 1, &engine->device, &size,
					    (const unsigned char **)&binary, &binary_status, &err);
	free(binary);
	if (err == CL_SUCCESS && binary_status == CL_SUCCESS)
		err = program_cl_build(engine, program, options);
	else if (err == CL_SUCCESS)
		err = binary_status;
	if (err != CL_SUCCESS) {
		log_info(&engine->logger, "the driver rejected a cached binary (%s); rebuilding from source",
			 cl_error_name(err));
		if (program)
			clReleaseProgram(program);
		diskcache_remove(&engine->disk, key, "bin");
		return NULL;
	}
	return program;
}

static void
store_to_disk(clwarp_engine *engine, const uint8_t key[32], cl_program program)
{
	size_t size = 0;
	unsigned char *binary;

	if (!engine->disk.dir)
		return;
	if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL) !=
		    CL_SUCCESS ||
	    size == 0)
		return;
	binary = malloc(size);
	if (!binary)
		return;
	if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binary), &binary, NULL) ==
	    CL_SUCCESS)
		diskcache_store(&engine->disk, key, "bin", binary, size);
	free(binary);
}

/*
 * On PoCL with its kernel cache on, reading a binary compiles every kernel
 * of the program once more, and PoCL's own cache already serves the next
 * process (src/pocl_kcache.h). A binary is then worth storing only for a
 * program that more than one process builds: the first compile leaves a
 * "seen" entry holding its process ID, and a compile in another process,
 * finding it, stores the binary for every later one. A second engine of
 * the same process is not another process: it leaves the mark alone.
 */
static bool
binary_worth_storing(clwarp_engine *engine, const uint8_t key[32])
{
	uint32_t self = (uint32_t)getpid(), marker = 0;
	void *mark = NULL;
	size_t size = 0;

	if (!engine->runtime_keeps_kernels)
		return true;
	if (diskcache_load(&engine->disk, key, "seen", &mark, &size)) {
		if (size == sizeof(marker))
			memcpy(&marker, mark, sizeof(marker));
		free(mark);
		if (marker == self)
			return false;
		diskcache_remove(&engine->disk, key, "seen");
		return true;
	}
	diskcache_store(&engine->disk, key, "seen", &self, sizeof(self));
	return false;
}

static clwarp_status
compile_from_source(clwarp_engine *engine, const char *text, const char *name,
		    const char *options, cl_program *out, clwarp_build_info *info)
{
	cl_program program;
	cl_int err;
	char *log;
	char line[512];

	program = clCreateProgramWithSource(engine->context, 1, &text, NULL, &err);
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clCreateProgramWithSource");
	err = program_cl_build(engine, program, options);
	log = build_log(program, engine->device);
	if (log) {
		char *mapped = buildlog_remap(log, text);

		if (mapped) {
			free(log);
			log = mapped;
		}
	}
	if (err != CL_SUCCESS) {
		clwarp_status status;

		first_error_line(log, line, sizeof(line));
		if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS ||
		    err == CL_COMPILE_PROGRAM_FAILURE)
			status = set_error(CLWARP_ERROR_BUILD, "build of %s failed%s%s", name,
					   line[0] ? ": " : "", line);
		else
			status = set_cl_error(err, "clBuildProgram");
		log_debug(&engine->logger, "build log of %s:\n%s", name, log ? log : "");
		if (info) {
			info->log = log;
			info->cl_error = err;
		} else {
			free(log);
		}
		clReleaseProgram(program);
		return status;
	}
	if (info)
		info->log = log;
	else
		free(log);
	*out = program;
	return CLWARP_OK;
}

static clwarp_program *
memory_lookup(clwarp_engine *engine, const uint8_t key[32])
{
	clwarp_program *found = NULL;

	pthread_mutex_lock(&engine->programs_lock);
	for (clwarp_program *p = engine->programs; p && !found; p = p->next) {
		if (memcmp(p->key, key, 32) == 0)
			found = p;
	}
	pthread_mutex_unlock(&engine->programs_lock);
	return found;
}

/* Insert, unless another thread got there first: then keep theirs. */
static clwarp_program *
memory_insert(clwarp_engine *engine, clwarp_program *prog)
{
	clwarp_program *kept = prog;

	pthread_mutex_lock(&engine->programs_lock);
	for (clwarp_program *p = engine->programs; p; p = p->next) {
		if (memcmp(p->key, prog->key, 32) == 0) {
			kept = p;
			break;
		}
	}
	if (kept == prog) {
		prog->next = engine->programs;
		engine->programs = prog;
	}
	pthread_mutex_unlock(&engine->programs_lock);
	if (kept != prog)
		program_destroy(prog);
	return kept;
}

clwarp_status
program_build(clwarp_engine *engine, const char *text, const char *name, const char *dir,
	      const char *options, const struct backend_config *config, clwarp_program **out,
	      clwarp_build_info *info)
{
	return program_build_flags(engine, text, name, dir, options, config, 0, NULL, out, info);
}

/* The program's full text (the backend's prelude, then the expanded
 * source @p src) and its build options, from the user's @p options. */
static void
program_texts(const clwarp_engine *engine, const struct backend_config *config, const char *name,
	      const char *options, const struct source_result *src, struct strbuf *full,
	      struct strbuf *opts)
{
	backend_prelude(config, src->types_named, src->scratch_arg, full);
	if (backend_wants_sort(src->text.data, options))
		backend_prelude_sort(full);
	strbuf_puts(full, "#line 1 \"");
	strbuf_put_quoted(full, name);
	strbuf_puts(full, "\"\n");
	strbuf_append(full, src->text.data ? src->text.data : "", src->text.len);
	/* Sub-groups that are only an OpenCL C 3.0 feature need that language
	 * version; the user's options come after, so an explicit -cl-std wins.
	 * NVIDIA's compiler fails a program with a kernel of no parameters when
	 * asked for argument info (contrib/driver-bugs/nvidia-driver/README.md): such a
	 * program goes without, and its kernels' argument types are unknown. */
	bool arg_info = !(src->kernel_without_params && engine->info.platform_name &&
			  strstr(engine->info.platform_name, "NVIDIA"));
	strbuf_printf(opts, "%s%s %s", arg_info ? ALWAYS_OPTIONS : "",
		      config->cl_std_30 ? " -cl-std=CL3.0" : "", options ? options : "");
	/* PoCL 4 and 5: a kernel hash of this engine's own (src/pocl_slot.h). */
	if (engine->pocl_slot)
		strbuf_printf(opts, " -D CLWARP_POCL_SLOT=%u", engine->pocl_slot);
}

clwarp_status
program_build_flags(clwarp_engine *engine, const char *text, const char *name, const char *dir,
		    const char *options, const struct backend_config *config, unsigned flags,
		    struct file_stamps *stamps, clwarp_program **out, clwarp_build_info *info)
{
	bool use_disk = !(flags & PROGRAM_BUILD_MEMORY_ONLY);
	struct source_rewrite rewrite = { 0 };
	struct source_result src;
	struct strbuf full = { 0 }, opts = { 0 };
	clwarp_program *prog = NULL;
	clwarp_build_source origin = CLWARP_BUILD_COMPILED;
	uint8_t key[32];
	double start = now_ms();
	clwarp_status status;

	if (info)
		memset(info, 0, sizeof(*info));
	backend_source_rewrite(config, &rewrite);
	status = source_expand(text, name, dir, options, &rewrite, stamps, &src);
	if (status != CLWARP_OK)
		return status;

	program_texts(engine, config, name, options, &src, &full, &opts);
	if (full.failed || opts.failed) {
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		goto out;
	}
	program_key(engine, opts.data, full.data, key);

	prog = memory_lookup(engine, key);
	if (prog) {
		origin = CLWARP_BUILD_MEMORY_HIT;
		goto done;
	}

	prog = calloc(1, sizeof(*prog));
	if (!prog) {
		status = set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		goto out;
	}
	prog->engine = engine;
	memcpy(prog->key, key, 32);
	prog->config = *config;
	prog->uses_warp = src.uses_warp;
	prog->scratch_arg = src.scratch_arg;

	prog->program = use_disk ? load_from_disk(engine, key, opts.data) : NULL;
	if (prog->program) {
		origin = CLWARP_BUILD_DISK_HIT;
	} else {
		status = compile_from_source(engine, full.data, name, opts.data, &prog->program, info);
		if (status != CLWARP_OK)
			goto out;
		if (use_disk && engine->disk.dir && binary_worth_storing(engine, key))
			store_to_disk(engine, key, prog->program);
	}
	status = program_kernel_names(prog);
	if (status != CLWARP_OK)
		goto out;
	prog = memory_insert(engine, prog);

done:
	if (info) {
		info->source = origin;
		info->milliseconds = now_ms() - start;
	}
	log_debug(&engine->logger, "%s: %s in %.2f ms", name, clwarp_build_source_name(origin),
		  now_ms() - start);
	*out = prog;
	prog = NULL;
	status = CLWARP_OK;
out:
	program_destroy(prog);
	source_result_free(&src);
	strbuf_free(&full);
	strbuf_free(&opts);
	return status;
}

void
program_free_all(clwarp_engine *engine)
{
	clwarp_program *p = engine->programs;

	while (p) {
		clwarp_program *next = p->next;

		program_destroy(p);
		p = next;
	}
	engine->programs = NULL;
}

CLWARP_EXPORT cl_program
clwarp_program_cl(const clwarp_program *program)
{
	return program ? program->program : NULL;
}

CLWARP_EXPORT size_t
clwarp_program_kernel_count(const clwarp_program *program)
{
	return program ? program->kernel_count : 0;
}

CLWARP_EXPORT const char *
clwarp_program_kernel_name(const clwarp_program *program, size_t index)
{
	return program && index < program->kernel_count ? program->kernel_names[index] : NULL;
}
