/* clwarp-run: build and run one OpenCL C kernel from the command line. */
/* SPDX-License-Identifier: MIT */
#include "argcheck.h"
#include "argspec.h"
#include "build-step.h"
#include "check.h"
#include "elemtype.h"
#include "kernel-file.h"
#include "launch-size.h"
#include "output.h"
#include "report.h"

#include <clwarp/clwarp.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Default local size search: at most this many work-items per group. */
#define DEFAULT_LOCAL_MAX 256

struct strvec {
	char **items;
	size_t count;
};

struct options {
	const char *kernel;
	const char *device;
	bool global_set, local_set;
	unsigned global_dims, local_dims;
	size_t global[3], local[3];
	struct strvec args;        /* -a SPECs */
	bool backend_set;
	clwarp_backend backend;
	unsigned warp_size;        /* 0: not given */
	struct strvec build;       /* -D, -I, --build-options fragments, in order */
	unsigned repeat;           /* 0: not given */
	bool list_devices, no_cache, json, check, quiet, verbose, help, version;
	const char *file;
};

enum {
	OPT_BUILD_OPTIONS = 256,
	OPT_LIST_DEVICES,
	OPT_NO_CACHE,
	OPT_REPEAT,
	OPT_JSON,
	OPT_CHECK,
	OPT_VERSION,
};

static const struct option long_options[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "device", required_argument, NULL, 'd' },
	{ "global", required_argument, NULL, 'g' },
	{ "local", required_argument, NULL, 'l' },
	{ "arg", required_argument, NULL, 'a' },
	{ "backend", required_argument, NULL, 'b' },
	{ "warp-size", required_argument, NULL, 'w' },
	{ "build-options", required_argument, NULL, OPT_BUILD_OPTIONS },
	{ "list-devices", no_argument, NULL, OPT_LIST_DEVICES },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char help_text[] =
	"Usage: clwarp-run [options] FILE.cl\n"
	"Build and run one OpenCL C kernel with libclwarp and print its out: buffers.\n"
	"\n"
	"  -k, --kernel NAME        kernel to run (default: the file's only kernel)\n"
	"  -d, --device SPEC        \"P:D\", a name substring, \"cpu\" or \"gpu\"\n"
	"                           (default: CLWARP_DEVICE, else the first GPU, else the first device)\n"
	"  -g, --global N[,N[,N]]   global size (default: the first buffer's element count)\n"
	"  -l, --local N[,N[,N]]    local size (default: see clwarp-run(1))\n"
	"  -a, --arg SPEC           one per kernel argument, in order\n"
	"  -b, --backend NAME       auto, khr, intel, nv or local\n"
	"  -w, --warp-size N        warp width of the local backend (1, 2, 4, ... 64)\n"
	"  -D NAME[=VALUE]          define a macro for the compiler\n"
	"  -I DIR                   add an include folder\n"
	"      --build-options STR  more compiler options\n"
	"      --list-devices       list every device with its backend and warp size\n"
	"      --no-cache           neither read nor write the disk cache\n"
	"      --repeat N           run N times; report min/median/max kernel time\n"
	"      --json               print one JSON object instead of text\n"
	"      --check              compare out: buffers with the file's //! expect lines\n"
	"  -q, --quiet              print only the out: buffers (and the check result)\n"
	"  -v, --verbose            also print the library's info and debug log\n"
	"  -h, --help               print this help\n"
	"      --version            print the version\n"
	"\n"
	"Argument SPEC:\n"
	"  TYPE[N]              buffer of N zeroed elements; TYPE: char uchar short ushort\n"
	"                       int uint long ulong float double\n"
	"  TYPE[N]=INIT         INIT: iota | iota(start,step) | fill(v) | rand(seed) |\n"
	"                       rand(seed,lo,hi) | v0,v1,... | @file.bin | an expression in i\n"
	"  out:TYPE[N][=INIT]   the same, printed after the run\n"
	"  TYPE:VALUE           a scalar, e.g. int:64 or float:0.5\n"
	"  local:TYPE[N]        local memory of N elements\n"
	"\n"
	"A kernel file may hold defaults: '//! run: OPTIONS' and '//! expect[K]: v0 v1 ...'.\n"
	"Exit status: 0 success, 1 run-time failure or check mismatch, 2 usage error.\n";

