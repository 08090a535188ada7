/* clwarp-run: the text and JSON reports of a run. */
/* SPDX-License-Identifier: MIT */
#include "output.h"

#include <string.h>

/* The length of the valid UTF-8 sequence at @p p (2 to 4), or 0. */
static size_t
utf8_sequence(const unsigned char *p)
{
	size_t len;
	unsigned cp;

	if (*p >= 0xc2 && *p <= 0xdf) {
		len = 2;
		cp = *p & 0x1f;
	} else if (*p >= 0xe0 && *p <= 0xef) {
		len = 3;
		cp = *p & 0x0f;
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		len = 4;
		cp = *p & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void
output_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if (*p >= 0x80) {
			/* JSON is UTF-8: a byte that is not part of a valid
			 * sequence (a Latin-1 file name, a binary SPEC) becomes
			 * U+FFFD rather than invalid JSON. */
			size_t len = utf8_sequence(p);

			if (len) {
				fwrite(p, 1, len, f);
				p += len - 1;
			} else {
				fputs("\\ufffd", f);
			}
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static const char *
build_label(const char *source)
{
	if (strcmp(source, "disk") == 0)
		return "disk hit";
	if (strcmp(source, "memory") == 0)
		return "memory hit";
	return source;
}

void
output_text(FILE *f, const struct run_report *r, bool quiet)
{
	char num[64];

	if (!quiet) {
		fprintf(f, "device: %s (%s), backend %s, warp size %u%s\n", r->device, r->platform,
			r->backend, r->warp_size, r->native_width ? NATIVE_WIDTH_NOTE : "");
		fprintf(f, "build: %s in %.1f ms\n", build_label(r->build_source), r->build_ms);
	}
	for (size_t b = 0; b < r->buffer_count; b++) {
		const struct output_buffer *o = &r->buffers[b];

		fprintf(f, "arg%u:", o->arg);
		for (size_t i = 0; i < o->count; i++) {
			fputc(' ', f);
			fputs(elemtype_format(o->type, o->data, i, num, sizeof(num)), f);
		}
		fputc('\n', f);
	}
	if (!quiet && r->runs)
		fprintf(f, "time: min %.3f us, median %.3f us, max %.3f us over %u runs\n",
			r->time_min_ns / 1e3, r->time_median_ns / 1e3, r->time_max_ns / 1e3, r->runs);
	if (r->has_check) {
		if (r->check->mismatches == 0) {
			fputs("check: pass\n", f);
		} else {
			for (size_t i = 0; i < r->check->line_count; i++)
				fprintf(f, "check: FAIL %s\n", r->check->lines[i]);
			if (r->check->mismatches > r->check->line_count)
				fprintf(f, "check: FAIL and %zu more mismatches\n",
					r->check->mismatches - r->check->line_count);
		}
	}
}

static void
json_sizes(FILE *f, const size_t *v, unsigned n)
{
	fputc('[', f);
	for (unsigned d = 0; d < n; d++)
		fprintf(f, "%s%zu", d ? ", " : "", v[d]);
	fputc(']', f);
}

void
output_json(FILE *f, const struct run_report *r)
{
	char num[64];

	fputs("{\"device\": ", f);
	output_json_string(f, r->device);
	fputs(", \"platform\": ", f);
	output_json_string(f, r->platform);
	fputs(", \"backend\": ", f);
	output_json_string(f, r->backend);
	fprintf(f, ", \"warp_size\": %u, \"native_width\": %s, \"kernel\": ", r->warp_size,
		r->native_width ? "true" : "false");
	output_json_string(f, r->kernel);
	fputs(", \"global\": ", f);
	json_sizes(f, r->global, r->dims);
	fputs(", \"local\": ", f);
	if (r->has_local)
		json_sizes(f, r->local, r->dims);
	else
		fputs("null", f);
	fputs(", \"build\": {\"source\": ", f);
	output_json_string(f, r->build_source);
	fprintf(f, ", \"ms\": %.3f}, \"outputs\": [", r->build_ms);
	for (size_t b = 0; b < r->buffer_count; b++) {
		const struct output_buffer *o = &r->buffers[b];

		fprintf(f, "%s{\"arg\": %u, \"type\": \"%s\", \"values\": [", b ? ", " : "", o->arg,
			elemtype_name(o->type));
		for (size_t i = 0; i < o->count; i++) {
			const char *text = elemtype_format(o->type, o->data, i, num, sizeof(num));

			if (i)
				fputs(", ", f);
			if (strcmp(text, "nan") == 0 || strcmp(text, "inf") == 0 ||
			    strcmp(text, "-inf") == 0)
				fprintf(f, "\"%s\"", text);
			else
				fputs(text, f);
		}
		fputs("]}", f);
	}
	fputc(']', f);
	if (r->runs)
		fprintf(f, ", \"time_ns\": {\"min\": %.0f, \"median\": %.1f, \"max\": %.0f, \"runs\": %u}",
			r->time_min_ns, r->time_median_ns, r->time_max_ns, r->runs);
	if (r->has_check) {
		fprintf(f, ", \"check\": \"%s\"", r->check->mismatches ? "fail" : "pass");
		if (r->check->mismatches) {
			fprintf(f, ", \"mismatch_count\": %zu, \"mismatches\": [",
				r->check->mismatches);
			for (size_t i = 0; i < r->check->line_count; i++) {
				if (i)
					fputs(", ", f);
				output_json_string(f, r->check->lines[i]);
			}
			fputc(']', f);
		}
	}
	fputs("}\n", f);
}
