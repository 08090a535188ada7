/* Host threads kept by an engine for its staged copies (src/staging.c):
 * started on first use, joined when the engine is freed. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WORKERS_H
#define CLWARP_WORKERS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define WORKERS_MAX 63

struct workers {
	pthread_mutex_t lock;        /* guards everything below */
	pthread_cond_t wake;         /* a job came, or quit */
	pthread_cond_t done;         /* the job's last task finished */
	pthread_t thread[WORKERS_MAX];
	unsigned started;            /* threads running */
	bool busy;                   /* a call holds the pool */
	bool quit;
	/* The job: tasks [0, count), handed out in order. */
	void (*fn)(void *task);
	unsigned char *tasks;
	size_t task_size;
	unsigned count, next, finished;
};

void workers_init(struct workers *workers);

/* fn(task) for each of @p count tasks of @p size bytes at @p tasks, at
 * once: the caller takes tasks too, the pool's threads the others. Where
 * another call holds the pool, threads are started for this call alone
 * (as many as there are tasks after the caller's); where none can start,
 * the caller runs every task. Returns when all have finished. */
void workers_run(struct workers *workers, void (*fn)(void *task), void *tasks, size_t size,
		 unsigned count);

/* Stop and join the threads; nothing may be running. */
void workers_free(struct workers *workers);

#endif
