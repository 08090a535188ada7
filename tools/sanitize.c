/* clwarp-run --sanitize: the run again under Oclgrind (sanitize.h). */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* mkostemp, pipe2, memmem */
#include "sanitize.h"

#include "report.h"
#include "sanitize-ir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Distinct findings reported; the rest are counted. */
#define SANITIZE_MAX_FINDINGS 20
/* Programs whose LLVM IR (Oclgrind's dumps) is kept to map positions. */
#define SANITIZE_MAX_DUMPS 16
/* Inlined frames followed from one instruction. */
#define SANITIZE_MAX_FRAMES 32
/* Oclgrind writes its dumps (OCLGRIND_DUMP_SPIR) there, a fixed folder. */
#define DUMP_DIR "/tmp"
#define DUMP_PREFIX "oclgrind_"

struct finding {
	char what[160];    /* the headline, without its address */
	char where[512];   /* FILE:LINE:COLUMN (FILE:LINE for a caller), or "" */
	char kernel[128];
	char call[96];     /* the library function called at `where`, or "" */
	char inner[512];   /* Oclgrind's own position, when `where` is a caller */
	char instr[512];   /* the instruction, as Oclgrind printed it */
	unsigned times;
};

/* The text of each program's LLVM IR that Oclgrind dumped during the run,
 * and the frames of the last instruction looked up there (a report often
 * comes once per work-item). */
struct dumps {
	char *ir[SANITIZE_MAX_DUMPS];
	size_t count;
	char memo_instr[512], memo_kernel[128];
	struct ir_frame memo[SANITIZE_MAX_FRAMES];
	size_t memo_n;
};

struct findings {
	struct finding list[SANITIZE_MAX_FINDINGS];
	size_t count;      /* distinct, kept */
	size_t dropped;    /* reports beyond the list */
};

bool
sanitize_is_child(void)
{
	const char *v = getenv(SANITIZE_CHILD_ENV);

	return v && *v;
}

/* oclgrind preloads its OpenCL runtime, so a clwarp-run built with
 * AddressSanitizer (CI's sanitizers step) is not first in the library list;
 * ASan then refuses to start unless told that is fine. Others ignore it. */
static int
asan_after_preload(void)
{
	const char *old = getenv("ASAN_OPTIONS");
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "%s%sverify_asan_link_order=0", old ? old : "",
			 old && *old ? ":" : "");

	return n > 0 && (size_t)n < sizeof(buf) ? setenv("ASAN_OPTIONS", buf, 1) : -1;
}

/* The child: oclgrind running this program again, stdout into @p out_fd.
 * An exec failure's errno goes to @p err_fd. Never returns. */
static void
exec_oclgrind(char **argv, const char *log_path, int out_fd, int err_fd)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t argc = 0;
	char **args;
	int e;

	while (argv[argc])
		argc++;
	args = calloc(argc + 9, sizeof(*args));
	if (n > 0 && args && dup2(out_fd, STDOUT_FILENO) >= 0 && setenv(SANITIZE_CHILD_ENV, "1", 1) == 0 &&
	    setenv("CLWARP_BACKEND", "local", 1) == 0 && unsetenv("CLWARP_DEVICE") == 0 &&
	    setenv("OCLGRIND_DUMP_SPIR", "1", 1) == 0 && asan_after_preload() == 0) {
		self[n] = '\0';
		args[0] = "oclgrind";
		args[1] = "--data-races";
		args[2] = "--uninitialized";
		args[3] = "--log";
		args[4] = (char *)log_path;
		args[5] = self;
		/* A program from the disk cache comes without the IR dump. */
		args[6] = "--no-cache";
		for (size_t i = 1; i < argc; i++)
			args[6 + i] = argv[i];
		execvp("oclgrind", args);
	}
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Runs the child and waits for it: 0 with its wait @p status, or the
 * errno of a failure to start oclgrind. */
