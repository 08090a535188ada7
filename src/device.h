/* Device discovery: what each OpenCL device is and which one a spec names. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_DEVICE_H
#define CLWARP_DEVICE_H

#include "clwarp/clwarp.h"

#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#define CLWARP_PLATFORM_NOT_FOUND_KHR (-1001) /* cl_khr_icd: the loader found no platform */

#endif
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CLWARP_PLATFORM_NOT_FOUND_KHR (-1001) /* cl_khr_icd: the loader found no platform */

#endif

/* Fill `info` for one device; strings are malloc'd, free with device_info_clear(). */
clwarp_status device_info_query(cl_platform_id platform, cl_device_id device,
				unsigned platform_index, unsigned device_index,
				clwarp_device_info *info);
void device_info_clear(clwarp_device_info *info);

/*
 * CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE of `kernel` for a launch with
 * this local size (OpenCL 2.1 core, or cl_khr_subgroups' KHR entry point).
 * CL_INVALID_OPERATION where the device has neither.
 */
cl_int device_kernel_sub_group_size(const clwarp_device_info *info, cl_device_id device,
				    cl_kernel kernel, unsigned dims, const size_t *local,
				    size_t *size);

/*
 * CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL of `kernel`: the width its
 * intel_reqd_sub_group_size pins, 0 without one. CL_INVALID_OPERATION
 * where the device lacks cl_intel_required_subgroup_size or the query;
 * some implementations (PoCL) refuse it with CL_INVALID_VALUE.
 */
cl_int device_kernel_compile_sub_group_size(const clwarp_device_info *info, cl_device_id device,
					    cl_kernel kernel, size_t *size);

/* NVIDIA compute capability as major*10+minor, 0 when the device does not say. */
unsigned device_nv_sm(cl_device_id device);

/*
 * Pick a device: `spec` is "P:D", "cpu", "gpu", "accelerator", or a
 * case-insensitive substring of the device or platform name; NULL or ""
 * means the first GPU, else the first device.
 */
clwarp_status device_select(const char *spec, cl_platform_id *platform, cl_device_id *device,
			    unsigned *platform_index, unsigned *device_index);

#define CLWARP_PLATFORM_NOT_FOUND_KHR (-1001) /* cl_khr_icd: the loader found no platform */

/* A device by its indices, as in "P:D". */
struct device_index_pair {
	unsigned platform;
	unsigned device;
};

/*
 * Every device `item` names, in platform order: "P:D", "P:*" (every device
 * of platform P), "all", "cpu", "gpu", "accelerator", or a case-insensitive
 * substring of the device or platform name. At most `max`, else
 * CLWARP_ERROR_TOO_LARGE; none is not an error here (*count = 0).
 */
clwarp_status device_match_all(const char *item, struct device_index_pair *out, size_t max,
			       size_t *count);

#endif
