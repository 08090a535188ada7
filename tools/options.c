/* clwarp-run: its options (options.h). */
/* SPDX-License-Identifier: MIT */
#include "options.h"

#include "launch-size.h"
#include "report.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_BUILD_OPTIONS = 256,
	OPT_LIST_DEVICES,
	OPT_NO_CACHE,
	OPT_REPEAT,
	OPT_JSON,
	OPT_CHECK,
	OPT_SANITIZE,
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
	{ "sanitize", no_argument, NULL, OPT_SANITIZE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

const char options_help_text[] =
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
	"      --sanitize           run under Oclgrind (local backend); report races,\n"
	"                           barrier divergence, bad and uninitialized accesses\n"
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
	"A kernel file may hold defaults: '//! run: OPTIONS' and '//! expect[K]: v0 v1 ...';\n"
	"'//! expect[K]@W: ...' holds only at warp width W (1, 2, 4, ... 64) and wins there\n"
	"over the line without @W. --check with lines for out: buffer K at other widths\n"
	"only is a usage error.\n"
	"Exit status: 0 success, 1 run-time failure or check mismatch, 2 usage error,\n"
	"3 the kernel wrote past the end of a buffer (into its guard zone) or, with\n"
	"--sanitize, Oclgrind reported an error in it.\n";

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

/* -D NAME[=VALUE], as -DNAME[=VALUE] among the build options. */
static int
option_define(struct options *o, const char *prefix, const char *arg)
{
	size_t len = strlen(arg) + 3;
	char *frag;

	if (!*arg || arg[0] == '=')
		return report_usage("%s-D needs NAME[=VALUE]", prefix);
	frag = malloc(len);
	if (!frag)
		return report_usage("out of memory");
	snprintf(frag, len, "-D%s", arg);
	bool ok = strvec_push(&o->build, frag);
	free(frag);
	if (!ok)
		return report_usage("out of memory");
	return 0;
}

/* -I DIR, which a kernel file's //! run: line names from the file's folder. */
static int
option_include_dir(struct options *o, const char *where, const char *base_dir, const char *arg)
{
	char *dir = where ? join_path(base_dir, arg) : strdup(arg);
	char *frag;
	size_t len;

	if (!dir)
		return report_usage("out of memory");
	len = strlen(dir) + 4;
	frag = malloc(len);
	if (!frag) {
		free(dir);
		return report_usage("out of memory");
	}
	snprintf(frag, len, "-I %s", dir);
	bool ok = strvec_push(&o->build, frag);
	free(frag);
	free(dir);
	if (!ok)
		return report_usage("out of memory");
	return 0;
}

/* One option that takes a value (optarg); -1 where c is none of them. */
static int
option_with_value(struct options *o, int c, const char *prefix, const char *where,
		  const char *base_dir)
{
	char why[160];
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
			return report_usage("%sbad global size '%s' (%s)", prefix, optarg, why);
		o->global_set = true;
		break;
	case 'l':
		if (!launch_size_parse(optarg, o->local, &o->local_dims, why, sizeof(why)))
			return report_usage("%sbad local size '%s' (%s)", prefix, optarg, why);
		o->local_set = true;
		break;
	case 'a':
		if (!strvec_push(&o->args, optarg))
			return report_usage("out of memory");
		break;
	case 'b':
		if (clwarp_backend_from_name(optarg, &o->backend) != CLWARP_OK)
			return report_usage("%sunknown backend '%s' (expected auto, khr, intel, nv or local)",
					   prefix, optarg);
		o->backend_set = true;
		break;
	case 'w':
		if (!launch_size_count(optarg, 64, &v) || (v & (v - 1)) != 0)
			return report_usage("%sbad warp size '%s' (expected a power of two from 1 to 64)",
					   prefix, optarg);
		o->warp_size = (unsigned)v;
		break;
	case 'D':
		return option_define(o, prefix, optarg);
	case 'I':
		return option_include_dir(o, where, base_dir, optarg);
	case OPT_BUILD_OPTIONS:
		if (!strvec_push(&o->build, optarg))
			return report_usage("out of memory");
		break;
	case OPT_REPEAT:
		if (!launch_size_count(optarg, 1000000, &v))
			return report_usage("%sbad --repeat count '%s' (expected 1 to 1000000)", prefix,
					   optarg);
		o->repeat = (unsigned)v;
		break;
	default:
		return -1;
	}
	return 0;
}

/* One option without a value, or one that getopt_long refused. */
static int
option_without_value(struct options *o, int c, char **argv, const char *prefix, const char *where)
{
	switch (c) {
	case OPT_LIST_DEVICES:
	case 'h':
	case OPT_VERSION:
		if (where)
			return report_usage("%s%s is not allowed in a kernel file", prefix,
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
	case OPT_SANITIZE:
		o->sanitize = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'v':
		o->verbose = true;
		break;
	case ':':
		if (optopt && optopt < 256)
			return report_usage("%soption '-%c' needs a value", prefix, optopt);
		return report_usage("%soption '%s' needs a value", prefix, argv[optind - 1]);
	default:
		if (optopt && optopt < 256)
			return report_usage("%sunknown option '-%c'", prefix, optopt);
		return report_usage("%sunknown option '%s'", prefix, argv[optind - 1]);
	}
	return 0;
}

int
options_parse(int argc, char **argv, struct options *o, const char *where, const char *base_dir)
{
	char prefix[512] = "";
	int c;

	if (where)
		snprintf(prefix, sizeof(prefix), "%s: //! run: ", where);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":k:d:g:l:a:b:w:D:I:qvh", long_options, NULL)) != -1) {
		int rc = option_with_value(o, c, prefix, where, base_dir);

		if (rc < 0)
			rc = option_without_value(o, c, argv, prefix, where);
		if (rc)
			return rc;
	}
	if (optind < argc) {
		if (where)
			return report_usage("%sunexpected '%s' (the kernel file is not named here)", prefix,
					   argv[optind]);
		if (argc - optind > 1)
			return report_usage("one FILE.cl at a time, not '%s' and '%s'", argv[optind],
					   argv[optind + 1]);
		o->file = argv[optind];
	}
	return 0;
}

int
options_merge(struct options *f, struct options *cli)
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
			return report_usage("out of memory");
	}
	if (cli->repeat)
		f->repeat = cli->repeat;
	f->no_cache |= cli->no_cache;
	f->json |= cli->json;
	f->check |= cli->check;
	f->sanitize |= cli->sanitize;
	f->quiet |= cli->quiet;
	f->verbose |= cli->verbose;
	f->file = cli->file;
	return 0;
}

void
options_clear(struct options *o)
{
	strvec_clear(&o->args);
	strvec_clear(&o->build);
}

void
options_engine(const struct options *o, clwarp_engine_options *eo, const char *device)
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

char *
options_build_string(const struct options *o, const char *first)
{
	const struct strvec *v = &o->build;
	size_t len = strlen(first) + 1;
	char *out;

	for (size_t i = 0; i < v->count; i++)
		len += strlen(v->items[i]) + 1;
	out = malloc(len);
	if (!out)
		return NULL;
	strcpy(out, first);
	for (size_t i = 0; i < v->count; i++) {
		if (out[0])
			strcat(out, " ");
		strcat(out, v->items[i]);
	}
	return out;
}
