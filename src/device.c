/* Device discovery: properties of every device, and picking one by spec. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "device.h"

#include <ctype.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>

#include "error.h"
#include "util.h"

enum prop_kind { PROP_STRING, PROP_SIZE, PROP_ULONG, PROP_UINT, PROP_TYPE };

/* One row per device property: the same table fills every clwarp_device_info. */
struct device_prop {
	cl_device_info param;
	enum prop_kind kind;
	size_t offset;
	bool optional; /* an extension query the device may reject */
};

#define FIELD(f) offsetof(clwarp_device_info, f)

static const struct device_prop device_props[] = {
	{ CL_DEVICE_NAME, PROP_STRING, FIELD(name), false },
	{ CL_DEVICE_VENDOR, PROP_STRING, FIELD(vendor), false },
	{ CL_DRIVER_VERSION, PROP_STRING, FIELD(driver_version), false },
	{ CL_DEVICE_VERSION, PROP_STRING, FIELD(device_version), false },
	{ CL_DEVICE_OPENCL_C_VERSION, PROP_STRING, FIELD(opencl_c_version), false },
	{ CL_DEVICE_EXTENSIONS, PROP_STRING, FIELD(extensions), false },
	{ CL_DEVICE_TYPE, PROP_TYPE, FIELD(type), false },
	{ CL_DEVICE_MAX_WORK_GROUP_SIZE, PROP_SIZE, FIELD(max_work_group_size), false },
	{ CL_DEVICE_LOCAL_MEM_SIZE, PROP_ULONG, FIELD(local_mem_size), false },
	{ CL_DEVICE_GLOBAL_MEM_SIZE, PROP_ULONG, FIELD(global_mem_size), false },
	{ CL_DEVICE_MAX_MEM_ALLOC_SIZE, PROP_ULONG, FIELD(max_alloc_size), false },
	{ CL_DEVICE_WARP_SIZE_NV, PROP_UINT, FIELD(nv_warp_size), true },
};

static char *
query_platform_string(cl_platform_id platform, cl_platform_info param)
{
	size_t size = 0;
	char *s;

	if (clGetPlatformInfo(platform, param, 0, NULL, &size) != CL_SUCCESS)
		return xstrdup("");
	s = calloc(1, size + 1);
	if (s && clGetPlatformInfo(platform, param, size, s, NULL) != CL_SUCCESS)
		s[0] = '\0';
	return s;
}

static clwarp_status
query_prop(cl_device_id device, const struct device_prop *prop, clwarp_device_info *info)
{
	char *field = (char *)info + prop->offset;
	size_t size = 0;
	cl_int err;

	switch (prop->kind) {
	case PROP_STRING: {
		char *s;

		err = clGetDeviceInfo(device, prop->param, 0, NULL, &size);
		if (err != CL_SUCCESS)
			return set_cl_error(err, "clGetDeviceInfo");
		s = calloc(1, size + 1);
		if (!s)
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		err = clGetDeviceInfo(device, prop->param, size, s, NULL);
		*(const char **)(void *)field = s;
		if (err != CL_SUCCESS)
			return set_cl_error(err, "clGetDeviceInfo");
		return CLWARP_OK;
	}
	case PROP_SIZE:
		size = sizeof(size_t);
		break;
	case PROP_ULONG:
		size = sizeof(cl_ulong);
		break;
	case PROP_UINT:
		size = sizeof(cl_uint);
		break;
	case PROP_TYPE:
		size = sizeof(cl_device_type);
		break;
	}
	err = clGetDeviceInfo(device, prop->param, size, field, NULL);
	if (err != CL_SUCCESS && !prop->optional)
		return set_cl_error(err, "clGetDeviceInfo");
	return CLWARP_OK;
}

#ifndef CL_DEVICE_OPENCL_C_FEATURES
#define CL_DEVICE_OPENCL_C_FEATURES 0x106F
#endif

/* OpenCL 3.0: is `feature` among the device's CL_DEVICE_OPENCL_C_FEATURES? */
static bool
has_c_feature(cl_device_id device, const char *feature)
{
	/* cl_name_version: a cl_version (cl_uint) and a 64-byte name. */
	struct name_version { cl_uint version; char name[64]; } *list;
	size_t size = 0;
	bool found = false;

	if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size) != CL_SUCCESS ||
	    size < sizeof(*list))
		return false;
	list = calloc(1, size);
	if (!list)
		return false;
	if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, list, NULL) == CL_SUCCESS) {
		for (size_t i = 0; i < size / sizeof(*list) && !found; i++)
			found = strncmp(list[i].name, feature, sizeof(list[i].name)) == 0;
	}
	free(list);
	return found;
}

