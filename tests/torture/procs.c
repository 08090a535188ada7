/* Cache torture test: worker processes (spawn, status lines, exits, kills, stops). */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver.h"

/* Share of the cache's temp files whose writer is killed while it holds the file. */
#define WRITE_KILL_RATE 0.2
/* Share of freshly stored entries damaged at once (others will load them soon). */
#define FRESH_CORRUPT_RATE 0.25
/* Jobs per worker, at most. */
#define MAX_JOBS 8
/* At most this share of the workers started are killed on purpose, however
 * slow the machine: kills come by the clock, builds by the CPU left. */
#define KILL_SHARE 0.2

static int
may_kill(const struct torture *t)
{
	return t->st.faults[FAULT_KILL_BUILD] + t->st.faults[FAULT_KILL_WRITE] <
	       KILL_SHARE * (double)t->st.started;
}

static int all_stopped(pid_t pid);

static struct worker *
find_worker(struct torture *t, pid_t pid)
{
	for (unsigned i = 0; i < t->cfg.workers; i++) {
		if (t->workers[i].pid == pid)
			return &t->workers[i];
	}
	return NULL;
}

size_t
procs_alive(const struct torture *t)
{
	size_t n = 0;

	for (unsigned i = 0; i < t->cfg.workers; i++)
		n += t->workers[i].pid != 0;
	return n;
}

size_t
procs_building(const struct torture *t)
{
	size_t n = 0;

	for (unsigned i = 0; i < t->cfg.workers; i++)
		n += t->workers[i].pid != 0 && t->workers[i].phase == 'B';
	return n;
}

int
procs_spawn(struct torture *t, char *const jobs[], size_t njobs, int final)
{
	struct worker *w = find_worker(t, 0);
	char k[16], seed[32], log[PATH_SIZE + 64], pocl[PATH_SIZE + 64], *argv[4 + MAX_JOBS + 1];
	pid_t parent = getpid(), pid;
	int fds[2];

	if (!w || njobs == 0 || njobs > MAX_JOBS)
		return -1;
	snprintf(k, sizeof(k), "%d", t->k);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rnd(t));
	argv[0] = (char *)t->cfg.worker_exe;
	argv[1] = t->inc;
	argv[2] = k;
	argv[3] = seed;
	for (size_t i = 0; i < njobs; i++)
		argv[4 + i] = jobs[i];
	argv[4 + njobs] = NULL;
	snprintf(log, sizeof(log), "%s/worker-%lu.log", t->logs, t->st.started);
	snprintf(pocl, sizeof(pocl), "%s/pocl-%lu", t->root, t->st.started);
	if (pipe2(fds, O_CLOEXEC) != 0) {
		perror("torture: pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		perror("torture: fork");
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		/* Never outlive the driver, whatever kills it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent || logfd < 0 || null < 0 || chdir(t->root) != 0)
			_exit(127);
		dup2(null, 0);
		dup2(logfd, 1);
		dup2(logfd, 2);
		if (fds[1] == WORKER_STATUS_FD)
			fcntl(fds[1], F_SETFD, 0);
		else
			dup2(fds[1], WORKER_STATUS_FD);
		/* Below the driver, so it reacts to a new temp file before the writer is done. */
		setpriority(PRIO_PROCESS, 0, t->worker_nice);
		setenv("CLWARP_TORTURE_STATUS", "1", 1);
		setenv("POCL_CACHE_DIR", pocl, 1);
		execv(t->cfg.worker_exe, argv);
		_exit(127);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	memset(w, 0, sizeof(*w));
	memcpy(w->log, log, sizeof(log));
	memcpy(w->pocl, pocl, sizeof(pocl));
	w->pid = pid;
	w->fd = fds[0];
	w->started = w->phase_started = now_s();
	w->final = final;
	t->st.started++;
	return 0;
}

static void
handle_line(struct torture *t, struct worker *w, const char *line)
{
	static const char *const sources[3] = { "compiled", "disk", "memory" };
	char job[32] = "", source[16] = "";
	unsigned long n = 0;

	if (line[0] != 'E' && line[0] != 'B' && line[0] != 'R' && line[0] != 'K' && line[0] != 'X')
		return;
	w->phase = line[0];
	w->phase_started = now_s();
	switch (line[0]) {
	case 'B':
		sscanf(line + 1, "%31s", w->job);
		break;
	case 'R':
		if (sscanf(line + 1, "%31s %15s", job, source) == 2) {
			for (int i = 0; i < 3; i++) {
				if (strcmp(source, sources[i]) == 0) {
					t->st.by_source[i] += !w->final;
					if (w->final)
						t->st.final_source = source[0];
				}
			}
		}
		break;
	case 'K':
		t->st.runs++;
		break;
	case 'X':
		sscanf(line + 1, "%31s %lu", job, &n);
		t->st.runs++;
		t->st.wrong_runs++;
		t->st.wrong_values += n;
		break;
	}
}

/* Reads what the worker wrote; at end of file closes the pipe. */
static void
read_status(struct torture *t, struct worker *w)
{
	for (;;) {
		ssize_t r = read(w->fd, w->line + w->len, sizeof(w->line) - 1 - w->len);
		char *nl;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0 || errno != EAGAIN) {
				close(w->fd);
				w->fd = -1;
			}
			return;
		}
		w->len += (size_t)r;
		w->line[w->len] = '\0';
		while ((nl = strchr(w->line, '\n'))) {
			*nl = '\0';
			handle_line(t, w, w->line);
			w->len -= (size_t)(nl + 1 - w->line);
			memmove(w->line, nl + 1, w->len + 1);
		}
		if (w->len == sizeof(w->line) - 1)
			w->len = 0; /* a line that long is garbage */
	}
}

