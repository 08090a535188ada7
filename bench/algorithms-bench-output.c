/* algorithms-bench's output: the TSV rows and the GB/s tables. */
/* SPDX-License-Identifier: MIT */
#include "algorithms-bench.h"

void
tsv_row(FILE *f, const char *device, const char *backend, const char *op, const char *type,
        size_t n, struct result r)
{
	if (!f || r.ms < 0)
		return;
	fprintf(f, "%s\t%s\t%s\t%s\t%zu\t%.6f\t%.4f\t%.6f\t%s\t%.6f\n", device, backend, op, type,
	        n, r.ms, r.gbps, r.wall_ms, timing_name(r.timing), r.batch_ms);
	fflush(f); /* a run cut short keeps every row it measured */
}
/* A GB/s cell; a wall-timed one gets a '*' where `mark` (its table mixes methods). */
void
print_gbps(struct result r, int mark)
{
	if (r.ms < 0)
		printf(" %9s", r.ms == MS_FAILED ? "FAILED" : "-");
	else if (mark && r.timing == TIMING_WALL)
		printf(" %8.2f*", r.gbps);
	else
		printf(" %9.2f", r.gbps);
}

/* How the device results shown were timed, for a table header; *mark: mixed, so star the wall ones. */
const char *
timing_legend(int any_event, int any_wall, int *mark)
{
	*mark = any_event && any_wall;
	if (!any_wall)
		return "median event time, marker before the call -> end of its last command";
	if (!any_event)
		return "median WALL time of call+clFinish (no usable profiling timestamps)";
	return "median event time; * = WALL time of call+clFinish, timestamps unusable";
}

/* The three measures per call in us, each backend and the copy kernel:
 * event (or '*' wall) / blocking / back to back. */
static void
print_times(const struct table_data *t, size_t ci, int min_log2, int max_log2)
{
	printf("  us per call: event / blocking call / back to back (K queued, one wait)\n");
	printf("  %8s", "n");
	for (int b = 0; b <= t->nb; b++)
		printf(" %26s", b < t->nb ? t->names[b] : "copy");
	printf("\n");
	for (int l = min_log2; l <= max_log2; l++) {
		int any = 0;

		for (int b = 0; b < t->nb; b++)
			any |= t->res[b][ci][l].ms >= 0;
		if (!any)
			continue;
		printf("  %8zu", (size_t)1 << l);
		for (int b = 0; b <= t->nb; b++) {
			struct result r = b < t->nb ? t->res[b][ci][l] : t->copy[l];
			char cell[48];

			if (r.ms < 0)
				snprintf(cell, sizeof(cell), "-");
			else
				snprintf(cell, sizeof(cell), "%.1f%s / %.1f / %.1f", r.ms * 1e3,
				         r.timing == TIMING_WALL ? "*" : "", r.wall_ms * 1e3, r.batch_ms * 1e3);
			printf(" %26s", cell);
		}
		printf("\n");
	}
}

void
print_table(const struct table_data *t, size_t ci, int min_log2, int max_log2)
{
	const struct bench_case *c = &cases[ci];
	const char *legend;
	char ratio[32];
	int any_event = 0, any_wall = 0, mark;

	for (int l = min_log2; l <= max_log2; l++) {
		for (int b = 0; b <= t->nb; b++) {
			struct result r = b < t->nb ? t->res[b][ci][l] : t->copy[l];

			if (r.ms >= 0) {
				any_event |= r.timing == TIMING_EVENT;
				any_wall |= r.timing == TIMING_WALL;
			}
		}
	}
	legend = timing_legend(any_event, any_wall, &mark);
	printf("\n%s %s  [GB/s = (%s) / %s]\n", c->op, type_name(c->type), c->bytes, legend);
	printf("%10s", "n");
	for (int b = 0; b < t->nb; b++)
		printf(" %9s", t->names[b]);
	if (t->ratio_num >= 0) {
		snprintf(ratio, sizeof(ratio), "%s/%s", t->names[t->ratio_num], t->names[t->ratio_den]);
		printf(" %9s", ratio);
	}
	printf(" %9s", "copy");
	if (t->show_host)
		printf(" %9s", "host");
	printf("\n");
	for (int l = min_log2; l <= max_log2; l++) {
		int any = 0;

		for (int b = 0; b < t->nb; b++)
			any |= t->res[b][ci][l].ms != MS_NOT_RUN;
		if (!any)
			continue;
		printf("%10zu", (size_t)1 << l);
		for (int b = 0; b < t->nb; b++)
			print_gbps(t->res[b][ci][l], mark);
		if (t->ratio_num >= 0) {
			struct result p = t->res[t->ratio_num][ci][l], q = t->res[t->ratio_den][ci][l];
			struct result pq = {p.gbps / q.gbps, p.gbps / q.gbps, 0,
			                    p.timing == TIMING_EVENT && q.timing == TIMING_EVENT
			                            ? TIMING_EVENT
			                            : TIMING_WALL,
			                    0};

			if (p.ms < 0 || q.ms < 0)
				pq.ms = MS_NOT_RUN;
			print_gbps(pq, mark);
		}
		print_gbps(t->copy[l], mark);
		if (t->show_host)
			print_gbps(t->host[ci][l], 0);
		printf("\n");
	}
	print_times(t, ci, min_log2, max_log2);
}