clwarp_status
device_info_query(cl_platform_id platform, cl_device_id device, unsigned platform_index,
		  unsigned device_index, clwarp_device_info *info)
{
	clwarp_status status;

	memset(info, 0, sizeof(*info));
	info->platform_index = platform_index;
	info->device_index = device_index;
	info->platform_name = query_platform_string(platform, CL_PLATFORM_NAME);
	info->platform_version = query_platform_string(platform, CL_PLATFORM_VERSION);
	if (!info->platform_name || !info->platform_version) {
		device_info_clear(info);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	for (size_t i = 0; i < ARRAY_LENGTH(device_props); i++) {
		status = query_prop(device, &device_props[i], info);
		if (status != CLWARP_OK) {
			device_info_clear(info);
			return status;
		}
	}
	/* Sub-groups are core in OpenCL 2.1 and 2.2, optional in 3.0 (the
	 * __opencl_c_subgroups feature), an extension before. */
	info->has_subgroups = word_in_list(info->extensions, "cl_khr_subgroups") ||
			      (strncmp(info->device_version, "OpenCL 3", 8) == 0 &&
			       has_c_feature(device, "__opencl_c_subgroups")) ||
			      strncmp(info->device_version, "OpenCL 2.1", 10) == 0 ||
			      strncmp(info->device_version, "OpenCL 2.2", 10) == 0;
	info->has_fp64 = word_in_list(info->extensions, "cl_khr_fp64");
	return CLWARP_OK;
}

#ifndef CL_VERSION_2_1
/* Core since OpenCL 2.1; the ICD loader exports it, the 1.2 headers hide it. */
extern CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(
	cl_kernel kernel, cl_device_id device, cl_uint param_name, size_t input_value_size,
	const void *input_value, size_t param_value_size, void *param_value,
	size_t *param_value_size_ret);
#endif
#define CLWARP_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE 0x2033
/* cl_intel_required_subgroup_size: the kernel's intel_reqd_sub_group_size, 0 without one */
#define CLWARP_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A

typedef cl_int (CL_API_CALL *sub_group_info_fn)(cl_kernel, cl_device_id, cl_uint, size_t,
						 const void *, size_t, void *, size_t *);

/* clGetKernelSubGroupInfo where the device has it: OpenCL 2.1 core, or
 * cl_khr_subgroups' KHR entry point; NULL otherwise. */
static sub_group_info_fn
sub_group_info_entry(const clwarp_device_info *info, cl_device_id device)
{
	sub_group_info_fn fn = NULL;

	if (strncmp(info->device_version, "OpenCL 1", 8) != 0 &&
	    strncmp(info->device_version, "OpenCL 2.0", 10) != 0) {
		fn = clGetKernelSubGroupInfo;
	} else if (word_in_list(info->extensions, "cl_khr_subgroups")) {
		cl_platform_id platform = NULL;

		if (clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(platform), &platform, NULL) ==
		    CL_SUCCESS)
			*(void **)(&fn) = clGetExtensionFunctionAddressForPlatform(
				platform, "clGetKernelSubGroupInfoKHR");
	}
	return fn;
}

cl_int
device_kernel_sub_group_size(const clwarp_device_info *info, cl_device_id device, cl_kernel kernel,
			     unsigned dims, const size_t *local, size_t *size)
{
	size_t in[3] = { 1, 1, 1 };
	sub_group_info_fn fn = sub_group_info_entry(info, device);

	*size = 0;
	for (unsigned d = 0; d < dims && d < 3; d++)
		in[d] = local[d];
	if (!fn)
		return CL_INVALID_OPERATION;
	return fn(kernel, device, CLWARP_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t) * dims,
		  in, sizeof(*size), size, NULL);
}

cl_int
device_kernel_compile_sub_group_size(const clwarp_device_info *info, cl_device_id device,
				     cl_kernel kernel, size_t *size)
{
	sub_group_info_fn fn = sub_group_info_entry(info, device);

	*size = 0;
	if (!fn || !word_in_list(info->extensions, "cl_intel_required_subgroup_size"))
		return CL_INVALID_OPERATION;
	return fn(kernel, device, CLWARP_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL, sizeof(*size),
		  size, NULL);
}

void
device_info_clear(clwarp_device_info *info)
{
	free((char *)info->platform_name);
	free((char *)info->platform_version);
	for (size_t i = 0; i < ARRAY_LENGTH(device_props); i++) {
		if (device_props[i].kind == PROP_STRING)
			free(*(char **)(void *)((char *)info + device_props[i].offset));
	}
	memset(info, 0, sizeof(*info));
}