static void
print_log(const struct worker *w, const char *why)
{
	char buf[4096];
	FILE *f = fopen(w->log, "r");
	long size;
	size_t n;

	printf("torture: worker %d (%s, phase %c, job %s): %s; its log %s ends:\n", (int)w->pid,
	       w->final ? "final" : "round", w->phase ? w->phase : '-', w->job[0] ? w->job : "-", why,
	       w->log);
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, size > (long)sizeof(buf) - 1 ? size - (long)sizeof(buf) + 1 : 0, SEEK_SET);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	printf("%s%s", buf, n && buf[n - 1] != '\n' ? "\n" : "");
}

/* Counts the cache's own messages in a worker's log (CLWARP_LOG_LEVEL=debug). */
static void
count_log(struct torture *t, const struct worker *w)
{
	static const struct {
		const char *text;
		size_t offset;
	} events[] = {
		{ "disk cache: stored ", offsetof(struct stats, stored) },
		{ "disk cache: evicted ", offsetof(struct stats, evicted) },
		{ "disk cache: dropping ", offsetof(struct stats, dropped) },
		{ "rejected a cached binary", offsetof(struct stats, rejected) },
		{ "disk cache: cannot create a file in", offsetof(struct stats, store_failed) },
		{ "disk cache: cannot write a file in", offsetof(struct stats, store_failed) },
		{ "disk cache: cannot rename a file to", offsetof(struct stats, store_failed) },
		{ "disk cache off:", offsetof(struct stats, cache_off) },
	};
	char line[4096];
	FILE *f = fopen(w->log, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
			if (strstr(line, events[i].text))
				(*(unsigned long *)((char *)&t->st + events[i].offset))++;
		}
		if (w->final && strstr(line, events[0].text))
			t->st.final_stored = 1;
	}
	fclose(f);
}

static void
handle_exit(struct torture *t, struct worker *w, int status)
{
	char why[128];
	int bad = 0;

	/* What it wrote before it ended; a child of it (the linker PoCL runs)
	 * might still hold the pipe, so no waiting for end of file. */
	if (w->fd >= 0) {
		read_status(t, w);
		if (w->fd >= 0)
			close(w->fd);
		w->fd = -1;
	}
	count_log(t, w);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && w->killed) {
		/* ours: a fault (counted when sent) or a hang (counted when found) */
		t->st.killed += w->killed > 0;
		bad = w->killed < 0;
		snprintf(why, sizeof(why), "killed after its deadline");
	} else if (WIFSIGNALED(status)) {
		t->st.crashes++;
		bad = 1;
		snprintf(why, sizeof(why), "CRASH: signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	} else if (WEXITSTATUS(status) == WORKER_EXIT_OK) {
		t->st.ok++;
		t->st.final_ok |= w->final;
	} else if (WEXITSTATUS(status) == WORKER_EXIT_FAILED) {
		t->st.failed++;
		bad = 1;
		snprintf(why, sizeof(why), "FAILED: an API call failed");
	} else if (WEXITSTATUS(status) == WORKER_EXIT_WRONG) {
		bad = 1;
		snprintf(why, sizeof(why), "WRONG RESULTS");
	} else {
		t->st.crashes++;
		bad = 1;
		snprintf(why, sizeof(why), "CRASH: exit status %d", WEXITSTATUS(status));
	}
	if (bad)
		print_log(w, why);
	else
		unlink(w->log);
	rm_rf(w->pocl);
	w->pid = 0;
}