/* ------------------------------------------------------------- messages */

static void
error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_verror(fmt, ap);
	va_end(ap);
}

static int
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_vusage(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

/* A failed library call: its message, or the status text when it has none.
 * A bad CLWARP_* variable is a usage error, and its message says it all. */
static int
library_error(const char *what, clwarp_status status)
{
	if (report_is_environment_error(status))
		return usage_error("%s", clwarp_last_error());
	error_msg("%s: %s", what, report_library_message(status));
	return EXIT_RUNTIME;
}

/* -------------------------------------------------------------- helpers */

static bool
strvec_push(struct strvec *v, const char *s)
{
	char **items = realloc(v->items, (v->count + 1) * sizeof(char *));

	if (!items)
		return false;
	v->items = items;
	items[v->count] = strdup(s);
	if (!items[v->count])
		return false;
	v->count++;
	return true;
}

static void
strvec_clear(struct strvec *v)
{
	for (size_t i = 0; i < v->count; i++)
		free(v->items[i]);
	free(v->items);
	v->items = NULL;
	v->count = 0;
}

static char *
join_path(const char *dir, const char *path)
{
	size_t len;
	char *out;

	if (path[0] == '/' || !dir || !*dir || strcmp(dir, ".") == 0)
		return strdup(path);
	len = strlen(dir) + strlen(path) + 2;
	out = malloc(len);
	if (out)
		snprintf(out, len, "%s/%s", dir, path);
	return out;
}

/* -------------------------------------------------------------- options */

/*
 * Parse one argument vector into @p o. @p where is NULL for the command
 * line, else "FILE:LINE" of a //! run line, whose relative -I folders are
 * taken from @p base_dir. Returns 0 or EXIT_USAGE (message printed).
 */
static int
parse_options(int argc, char **argv, struct options *o, const char *where, const char *base_dir)
{
	char prefix[512] = "";
	char why[160];
	int c;

	if (where)
		snprintf(prefix, sizeof(prefix), "%s: //! run: ", where);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":k:d:g:l:a:b:w:D:I:qvh", long_options, NULL)) != -1) {
		unsigned long long v;

		switch (c) {
		case 'k':
			o->kernel = optarg;
			break;
		case 'd':
			o->device = optarg;
			break;
		case 'g':
			if (!launch_size_parse(optarg, o->global, &o->global_dims, why, sizeof(why)))
				return usage_error("%sbad global size '%s' (%s)", prefix, optarg, why);
			o->global_set = true;
			break;
		case 'l':
			if (!launch_size_parse(optarg, o->local, &o->local_dims, why, sizeof(why)))
				return usage_error("%sbad local size '%s' (%s)", prefix, optarg, why);
			o->local_set = true;
			break;
		case 'a':
			if (!strvec_push(&o->args, optarg))
				return usage_error("out of memory");
			break;
		case 'b':
			if (clwarp_backend_from_name(optarg, &o->backend) != CLWARP_OK)
				return usage_error("%sunknown backend '%s' (expected auto, khr, intel, nv or local)",
						   prefix, optarg);
			o->backend_set = true;
			break;
		case 'w':
			if (!launch_size_count(optarg, 64, &v) || (v & (v - 1)) != 0)
				return usage_error("%sbad warp size '%s' (expected a power of two from 1 to 64)",
						   prefix, optarg);
			o->warp_size = (unsigned)v;
			break;
		case 'D': {
			size_t len = strlen(optarg) + 3;
			char *frag;

			if (!*optarg || optarg[0] == '=')
				return usage_error("%s-D needs NAME[=VALUE]", prefix);
			frag = malloc(len);
			if (!frag)
				return usage_error("out of memory");
			snprintf(frag, len, "-D%s", optarg);
			bool ok = strvec_push(&o->build, frag);
			free(frag);
			if (!ok)
				return usage_error("out of memory");
			break;
		}
		case 'I': {
			char *dir = where ? join_path(base_dir, optarg) : strdup(optarg);
			char *frag;
			size_t len;

			if (!dir)
				return usage_error("out of memory");
			len = strlen(dir) + 4;
			frag = malloc(len);
			if (!frag) {
				free(dir);
				return usage_error("out of memory");
			}
			snprintf(frag, len, "-I %s", dir);
			bool ok = strvec_push(&o->build, frag);
			free(frag);
			free(dir);
			if (!ok)
				return usage_error("out of memory");
			break;
		}
		case OPT_BUILD_OPTIONS:
			if (!strvec_push(&o->build, optarg))
				return usage_error("out of memory");
			break;
		case OPT_REPEAT:
			if (!launch_size_count(optarg, 1000000, &v))
				return usage_error("%sbad --repeat count '%s' (expected 1 to 1000000)", prefix,
						   optarg);
			o->repeat = (unsigned)v;
			break;
		case OPT_LIST_DEVICES:
		case 'h':
		case OPT_VERSION:
			if (where)
				return usage_error("%s%s is not allowed in a kernel file", prefix,
						   argv[optind - 1]);
			if (c == 'h')
				o->help = true;
			else if (c == OPT_VERSION)
				o->version = true;
			else
				o->list_devices = true;
			break;
		case OPT_NO_CACHE:
			o->no_cache = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_CHECK:
			o->check = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case ':':
			if (optopt && optopt < 256)
				return usage_error("%soption '-%c' needs a value", prefix, optopt);
			return usage_error("%soption '%s' needs a value", prefix, argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				return usage_error("%sunknown option '-%c'", prefix, optopt);
			return usage_error("%sunknown option '%s'", prefix, argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (where)
			return usage_error("%sunexpected '%s' (the kernel file is not named here)", prefix,
					   argv[optind]);
		if (argc - optind > 1)
			return usage_error("one FILE.cl at a time, not '%s' and '%s'", argv[optind],
					   argv[optind + 1]);
		o->file = argv[optind];
	}
	return 0;
}

/* Command-line options @p cli win over the file's @p f; the result goes to @p f. */
static int
merge_options(struct options *f, struct options *cli)
{
	if (cli->kernel)
		f->kernel = cli->kernel;
	if (cli->device)
		f->device = cli->device;
	if (cli->global_set) {
		f->global_set = true;
		f->global_dims = cli->global_dims;
		memcpy(f->global, cli->global, sizeof(f->global));
	}
	if (cli->local_set) {
		f->local_set = true;
		f->local_dims = cli->local_dims;
		memcpy(f->local, cli->local, sizeof(f->local));
	}
	if (cli->args.count) {
		strvec_clear(&f->args);
		f->args = cli->args;
		cli->args.items = NULL;
		cli->args.count = 0;
	}
	if (cli->backend_set) {
		f->backend_set = true;
		f->backend = cli->backend;
	}
	if (cli->warp_size)
		f->warp_size = cli->warp_size;
	for (size_t i = 0; i < cli->build.count; i++) {
		if (!strvec_push(&f->build, cli->build.items[i]))
			return usage_error("out of memory");
	}
	if (cli->repeat)
		f->repeat = cli->repeat;
	f->no_cache |= cli->no_cache;
	f->json |= cli->json;
	f->check |= cli->check;
	f->quiet |= cli->quiet;
	f->verbose |= cli->verbose;
	f->file = cli->file;
	return 0;
}

static void
engine_options(const struct options *o, clwarp_engine_options *eo, const char *device)
{
	clwarp_engine_options_init(eo);
	eo->device = device;
	if (o->backend_set)
		eo->backend = o->backend;
	eo->warp_size = o->warp_size;
	if (o->no_cache)
		eo->flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	if (o->repeat)
		eo->flags |= CLWARP_ENGINE_PROFILING;
	if (o->verbose)
		eo->log_level = CLWARP_LOG_DEBUG;
	eo->log_fn = report_log;
}

/* --------------------------------------------------------- list devices */

/* "OpenCL C 1.2 pocl" -> "1.2" */
static void
opencl_c_number(const char *version, char *out, size_t len)
{
	const char *p = version ? version : "";

	if (strncmp(p, "OpenCL C ", 9) == 0)
		p += 9;
	snprintf(out, len, "%.*s", (int)strcspn(p, " "), p);
}

static const char *
device_type_name(cl_device_type t)
{
	if (t & CL_DEVICE_TYPE_GPU)
		return "gpu";
	if (t & CL_DEVICE_TYPE_CPU)
		return "cpu";
	if (t & CL_DEVICE_TYPE_ACCELERATOR)
		return "accelerator";
	return "other";
}

static int
list_devices(const struct options *o)
{
	clwarp_device_info *list = NULL;
	size_t count = 0;
	clwarp_status status = clwarp_device_list(&list, &count);
	FILE *out;
	char *text = NULL;
	size_t text_len = 0;

	if (status != CLWARP_OK)
		return library_error("listing devices", status);
	out = open_memstream(&text, &text_len);
	if (!out) {
		clwarp_device_list_free(list, count);
		error_msg("out of memory");
		return EXIT_RUNTIME;
	}
	if (o->json)
		fputc('[', out);
	for (size_t i = 0; i < count; i++) {
		const clwarp_device_info *d = &list[i];
		char spec[64], cver[64];
		clwarp_engine_options eo;
		clwarp_engine *engine = NULL;
		clwarp_backend backend = CLWARP_BACKEND_AUTO;
		unsigned warp = 0;
		int native = 0;
		char reason[512] = "";

		snprintf(spec, sizeof(spec), "%u:%u", d->platform_index, d->device_index);
		opencl_c_number(d->opencl_c_version, cver, sizeof(cver));
		engine_options(o, &eo, spec);
		status = clwarp_engine_new(&eo, &engine);
		if (report_is_environment_error(status)) {
			fclose(out);
			free(text);
			clwarp_device_list_free(list, count);
			return library_error("listing devices", status);
		}
		if (status == CLWARP_OK)
			status = clwarp_engine_backend(engine, &backend, &warp);
		if (status == CLWARP_OK)
			status = clwarp_engine_backend_native(engine, &native);
		if (status != CLWARP_OK)
			snprintf(reason, sizeof(reason), "%s",
				 *clwarp_last_error() ? clwarp_last_error() : clwarp_status_to_str(status));
		clwarp_engine_free(engine);
		if (o->json) {
			fprintf(out, "%s{\"index\": \"%s\", \"platform_index\": %u, \"device_index\": %u, \"name\": ",
				i ? ", " : "", spec, d->platform_index, d->device_index);
			output_json_string(out, d->name);
			fputs(", \"platform\": ", out);
			output_json_string(out, d->platform_name);
			fprintf(out, ", \"type\": \"%s\", \"opencl_c\": ", device_type_name(d->type));
			output_json_string(out, cver);
			if (status == CLWARP_OK) {
				fprintf(out, ", \"backend\": \"%s\", \"warp_size\": %u, \"native_width\": %s}",
					clwarp_backend_name(backend), warp, native ? "true" : "false");
			} else {
				fputs(", \"backend\": null, \"warp_size\": null, \"native_width\": null, \"error\": ", out);
				output_json_string(out, reason);
				fputc('}', out);
			}
		} else {
			fprintf(out, "%s  %s  (%s, OpenCL C %s)  ", spec, d->name, d->platform_name, cver);
			if (status == CLWARP_OK)
				fprintf(out, "backend %s, warp size %u%s\n", clwarp_backend_name(backend),
					warp, native ? NATIVE_WIDTH_NOTE : "");
			else
				fprintf(out, "backend unavailable: %s\n", reason);
		}
	}
	if (o->json)
		fputs("]\n", out);
	fclose(out);
	clwarp_device_list_free(list, count);
	if (count == 0 && !o->json) {
		free(text);
		error_msg("no OpenCL device found");
		return EXIT_RUNTIME;
	}
	fwrite(text, 1, text_len, stdout);
	free(text);
	return 0;
}

/* --------------------------------------------------------------- timing */

static int
compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ run */

struct run_state {
	struct options cli, merged;
	struct kernel_file kf;
	struct argspec *specs;
	size_t spec_count;
	void **host;
	cl_mem *mems;
	clwarp_engine *engine;
	clwarp_kernel *kernel;
	clwarp_build_info info;
	struct output_buffer *outs;
	struct check_report report;
	uint64_t *times;
	char *build_options;
};

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
	free(s->mems);
	free(s->outs);
	free(s->times);
	free(s->build_options);
	check_report_clear(&s->report);
	clwarp_build_info_clear(&s->info);
	clwarp_kernel_free(s->kernel);
	clwarp_engine_free(s->engine);
	kernel_file_clear(&s->kf);
	strvec_clear(&s->cli.args);
	strvec_clear(&s->cli.build);
	strvec_clear(&s->merged.args);
	strvec_clear(&s->merged.build);
}

static char *
join_build_options(const struct strvec *v)
{
	size_t len = 1;
	char *out;

	for (size_t i = 0; i < v->count; i++)
		len += strlen(v->items[i]) + 1;
	out = malloc(len);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (size_t i = 0; i < v->count; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, v->items[i]);
	}
	return out;
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

/* Default local size (dimension 0 only; the others get 1): the largest L <=
 * min(global, 256, the device's maximum work-group size) that is a multiple
 * of the warp size and divides global; none when there is no such L. */
static bool
default_local(const size_t *global, unsigned dims, unsigned warp, size_t max_wg, size_t *local)
{
	size_t limit = global[0] < DEFAULT_LOCAL_MAX ? global[0] : DEFAULT_LOCAL_MAX;

	if (max_wg && limit > max_wg)
		limit = max_wg;
	if (!warp)
		warp = 1;
	for (size_t l = limit - limit % warp; l >= warp && l > 0; l -= warp) {
		if (global[0] % l == 0) {
			local[0] = l;
			for (unsigned d = 1; d < dims; d++)
				local[d] = 1;
			return true;
		}
	}
	return false;
}

static int
run(struct run_state *s, int argc, char **argv)
{
	struct options *o = &s->merged;
	char err[1024];
	int rc;
	clwarp_engine_options eo;
	clwarp_status status;
	clwarp_program *prog = NULL;
	clwarp_backend backend;
	unsigned warp = 0;
	int native = 0;
	const clwarp_device_info *dev;
	const char *kname;
	size_t out_count = 0;
	unsigned dims;
	size_t global[3] = { 1, 1, 1 }, local[3] = { 1, 1, 1 };
	bool has_local;
	char *driver_output = NULL;

	rc = parse_options(argc, argv, &s->cli, NULL, NULL);
	if (rc)
		return rc;
	if (s->cli.help) {
		fputs(help_text, stdout);
		return 0;
	}
	if (s->cli.version) {
		printf("clwarp-run %s\n", clwarp_version());
		return 0;
	}
	if (s->cli.list_devices) {
		if (s->cli.file)
			return usage_error("--list-devices takes no FILE.cl");
		return list_devices(&s->cli);
	}
	if (!s->cli.file)
		return usage_error("no FILE.cl given");

	/* The kernel file and its directives. */
	rc = kernel_file_load(s->cli.file, &s->kf, err, sizeof(err));
	if (rc)
		return usage_error("%s", err);
	for (size_t i = 0; i < s->kf.run_count; i++) {
		char where[512];

		snprintf(where, sizeof(where), "%s:%d", s->kf.path, s->kf.runs[i].line);
		rc = parse_options(s->kf.runs[i].argc, s->kf.runs[i].argv, o, where, s->kf.dir);
		if (rc)
			return rc;
	}
	/* SPECs of the file take @file paths from the file's folder. */
	bool args_from_file = s->cli.args.count == 0;
	rc = merge_options(o, &s->cli);
	if (rc)
		return rc;
	report_set_json(o->json);

	/* Arguments. */
	s->spec_count = o->args.count;
	s->specs = calloc(s->spec_count + 1, sizeof(*s->specs));
	s->host = calloc(s->spec_count + 1, sizeof(void *));
	s->mems = calloc(s->spec_count + 1, sizeof(cl_mem));
	s->outs = calloc(s->spec_count + 1, sizeof(*s->outs));
	if (!s->specs || !s->host || !s->mems || !s->outs) {
		error_msg("out of memory");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < s->spec_count; i++) {
		if (!argspec_parse(o->args.items[i], args_from_file ? s->kf.dir : NULL, &s->specs[i], err,
				   sizeof(err)))
			return usage_error("%s", err);
		if (s->specs[i].out)
			out_count++;
	}
	if (o->check) {
		if (s->kf.expect_count == 0)
			return usage_error("--check: %s has no //! expect lines", s->kf.path);
		for (size_t e = 0; e < s->kf.expect_count; e++) {
			const struct kf_expect *x = &s->kf.expects[e];
			size_t k = 0;
			bool found = false;

			for (size_t i = 0; i < s->spec_count && !found; i++) {
				if (!s->specs[i].out)
					continue;
				if (k++ == x->k) {
					found = true;
					if (!check_validate(s->specs[i].type, x->values, x->count, err,
							    sizeof(err)))
						return usage_error("%s:%d: expect[%u]: %s", s->kf.path,
								   x->line, x->k, err);
				}
			}
			if (!found)
				return usage_error("%s:%d: expect[%u], but there %s only %zu out: argument%s",
						   s->kf.path, x->line, x->k, out_count == 1 ? "is" : "are",
						   out_count, out_count == 1 ? "" : "s");
		}
	}
	/* The engine. */
	engine_options(o, &eo, o->device);
	status = clwarp_engine_new(&eo, &s->engine);
	if (status != CLWARP_OK)
		return library_error("cannot open a device", status);
	status = clwarp_engine_backend(s->engine, &backend, &warp);
	if (status == CLWARP_OK)
		status = clwarp_engine_backend_native(s->engine, &native);
	if (status != CLWARP_OK)
		return library_error("no warp backend", status);
	/* -w sets the local backend's width; on a native backend it would be
	 * silently ignored and the results would be for another width. */
	if (o->warp_size && o->warp_size != warp)
		return usage_error("-w %u: the %s backend runs warps of %u; add -b local to emulate width %u",
				   o->warp_size, clwarp_backend_name(backend), warp, o->warp_size);
	dev = clwarp_engine_device_info(s->engine);

	/* Sizes against the device, then host memory. */
	for (size_t i = 0; i < s->spec_count; i++) {
		const struct argspec *a = &s->specs[i];

		if (a->kind == ARGSPEC_BUFFER && a->bytes > dev->max_alloc_size) {
			error_msg("argument %zu ('%s'): %zu bytes exceed the device's largest buffer (%llu bytes)",
				  i, a->text, a->bytes, (unsigned long long)dev->max_alloc_size);
			return EXIT_RUNTIME;
		}
		if (a->kind == ARGSPEC_LOCAL && a->bytes > dev->local_mem_size) {
			error_msg("argument %zu ('%s'): %zu bytes exceed the device's local memory (%llu bytes)",
				  i, a->text, a->bytes, (unsigned long long)dev->local_mem_size);
			return EXIT_RUNTIME;
		}
	}
	for (size_t i = 0; i < s->spec_count; i++) {
		const struct argspec *a = &s->specs[i];

		if (a->kind != ARGSPEC_BUFFER)
			continue;
		s->host[i] = calloc(1, a->bytes);
		if (!s->host[i]) {
			error_msg("argument %zu ('%s'): cannot allocate %zu bytes of host memory", i, a->text,
				  a->bytes);
			return EXIT_RUNTIME;
		}
		if (!argspec_fill(a, s->host[i], err, sizeof(err)))
			return usage_error("%s", err);
	}

	/* Build. */
	s->build_options = join_build_options(&o->build);
	if (!s->build_options) {
		error_msg("out of memory");
		return EXIT_RUNTIME;
	}
	if (o->verbose) {
		/* the driver's output as it happens, among the library's debug log */
		status = clwarp_program_build_file(s->engine, s->kf.path, s->build_options, &prog,
						   &s->info);
	} else {
		status = build_step(s->engine, s->kf.path, s->build_options, &prog, &s->info,
				    &driver_output);
	}
	if (status != CLWARP_OK) {
		build_step_report_failure(s->kf.path, status, &s->info, driver_output, o->verbose,
					  o->json);
		free(driver_output);
		return EXIT_RUNTIME;
	}
	free(driver_output);

	/* The kernel. */
	size_t kcount = clwarp_program_kernel_count(prog);
	if (kcount == 0)
		return usage_error("%s defines no kernel", s->kf.path);
	if (o->kernel) {
		size_t i;

		for (i = 0; i < kcount && strcmp(clwarp_program_kernel_name(prog, i), o->kernel); i++)
			;
		if (i == kcount) {
			kernel_names(prog, err, sizeof(err));
			return usage_error("%s has no kernel '%s'; it has: %s", s->kf.path, o->kernel, err);
		}
		kname = o->kernel;
	} else if (kcount > 1) {
		kernel_names(prog, err, sizeof(err));
		return usage_error("%s has %zu kernels, choose one with -k: %s", s->kf.path, kcount, err);
	} else {
		kname = clwarp_program_kernel_name(prog, 0);
	}
	status = clwarp_program_kernel(prog, kname, &s->kernel);
	if (status != CLWARP_OK)
		return library_error("cannot create the kernel", status);

	unsigned nargs = clwarp_kernel_arg_count(s->kernel);
	if (nargs != s->spec_count)
		return usage_error("kernel %s takes %u argument%s, but %zu -a %s given", kname, nargs,
				   nargs == 1 ? "" : "s", s->spec_count, s->spec_count == 1 ? "was" : "were");
	for (unsigned i = 0; i < nargs; i++) {
		if (!argcheck(clwarp_kernel_cl(s->kernel), kname, i, &s->specs[i], err, sizeof(err)))
			return usage_error("%s", err);
	}

	/* The global and local sizes. */
	if (o->local_set && o->global_set && o->local_dims != o->global_dims)
		return usage_error("the local size has %u dimension%s, the global size %u",
				   o->local_dims, o->local_dims == 1 ? "" : "s", o->global_dims);
	if (o->global_set) {
		dims = o->global_dims;
		memcpy(global, o->global, sizeof(global));
	} else {
		size_t i;

		for (i = 0; i < s->spec_count && s->specs[i].kind != ARGSPEC_BUFFER; i++)
			;
		if (i == s->spec_count)
			return usage_error("no -g given and no buffer argument to take the global size from");
		dims = o->local_set ? o->local_dims : 1;
		if (dims != 1)
			return usage_error("a %u-dimensional local size needs -g with as many dimensions",
					   dims);
		global[0] = s->specs[i].count;
	}
	has_local = o->local_set;
	if (has_local) {
		memcpy(local, o->local, sizeof(local));
		for (unsigned d = 0; d < dims; d++) {
			if (global[d] % local[d] != 0)
				return usage_error("the local size %zu does not divide the global size %zu (dimension %u)",
						   local[d], global[d], d);
		}
	}

	/* The local size and the warp contract. */
	if (!has_local)
		has_local = default_local(global, dims, warp, dev->max_work_group_size, local);
	status = clwarp_kernel_warp_info(s->kernel, dims, has_local ? local : NULL, &backend, &warp);
	if (status != CLWARP_OK)
		return library_error("cannot launch", status);

	/* Device buffers and arguments. */
	for (unsigned i = 0; i < nargs; i++) {
		const struct argspec *a = &s->specs[i];

		if (a->kind == ARGSPEC_BUFFER) {
			status = clwarp_buffer_new(s->engine, CL_MEM_READ_WRITE, a->bytes, s->host[i],
						   &s->mems[i]);
			if (status == CLWARP_OK)
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
			return library_error(err, status);
		}
	}

	/* Launch. */
	unsigned runs = o->repeat ? o->repeat : 1;
	if (o->repeat) {
		s->times = calloc(runs, sizeof(uint64_t));
		if (!s->times) {
			error_msg("out of memory");
			return EXIT_RUNTIME;
		}
	}
	for (unsigned r = 0; r < runs; r++) {
		cl_event ev = NULL;

		/* Every run starts from the same inputs. */
		for (unsigned i = 0; r > 0 && i < nargs; i++) {
			if (s->specs[i].kind != ARGSPEC_BUFFER)
				continue;
			status = clwarp_buffer_write(s->engine, s->mems[i], 0, s->specs[i].bytes, s->host[i]);
			if (status != CLWARP_OK)
				return library_error("cannot reset a buffer", status);
		}
		status = clwarp_kernel_launch(s->kernel, dims, global, has_local ? local : NULL,
					      o->repeat ? &ev : NULL);
		if (status != CLWARP_OK)
			return library_error("launch failed", status);
		if (ev) {
			cl_ulong start = 0, end = 0;
			cl_int e = clWaitForEvents(1, &ev);

			if (e == CL_SUCCESS)
				e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(start), &start, NULL);
			if (e == CL_SUCCESS)
				e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL);
			clReleaseEvent(ev);
			if (e != CL_SUCCESS) {
				error_msg("kernel %s failed or has no profiling times: %s", kname,
					  clwarp_cl_error_to_str(e));
				return EXIT_RUNTIME;
			}
			s->times[r] = end > start ? end - start : 0;
		}
	}

	/* Read back. */
	size_t nout = 0;
	for (unsigned i = 0; i < nargs; i++) {
		const struct argspec *a = &s->specs[i];

		if (!a->out)
			continue;
		status = clwarp_buffer_read(s->engine, s->mems[i], 0, a->bytes, s->host[i]);
		if (status != CLWARP_OK)
			return library_error("cannot read a result", status);
		s->outs[nout].arg = i;
		s->outs[nout].type = a->type;
		s->outs[nout].count = a->count;
		s->outs[nout].data = s->host[i];
		nout++;
	}
	if (o->check) {
		for (size_t k = 0; k < nout; k++) {
			const struct kf_expect *x = kernel_file_expect(&s->kf, (unsigned)k);

			if (x)
				check_compare(&s->report, s->outs[k].type, s->outs[k].data, s->outs[k].count,
					      s->outs[k].arg, x->values, x->count);
		}
	}

	/* Report. */
	struct run_report rep = {
		.device = dev->name,
		.platform = dev->platform_name,
		.backend = clwarp_backend_name(backend),
		.warp_size = warp,
		.native_width = native != 0,
		.kernel = kname,
		.dims = dims,
		.has_local = has_local,
		.build_source = clwarp_build_source_name(s->info.source),
		.build_ms = s->info.milliseconds,
		.buffers = s->outs,
		.buffer_count = nout,
		.has_check = o->check,
		.check = &s->report,
	};
	memcpy(rep.global, global, sizeof(global));
	memcpy(rep.local, local, sizeof(local));
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
		error_msg("cannot write the output: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	if (s->report.mismatches) {
		error_msg("check failed: %zu mismatch%s", s->report.mismatches,
			  s->report.mismatches == 1 ? "" : "es");
		return EXIT_RUNTIME;
	}
	return 0;
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