unsigned
device_nv_sm(cl_device_id device)
{
	cl_uint major = 0, minor = 0;

	if (clGetDeviceInfo(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof(major), &major,
			    NULL) != CL_SUCCESS ||
	    clGetDeviceInfo(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof(minor), &minor,
			    NULL) != CL_SUCCESS)
		return 0;
	return major * 10 + minor;
}

/* Every device of every platform, in platform order; both arrays malloc'd. */
struct device_enum {
	cl_platform_id *platforms;
	cl_uint platform_count;
	cl_device_id **devices;
	cl_uint *device_counts;
};

static void
device_enum_free(struct device_enum *de)
{
	for (cl_uint p = 0; de->devices && p < de->platform_count; p++)
		free(de->devices[p]);
	free(de->devices);
	free(de->device_counts);
	free(de->platforms);
	memset(de, 0, sizeof(*de));
}

/* Serializes the enumeration: the ICD loader and PoCL set their platforms
 * up on the process's first clGetPlatformIDs, and two threads doing that
 * at once found no device or crashed (ocl-icd 2.3.1, PoCL 3.1). */
static pthread_mutex_t enum_lock = PTHREAD_MUTEX_INITIALIZER;

static clwarp_status device_enum_locked(struct device_enum *de);

static clwarp_status
device_enum_all(struct device_enum *de)
{
	clwarp_status status;

	pthread_mutex_lock(&enum_lock);
	status = device_enum_locked(de);
	pthread_mutex_unlock(&enum_lock);
	return status;
}

static clwarp_status
device_enum_locked(struct device_enum *de)
{
	cl_int err;

	memset(de, 0, sizeof(*de));
	err = clGetPlatformIDs(0, NULL, &de->platform_count);
	if (err == CLWARP_PLATFORM_NOT_FOUND_KHR || de->platform_count == 0) {
		de->platform_count = 0;
		return CLWARP_OK;
	}
	if (err != CL_SUCCESS)
		return set_cl_error(err, "clGetPlatformIDs");
	de->platforms = calloc(de->platform_count, sizeof(*de->platforms));
	de->devices = calloc(de->platform_count, sizeof(*de->devices));
	de->device_counts = calloc(de->platform_count, sizeof(*de->device_counts));
	if (!de->platforms || !de->devices || !de->device_counts) {
		device_enum_free(de);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	err = clGetPlatformIDs(de->platform_count, de->platforms, NULL);
	if (err != CL_SUCCESS) {
		device_enum_free(de);
		return set_cl_error(err, "clGetPlatformIDs");
	}
	for (cl_uint p = 0; p < de->platform_count; p++) {
		cl_uint n = 0;

		/* A platform without devices is skipped, not an error. */
		if (clGetDeviceIDs(de->platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS ||
		    n == 0)
			continue;
		de->devices[p] = calloc(n, sizeof(cl_device_id));
		if (!de->devices[p]) {
			device_enum_free(de);
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		}
		if (clGetDeviceIDs(de->platforms[p], CL_DEVICE_TYPE_ALL, n, de->devices[p], NULL) ==
		    CL_SUCCESS)
			de->device_counts[p] = n;
	}
	return CLWARP_OK;
}

CLWARP_EXPORT clwarp_status
clwarp_device_list_new(clwarp_device_info **list, size_t *count)
{
	struct device_enum de;
	clwarp_device_info *out = NULL;
	size_t total = 0, n = 0;
	clwarp_status status;

	clear_error();
	if (!list || !count)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "clwarp_device_list_new: NULL output");
	*list = NULL;
	*count = 0;
	status = device_enum_all(&de);
	if (status != CLWARP_OK)
		return status;
	for (cl_uint p = 0; p < de.platform_count; p++)
		total += de.device_counts[p];
	if (total) {
		out = calloc(total, sizeof(*out));
		if (!out) {
			device_enum_free(&de);
			return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
		}
	}
	for (cl_uint p = 0; p < de.platform_count; p++) {
		for (cl_uint d = 0; d < de.device_counts[p]; d++) {
			status = device_info_query(de.platforms[p], de.devices[p][d], p, d, &out[n]);
			if (status != CLWARP_OK) {
				clwarp_device_list_free(out, n);
				device_enum_free(&de);
				return status;
			}
			n++;
		}
	}
	device_enum_free(&de);
	*list = out;
	*count = n;
	return CLWARP_OK;
}

CLWARP_EXPORT void
clwarp_device_list_free(clwarp_device_info *list, size_t count)
{
	for (size_t i = 0; list && i < count; i++)
		device_info_clear(&list[i]);
	free(list);
}

static bool
parse_index_pair(const char *spec, unsigned *p, unsigned *d)
{
	char *end;
	unsigned long a, b;

	if (!isdigit((unsigned char)spec[0]))
		return false;
	a = strtoul(spec, &end, 10);
	if (*end != ':' || !isdigit((unsigned char)end[1]))
		return false;
	b = strtoul(end + 1, &end, 10);
	if (*end != '\0' || a > 1000 || b > 1000)
		return false;
	*p = (unsigned)a;
	*d = (unsigned)b;
	return true;
}

static bool
device_matches(cl_platform_id platform, cl_device_id device, const char *spec)
{
	cl_device_type type = 0;
	char name[512] = "", pname[512] = "";

	clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
	if (streq(spec, "gpu"))
		return type & CL_DEVICE_TYPE_GPU;
	if (streq(spec, "cpu"))
		return type & CL_DEVICE_TYPE_CPU;
	if (streq(spec, "accelerator"))
		return type & CL_DEVICE_TYPE_ACCELERATOR;
	clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name) - 1, name, NULL);
	clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(pname) - 1, pname, NULL);
	return contains_icase(name, spec) || contains_icase(pname, spec);
}