/* Does process pid hold a cache temp file open: the one called name, or
 * with name NULL any .tmp-* in the cache folder (or where it was moved)? */
static int
holds_tmp(const struct torture *t, pid_t pid, const char *name)
{
	char dir[64], link[PATH_SIZE + 64], target[PATH_SIZE];
	size_t plen = strlen(TORTURE_TMP_PREFIX);
	struct dirent *de;
	int found = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	if (!(d = opendir(dir)))
		return 0;
	while (!found && (de = readdir(d))) {
		ssize_t n;
		char *base;

		snprintf(link, sizeof(link), "%s/%s", dir, de->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!(base = strrchr(target, '/')))
			continue;
		*base++ = '\0';
		if (strcmp(target, t->cache) != 0 && strcmp(target, t->aside) != 0)
			continue;
		found = name ? strcmp(base, name) == 0 : strncmp(base, TORTURE_TMP_PREFIX, plen) == 0;
	}
	closedir(d);
	return found;
}

/* SIGSTOP and wait until stopped; returns whether it holds a cache temp file. */
static int
stop_and_look(struct torture *t, struct worker *w, const char *name)
{
	double until = now_s() + 2;

	kill(w->pid, SIGSTOP);
	while (!all_stopped(w->pid) && now_s() < until)
		usleep(200);
	return holds_tmp(t, w->pid, name);
}

/* SIGKILL on purpose. A victim holding a temp file (it can only leave
 * that behind) counts as killed mid-write, whatever the reason. */
static void
kill_worker(struct torture *t, struct worker *w, int holding, enum fault why)
{
	if (holding)
		why = FAULT_KILL_WRITE;
	kill(w->pid, SIGKILL);
	w->killed = (int)why + 1;
	t->st.faults[why]++;
}

/* A temp file appeared in the cache folder: sometimes stop the builders,
 * find the one writing it and SIGKILL it mid-write. */
static void
maybe_kill_writer(struct torture *t, const char *name)
{
	struct worker *writer = NULL;

	if (strncmp(name, TORTURE_TMP_PREFIX, strlen(TORTURE_TMP_PREFIX)) != 0 ||
	    rnd_unit(t) >= WRITE_KILL_RATE || !may_kill(t))
		return;
	for (unsigned i = 0; i < t->cfg.workers; i++) {
		struct worker *w = &t->workers[i];

		if (w->pid && w->phase == 'B' && !w->killed && !w->final)
			kill(w->pid, SIGSTOP);
	}
	for (unsigned i = 0; i < t->cfg.workers && !writer; i++) {
		struct worker *w = &t->workers[i];

		if (w->pid && w->phase == 'B' && !w->killed && !w->final && stop_and_look(t, w, name))
			writer = w;
	}
	if (writer)
		kill_worker(t, writer, 1, FAULT_KILL_WRITE);
	else
		t->st.write_kill_misses++;
	for (unsigned i = 0; i < t->cfg.workers; i++) {
		struct worker *w = &t->workers[i];

		if (w->pid && w->phase == 'B' && !w->killed && !w->final)
			kill(w->pid, SIGCONT);
	}
}

static void
read_inotify(struct torture *t)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));

	for (;;) {
		ssize_t n = read(t->inotify_fd, buf, sizeof(buf));

		if (n <= 0)
			return;
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			if (t->clean)
				;
			else if ((ev->mask & IN_CREATE) && ev->len)
				maybe_kill_writer(t, ev->name);
			else if ((ev->mask & IN_MOVED_TO) && ev->len && entry_name(ev->name) &&
				 rnd_unit(t) < FRESH_CORRUPT_RATE)
				corrupt_entry(t, ev->name);
			p += sizeof(*ev) + ev->len;
		}
	}
}

