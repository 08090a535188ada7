/* clwarp-run --list-devices (list-devices.h). */
/* SPDX-License-Identifier: MIT */
#include "list-devices.h"

#include "output.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* What --list-devices says of one device: its warp backend, or why it has none. */
struct device_row {
	char spec[64];           /* "P:D", for -d */
	char cver[64];           /* its OpenCL C version number */
	clwarp_status status;
	clwarp_backend backend;
	unsigned warp;
	int native;
	char reason[512];        /* why there is no backend */
};

/* Row @p i of the listing, as text or JSON. */
static void
device_row_print(FILE *out, const struct options *o, const clwarp_device_info *d,
		 const struct device_row *r, size_t i)
{
	if (o->json) {
		fprintf(out, "%s{\"index\": \"%s\", \"platform_index\": %u, \"device_index\": %u, \"name\": ",
			i ? ", " : "", r->spec, d->platform_index, d->device_index);
		output_json_string(out, d->name);
		fputs(", \"platform\": ", out);
		output_json_string(out, d->platform_name);
		fprintf(out, ", \"type\": \"%s\", \"opencl_c\": ", device_type_name(d->type));
		output_json_string(out, r->cver);
		if (r->status == CLWARP_OK) {
			fprintf(out, ", \"backend\": \"%s\", \"warp_size\": %u, \"native_width\": %s}",
				clwarp_backend_name(r->backend), r->warp, r->native ? "true" : "false");
		} else {
			fputs(", \"backend\": null, \"warp_size\": null, \"native_width\": null, \"error\": ", out);
			output_json_string(out, r->reason);
			fputc('}', out);
		}
	} else {
		fprintf(out, "%s  %s  (%s, OpenCL C %s)  ", r->spec, d->name, d->platform_name, r->cver);
		if (r->status == CLWARP_OK)
			fprintf(out, "backend %s, warp size %u%s\n", clwarp_backend_name(r->backend),
				r->warp, r->native ? NATIVE_WIDTH_NOTE : "");
		else
			fprintf(out, "backend unavailable: %s\n", r->reason);
	}
}

int
list_devices(const struct options *o)
{
	clwarp_device_info *list = NULL;
	size_t count = 0;
	clwarp_status status = clwarp_device_list_new(&list, &count);
	FILE *out;
	char *text = NULL;
	size_t text_len = 0;

	if (status != CLWARP_OK)
		return report_library_error("listing devices", status);
	out = open_memstream(&text, &text_len);
	if (!out) {
		clwarp_device_list_free(list, count);
		report_error("out of memory");
		return EXIT_RUNTIME;
	}
	if (o->json)
		fputc('[', out);
	for (size_t i = 0; i < count; i++) {
		const clwarp_device_info *d = &list[i];
		struct device_row r = { .backend = CLWARP_BACKEND_AUTO };
		clwarp_engine_options eo;
		clwarp_engine *engine = NULL;

		snprintf(r.spec, sizeof(r.spec), "%u:%u", d->platform_index, d->device_index);
		opencl_c_number(d->opencl_c_version, r.cver, sizeof(r.cver));
		options_engine(o, &eo, r.spec);
		status = clwarp_engine_new(&eo, &engine);
		if (report_is_environment_error(status)) {
			fclose(out);
			free(text);
			clwarp_device_list_free(list, count);
			return report_library_error("listing devices", status);
		}
		if (status == CLWARP_OK)
			status = clwarp_engine_backend(engine, &r.backend, &r.warp);
		if (status == CLWARP_OK)
			status = clwarp_engine_backend_native(engine, &r.native);
		if (status != CLWARP_OK)
			snprintf(r.reason, sizeof(r.reason), "%s",
				 *clwarp_last_error() ? clwarp_last_error() : clwarp_status_name(status));
		clwarp_engine_free(engine);
		r.status = status;
		device_row_print(out, o, d, &r, i);
	}
	if (o->json)
		fputs("]\n", out);
	fclose(out);
	clwarp_device_list_free(list, count);
	if (count == 0 && !o->json) {
		free(text);
		report_error("no OpenCL device found");
		return EXIT_RUNTIME;
	}
	fwrite(text, 1, text_len, stdout);
	free(text);
	return 0;
}