clwarp_status
device_select(const char *spec, cl_platform_id *platform, cl_device_id *device,
	      unsigned *platform_index, unsigned *device_index)
{
	struct device_enum de;
	clwarp_status status;
	unsigned want_p, want_d;
	bool by_index, found = false;
	const char *match = spec && *spec ? spec : "gpu";
	size_t total = 0;

	status = device_enum_all(&de);
	if (status != CLWARP_OK)
		return status;
	for (cl_uint p = 0; p < de.platform_count; p++)
		total += de.device_counts[p];
	if (total == 0) {
		device_enum_free(&de);
		return set_error(CLWARP_ERROR_NO_DEVICE,
				 "no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)");
	}
	by_index = spec && parse_index_pair(spec, &want_p, &want_d);
	for (cl_uint p = 0; p < de.platform_count && !found; p++) {
		for (cl_uint d = 0; d < de.device_counts[p] && !found; d++) {
			if (by_index ? (p == want_p && d == want_d)
				     : device_matches(de.platforms[p], de.devices[p][d], match)) {
				*platform = de.platforms[p];
				*device = de.devices[p][d];
				*platform_index = p;
				*device_index = d;
				found = true;
			}
		}
	}
	/* The default falls back from "first GPU" to "first device". */
	if (!found && !(spec && *spec)) {
		for (cl_uint p = 0; p < de.platform_count && !found; p++) {
			if (de.device_counts[p]) {
				*platform = de.platforms[p];
				*device = de.devices[p][0];
				*platform_index = p;
				*device_index = 0;
				found = true;
			}
		}
	}
	device_enum_free(&de);
	if (!found)
		return set_error(CLWARP_ERROR_DEVICE_NOT_FOUND,
				 "no OpenCL device matches \"%s\" (use \"P:D\", \"cpu\", \"gpu\" or a name substring; "
				 "clwarp-run --list-devices lists them)",
				 spec);
	return CLWARP_OK;
}

/* "P:*": every device of platform P. */
static bool
parse_platform_all(const char *spec, unsigned *p)
{
	char *end;
	unsigned long a;

	if (!isdigit((unsigned char)spec[0]))
		return false;
	a = strtoul(spec, &end, 10);
	if (!streq(end, ":*") || a > 1000)
		return false;
	*p = (unsigned)a;
	return true;
}

clwarp_status
device_match_all(const char *item, struct device_index_pair *out, size_t max, size_t *count)
{
	struct device_enum de;
	clwarp_status status;
	unsigned want_p = 0, want_d = 0;
	bool one = parse_index_pair(item, &want_p, &want_d);
	bool platform_all = !one && parse_platform_all(item, &want_p);
	bool all = streq(item, "all");

	*count = 0;
	status = device_enum_all(&de);
	if (status != CLWARP_OK)
		return status;
	for (cl_uint p = 0; p < de.platform_count; p++) {
		for (cl_uint d = 0; d < de.device_counts[p]; d++) {
			bool match = one ? p == want_p && d == want_d :
				     platform_all ? p == want_p :
				     all || device_matches(de.platforms[p], de.devices[p][d], item);

			if (!match)
				continue;
			if (*count == max) {
				device_enum_free(&de);
				return set_error(CLWARP_ERROR_TOO_LARGE,
						 "\"%s\" names more than %zu devices", item, max);
			}
			out[*count].platform = p;
			out[*count].device = d;
			(*count)++;
		}
	}
	device_enum_free(&de);
	return CLWARP_OK;
}