void
procs_poll(struct torture *t, int timeout_ms)
{
	struct pollfd pfd[65];
	struct worker *who[65];
	size_t n = 0;
	int status;
	pid_t pid;

	if (t->inotify_fd >= 0) {
		pfd[n].fd = t->inotify_fd;
		pfd[n].events = POLLIN;
		who[n++] = NULL;
	}
	for (unsigned i = 0; i < t->cfg.workers && n < 65; i++) {
		if (t->workers[i].pid && t->workers[i].fd >= 0) {
			pfd[n].fd = t->workers[i].fd;
			pfd[n].events = POLLIN;
			who[n++] = &t->workers[i];
		}
	}
	if (poll(pfd, n, timeout_ms) > 0) {
		for (size_t i = 0; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			if (who[i])
				read_status(t, who[i]);
			else
				read_inotify(t);
		}
	}
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		struct worker *w = find_worker(t, pid);

		if (w)
			handle_exit(t, w, status);
	}
}

void
procs_kill_random_builder(struct torture *t)
{
	struct worker *pick[64];
	double now = now_s();
	size_t n = 0;

	/* Not one that has been building for half its deadline: it may hang,
	 * and a kill must not hide that. */
	for (unsigned i = 0; i < t->cfg.workers && n < 64; i++) {
		struct worker *w = &t->workers[i];

		if (w->pid && w->phase == 'B' && !w->killed && !w->final &&
		    now - w->phase_started < t->cfg.deadline / 2)
			pick[n++] = w;
	}
	if (!n || !may_kill(t))
		return;
	n = rnd(t) % n;
	kill_worker(t, pick[n], stop_and_look(t, pick[n], NULL), FAULT_KILL_BUILD);
}

void
procs_check_deadlines(struct torture *t)
{
	double now = now_s();

	for (unsigned i = 0; i < t->cfg.workers; i++) {
		struct worker *w = &t->workers[i];

		if (w->pid && !w->killed && now - w->phase_started > t->cfg.deadline) {
			printf("torture: HANG: worker %d %.0f s in phase %c (job %s)\n", (int)w->pid,
			       now - w->phase_started, w->phase ? w->phase : '-', w->job[0] ? w->job : "-");
			kill(w->pid, SIGKILL);
			w->killed = -1;
			t->st.hangs++;
		}
	}
}

/* 1 when every thread of pid is stopped (or the process is gone). */
static int
all_stopped(pid_t pid)
{
	char path[64], buf[512];
	struct dirent *de;
	int stopped = 1;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return 1;
	while (stopped && (de = readdir(d))) {
		char stat_path[384], *paren;
		FILE *f;
		size_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(stat_path, sizeof(stat_path), "%s/%s/stat", path, de->d_name);
		if (!(f = fopen(stat_path, "r")))
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		paren = strrchr(buf, ')');
		if (paren && paren[1] == ' ')
			stopped = paren[2] == 'T' || paren[2] == 't' || paren[2] == 'Z' || paren[2] == 'X';
	}
	closedir(d);
	return stopped;
}

void
procs_stop_all(struct torture *t)
{
	double until = now_s() + 5;

	for (unsigned i = 0; i < t->cfg.workers; i++) {
		if (t->workers[i].pid)
			kill(t->workers[i].pid, SIGSTOP);
	}
	for (unsigned i = 0; i < t->cfg.workers; i++) {
		while (t->workers[i].pid && !all_stopped(t->workers[i].pid) && now_s() < until)
			usleep(1000);
	}
}

size_t
procs_tmp_holders(const struct torture *t)
{
	size_t n = 0;

	for (unsigned i = 0; i < t->cfg.workers; i++)
		n += t->workers[i].pid && holds_tmp(t, t->workers[i].pid, NULL);
	return n;
}

void
procs_cont_all(struct torture *t)
{
	for (unsigned i = 0; i < t->cfg.workers; i++) {
		if (t->workers[i].pid)
			kill(t->workers[i].pid, SIGCONT);
	}
}
