/* Cache torture test, driver side: state shared by driver.c, procs.c and faults.c. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TORTURE_DRIVER_H
#define CLWARP_TORTURE_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "torture.h"

#define PATH_SIZE 1024

struct torture_config {
	double seconds;          /* CLWARP_TORTURE_SECONDS: spawning stops after this */
	unsigned workers;        /* CLWARP_TORTURE_WORKERS: processes alive at once */
	uint64_t max_bytes;      /* CLWARP_TORTURE_MAX_BYTES: the cache's size bound */
	uint64_t seed;           /* CLWARP_TORTURE_SEED */
	double deadline;         /* CLWARP_TORTURE_DEADLINE: a worker this long in one phase hangs */
	int mounts;              /* read-only and full folders (root, private mount namespace) */
	int keep;                /* CLWARP_TORTURE_KEEP: leave the temp folder */
	const char *worker_exe;
};

enum fault {
	FAULT_KILL_BUILD,   /* SIGKILL at a random moment of a build */
	FAULT_KILL_WRITE,   /* SIGKILL of a worker holding a cache temp file open */
	FAULT_FLIP,         /* one byte of an entry flipped, in place */
	FAULT_TRUNCATE,     /* an entry cut short */
	FAULT_ZERO,         /* an entry cut to 0 bytes */
	FAULT_SWAP,         /* two entries' files exchanged (renameat2 RENAME_EXCHANGE) */
	FAULT_FOLDER,       /* a folder in place of an entry */
	FAULT_FIFO,         /* a named pipe in place of an entry */
	FAULT_READ_ONLY,    /* the cache folder remounted read-only (bind mount) */
	FAULT_FULL,         /* the cache folder a nearly full 256 KiB tmpfs */
	FAULT_FILE,         /* a regular file in place of the cache folder */
	FAULT_VANISH,       /* the cache folder removed (moved away) */
	FAULT_KINDS
};

extern const char *const fault_names[FAULT_KINDS];

enum mode { MODE_NORMAL, MODE_READ_ONLY, MODE_FULL, MODE_FILE, MODE_VANISH };

struct worker {
	pid_t pid;               /* 0: free slot */
	int fd;                  /* read end of its status pipe */
	char phase;              /* last status letter (torture.h), 0 before the first */
	char job[32];            /* job of the last B line */
	double started, phase_started;
	int killed;              /* FAULT_KILL_* + 1 when we killed it on purpose, -1 a hang */
	int final;               /* the clean worker after the last round */
	char line[256];
	size_t len;
	char log[PATH_SIZE + 64];
	char pocl[PATH_SIZE + 64];  /* its own POCL_CACHE_DIR, removed when it ends */
};

struct stats {
	unsigned long faults[FAULT_KINDS];
	unsigned long started, ok, killed, failed, crashes, hangs;
	unsigned long runs, by_source[3], wrong_runs, wrong_values;
	unsigned long write_kill_misses;  /* temp file seen, its writer already done */
	unsigned long switch_tmp;         /* temp files held open when a folder switch came */
	unsigned long switch_writers;     /* workers building when a folder switch came */
	unsigned long tmp_left;           /* distinct temp files found while no worker ran */
	unsigned long tmp_aged, tmp_planted;
	unsigned long folders_undone;
	/* From the workers' debug logs: what the cache did. */
	unsigned long stored, evicted, dropped, rejected, store_failed, cache_off;
	uint64_t largest_entry;
	int final_source;                 /* 'c', 'd', 'm' of the final clean build, 0 none */
	int final_ok, final_stored;
	unsigned long setup_errors;       /* a folder fault that could not be made or undone */
};

struct torture {
	struct torture_config cfg;
	char root[PATH_SIZE - 64]; /* our temp folder */
	char cache[PATH_SIZE];   /* the one cache folder: root/cache */
	char aside[PATH_SIZE];   /* where MODE_FILE and MODE_VANISH move it */
	char inc[PATH_SIZE];     /* root/inc: torture_k.h, incfile.cl */
	char logs[PATH_SIZE];    /* root/logs: one stderr log per worker */
	struct worker *workers;  /* cfg.workers slots */
	struct stats st;
	uint64_t rng;
	double t0;
	int k;                   /* TORTURE_K of this round */
	int round;
	int realtime;            /* the driver runs SCHED_FIFO */
	int clean;               /* the final store: no faults at all */
	int worker_nice;         /* the driver's nice + 5 */
	enum mode mode;          /* the folder fault in force */
	int inotify_fd;
	int full_wd;             /* inotify watch on the tmpfs of MODE_FULL, -1 none */
	char **seen_tmp;         /* temp file names already counted in tmp_left */
	size_t seen_count;
	char **folders;          /* entries we turned into folders or pipes, undone a round later */
	size_t folder_count;
	unsigned vanished;       /* folders a store recreated in MODE_VANISH, kept aside */
};

/* driver.c */
double now_s(void);
uint64_t rnd(struct torture *t);
double rnd_unit(struct torture *t);

/* procs.c */
int procs_spawn(struct torture *t, char *const jobs[], size_t njobs, int final);
size_t procs_alive(const struct torture *t);
/* Waits up to timeout_ms for status lines, exits and temp files; handles them all. */
void procs_poll(struct torture *t, int timeout_ms);
void procs_kill_random_builder(struct torture *t);
void procs_check_deadlines(struct torture *t);
/* SIGSTOP every worker and wait until all their threads have stopped; then SIGCONT. */
void procs_stop_all(struct torture *t);
void procs_cont_all(struct torture *t);
size_t procs_building(const struct torture *t);
/* Workers holding a cache temp file open (stop them first for an exact count). */
size_t procs_tmp_holders(const struct torture *t);

/* faults.c */
struct folder_scan {
	unsigned long entries, tmp, folders;
	uint64_t bytes, tmp_bytes, largest;
	unsigned long stale_tmp;           /* temp files older than the cache's stale age */
};
/* Counts dir's entries and temp files; with tag, each temp file not seen
 * before under that tag adds to t->st.tmp_left. -1 when dir cannot be listed. */
int scan_folder(const char *dir, struct folder_scan *scan, struct torture *t, const char *tag);
/* Damages the entry called name (NULL: a random one) in one of the ways above. */
void corrupt_entry(struct torture *t, const char *name);
/* Names the cache gives its entries and its temp files. */
int entry_name(const char *name);
int tmp_name(const char *name);
void mode_apply(struct torture *t, enum mode mode);
void mode_undo(struct torture *t);
/* Ages the temp files left in the folder past the cache's stale age and
 * adds one more such file, so the next store's scan must delete them. */
void age_tmp_files(struct torture *t);
void undo_folders(struct torture *t);
int rm_rf(const char *path);

#endif