static int
run_child(char **argv, const char *log_path, int out_fd, int *status)
{
	int fds[2], e = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(fds[0]);
		close(fds[1]);
		return e;
	}
	if (pid == 0) {
		close(fds[0]);
		exec_oclgrind(argv, log_path, out_fd, fds[1]);
	}
	close(fds[1]);
	if (read(fds[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = 0;
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return errno;
	}
	return e;
}

/* The headline @p line without its address ("... at global memory
 * address 0x1000000000004" -> "... at global memory"), into @p f. */
static void
finding_what(struct finding *f, const char *line, size_t len)
{
	const char *addr = memmem(line, len, " address 0x", 11);

	if (addr)
		len = (size_t)(addr - line);
	while (len && (line[len - 1] == ':' || line[len - 1] == ' '))
		len--;
	snprintf(f->what, sizeof(f->what), "%.*s", (int)len, line);
}

/* The report block's detail line @p line (indented): its kernel, its
 * instruction ("... !dbg !N") and its first source position, "At line N
 * (column C) of FILE:". */
static void
finding_detail(struct finding *f, const char *line, size_t len)
{
	unsigned ln, col;
	int skip = 0;

	while (len && (*line == '\t' || *line == ' ')) {
		line++;
		len--;
	}
	if (!f->kernel[0] && len > 7 && !strncmp(line, "Kernel:", 7)) {
		line += 7;
		len -= 7;
		while (len && *line == ' ') {
			line++;
			len--;
		}
		snprintf(f->kernel, sizeof(f->kernel), "%.*s", (int)len, line);
	} else if (!f->where[0] && sscanf(line, "At line %u (column %u) of %n", &ln, &col, &skip) == 2 &&
		   skip > 0 && (size_t)skip < len) {
		size_t name = len - (size_t)skip;

		if (line[len - 1] == ':')
			name--;
		snprintf(f->where, sizeof(f->where), "%.*s:%u:%u", (int)name, line + skip, ln, col);
	} else if (!f->instr[0] && memmem(line, len, ", !dbg !", 8)) {
		snprintf(f->instr, sizeof(f->instr), "%.*s", (int)len, line);
	}
}

/* Adds @p f to @p all: a repeat of a kept finding counts there (for a
 * call of the library, the first position inside it stands). */
static void
findings_add(struct findings *all, const struct finding *f)
{
	for (size_t i = 0; i < all->count; i++) {
		struct finding *g = &all->list[i];

		if (!strcmp(g->what, f->what) && !strcmp(g->where, f->where) && !strcmp(g->kernel, f->kernel) &&
		    !strcmp(g->call, f->call)) {
			g->times++;
			return;
		}
	}
	if (all->count == SANITIZE_MAX_FINDINGS) {
		all->dropped++;
		return;
	}
	all->list[all->count] = *f;
	all->list[all->count].times = 1;
	all->count++;
}

/* The whole of @p fd from its start, NUL-terminated; NULL when empty or
 * unreadable. */
static char *
read_fd(int fd, size_t *size)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *grown = realloc(text, cap ? cap * 2 : 8192);

			if (!grown) {
				free(text);
				return NULL;
			}
			text = grown;
			cap = cap ? cap * 2 : 8192;
		}
		n = read(fd, text + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	text[len] = '\0';
	*size = len;
	return text;
}

/* The names in DUMP_DIR that Oclgrind's dumps take, one per line between
 * newlines ("\nNAME\n..."), or NULL when the folder cannot be read. */
static char *
dump_names(void)
{
	DIR *dir = opendir(DUMP_DIR);
	struct dirent *e;
	char *list = NULL;
	size_t len = 0;

	if (!dir)
		return NULL;
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		char *grown;

		if (strncmp(e->d_name, DUMP_PREFIX, strlen(DUMP_PREFIX)) != 0)
			continue;
		grown = realloc(list, len + n + 3);
		if (!grown)
			break;
		list = grown;
		len += (size_t)sprintf(list + len, "\n%s", e->d_name);
	}
	closedir(dir);
	if (list)
		strcpy(list + len, "\n");
	return list ? list : strdup("\n");
}

/* Whether "\nNAME\n" is in @p list. */
static bool
name_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(list, name); p; p = strstr(p + 1, name)) {
		if (p[-1] == '\n' && p[n] == '\n')
			return true;
	}
	return false;
}

/* The dumps that appeared in DUMP_DIR since @p before was listed and are
 * this user's: the LLVM IR texts (*.ll) into @p d, and every one of them
 * removed. */
static void
dumps_collect(struct dumps *d, const char *before)
{
	DIR *dir = opendir(DUMP_DIR);
	struct dirent *e;

	if (!dir)
		return;
	while ((e = readdir(dir))) {
		char path[sizeof(DUMP_DIR) + 256 + 1];
		size_t n = strlen(e->d_name), size;
		struct stat st;
		int fd;

		if (strncmp(e->d_name, DUMP_PREFIX, strlen(DUMP_PREFIX)) != 0 || name_listed(before, e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", DUMP_DIR, e->d_name);
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (n > 3 && !strcmp(e->d_name + n - 3, ".ll") && d->count < SANITIZE_MAX_DUMPS) {
			fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
			if (fd >= 0) {
				d->ir[d->count] = read_fd(fd, &size);
				d->count += d->ir[d->count] != NULL;
				close(fd);
			}
		}
		unlink(path);
	}
	closedir(dir);
}

static void
dumps_free(struct dumps *d)
{
	for (size_t i = 0; i < d->count; i++)
		free(d->ir[i]);
	d->count = 0;
}

/* Whether @p file (or FILE:LINE:COLUMN) is one of the library's own (its
 * #line names). */
static bool
library_file(const char *file)
{
	return !strncmp(file, "clwarp/", 7) || (!strncmp(file, "predicate", 9) && (!file[9] || file[9] == ':')) ||
	       !file[0];
}

/* A finding Oclgrind placed in the library's code (a warp call that only
 * some work-items of the group reached, say) placed at the user's line that
 * made the call: its instruction's inlined frames, from the dumped IR. */
static void
finding_map(struct finding *f, struct dumps *d)
{
	size_t i;

	if (!f->instr[0] || !library_file(f->where))
		return;
	if (strcmp(d->memo_instr, f->instr) || strcmp(d->memo_kernel, f->kernel)) {
		char define[160];

		snprintf(d->memo_instr, sizeof(d->memo_instr), "%s", f->instr);
		snprintf(d->memo_kernel, sizeof(d->memo_kernel), "%s", f->kernel);
		snprintf(define, sizeof(define), "@%s(", f->kernel);
		d->memo_n = 0;
		for (size_t k = 0; k < d->count && !d->memo_n; k++) {
			if (strstr(d->ir[k], define))
				d->memo_n = ir_frames_of(d->ir[k], f->instr, d->memo, SANITIZE_MAX_FRAMES);
		}
	}
	for (i = 0; i < d->memo_n && library_file(d->memo[i].file); i++)
		continue;
	if (i == 0 || i == d->memo_n)
		return;
	snprintf(f->inner, sizeof(f->inner), "%s", f->where);
	snprintf(f->where, sizeof(f->where), "%s:%u", d->memo[i].file, d->memo[i].line);
	snprintf(f->call, sizeof(f->call), "%s",
		 d->memo[i - 1].func + (strncmp(d->memo[i - 1].func, "clwarp_", 7) ? 0 : 7));
}

/* Oclgrind's log: every report starts with an unindented headline,
 * followed by indented detail lines. */
static void
parse_log(const char *text, struct dumps *d, struct findings *all)
{
	struct finding f;
	bool open = false;

	while (*text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);

		if (len && text[0] != '\t' && text[0] != ' ') {
			if (open) {
				finding_map(&f, d);
				findings_add(all, &f);
			}
			memset(&f, 0, sizeof(f));
			finding_what(&f, text, len);
			open = true;
		} else if (open && len) {
			finding_detail(&f, text, len);
		}
		text += len + (end != NULL);
	}
	if (open) {
		finding_map(&f, d);
		findings_add(all, &f);
	}
}

/* One line per finding; the status to exit with (0 when none). */
static int
report_findings(const struct findings *all)
{
	for (size_t i = 0; i < all->count; i++) {
		const struct finding *f = &all->list[i];
		char times[32] = "", call[sizeof(f->call) + sizeof(f->inner) + 32] = "";

		if (f->times > 1)
			snprintf(times, sizeof(times), ", %u times", f->times);
		if (f->call[0])
			snprintf(call, sizeof(call), " in the call of %s (at %s)", f->call, f->inner);
		report_error("--sanitize: %s%s%s%s (kernel %s%s)", f->where, f->where[0] ? ": " : "",
			     f->what, call, f->kernel[0] ? f->kernel : "unknown", times);
	}
	if (all->dropped)
		report_error("--sanitize: and %zu more Oclgrind report%s", all->dropped,
			     all->dropped == 1 ? "" : "s");
	return all->count ? EXIT_OVERFLOW : 0;
}

/* After the run: Oclgrind's findings, else the run's output and status.
 * @p d: the IR of the run's programs. */
static int
finish(int status, const char *log_path, int out_fd, struct dumps *d)
{
	struct findings all = { .count = 0 };
	size_t size = 0;
	int log_fd = open(log_path, O_RDONLY | O_CLOEXEC);
	char *text = log_fd >= 0 ? read_fd(log_fd, &size) : NULL;
	int rc;

	if (log_fd >= 0)
		close(log_fd);
	if (text)
		parse_log(text, d, &all);
	free(text);
	rc = report_findings(&all);
	if (rc)
		return rc;
	if (WIFSIGNALED(status)) {
		report_error("--sanitize: the run under Oclgrind ended by signal %d", WTERMSIG(status));
		return EXIT_RUNTIME;
	}
	text = read_fd(out_fd, &size);
	if (text && size) {
		fwrite(text, 1, size, stdout);
		report_output_done();
	}
	free(text);
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_RUNTIME;
}

int
sanitize_run(char **argv, const struct options *o)
{
	char log_path[] = "/tmp/clwarp-run-oclgrind-XXXXXX";
	struct dumps d = { .count = 0 };
	char *before;
	FILE *out;
	int log_fd, status = 0, e, rc;

	if (o->device)
		return report_usage("--sanitize runs on Oclgrind's simulated device; -d cannot be given");
	if (o->backend_set && o->backend != CLWARP_BACKEND_LOCAL)
		return report_usage("--sanitize runs the local backend; -b %s cannot be given",
				    clwarp_backend_name(o->backend));
	log_fd = mkostemp(log_path, O_CLOEXEC);
	if (log_fd < 0) {
		report_error("--sanitize: cannot make a temporary file: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	out = tmpfile();
	if (!out) {
		report_error("--sanitize: cannot make a temporary file: %s", strerror(errno));
		unlink(log_path);
		close(log_fd);
		return EXIT_RUNTIME;
	}
	before = dump_names();
	e = run_child(argv, log_path, fileno(out), &status);
	if (before)
		dumps_collect(&d, before);
	free(before);
	if (e) {
		report_error("--sanitize: cannot run oclgrind: %s (it is in the Debian package oclgrind)",
			     strerror(e));
		rc = EXIT_RUNTIME;
	} else {
		rc = finish(status, log_path, fileno(out), &d);
	}
	dumps_free(&d);
	unlink(log_path);
	close(log_fd);
	fclose(out);
	return rc;
}
