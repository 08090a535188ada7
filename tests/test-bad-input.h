/* What the files of test-bad-input share: what every case has, the log
 * capture, and test-bad-input-env.c's cases (rows of the table in
 * test-bad-input.c). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_BAD_INPUT_H
#define CLWARP_TEST_BAD_INPUT_H

#include "testutil.h"

/* What every case shares: an engine, a built program and one of its
 * kernels, a 64-byte buffer, a folder of files, the last message. */
struct bad_input_fixture {
	clwarp_engine *e;
	clwarp_program *p;
	clwarp_kernel *k;
	cl_mem buf;
	char *dir;
	char msg[8192];
	unsigned warnings;
	char warning[1024];
};

extern struct bad_input_fixture F;

/* The log function of the cases' engines: counts warnings, keeps the last (test-bad-input.c). */
void capture(clwarp_log_level level, const char *message, void *user_data);

/* The environment's cases (test-bad-input-env.c). */
clwarp_status c_warp_size_negative(void);
clwarp_status c_warp_size_blank(void);
clwarp_status c_warp_size_plus(void);
clwarp_status c_warp_size_huge(void);
clwarp_status c_warp_size_junk(void);
clwarp_status c_warp_size_wide(void);
clwarp_status c_warp_size_zero(void);
clwarp_status c_warp_size_empty(void);
clwarp_status c_cache_max_text(void);
clwarp_status c_cache_max_negative(void);
clwarp_status c_cache_max_huge(void);
clwarp_status c_cache_max_suffix(void);
clwarp_status c_cache_max_zero(void);
clwarp_status c_cache_word(void);
clwarp_status c_cache_number(void);
clwarp_status c_cache_empty(void);
clwarp_status c_log_level_number(void);
clwarp_status c_log_level_junk(void);
clwarp_status c_backend_case(void);
clwarp_status c_native_width_two(void);
clwarp_status c_device_none(void);
clwarp_status c_device_index_junk(void);
clwarp_status c_cache_dir_file(void);
clwarp_status c_cache_group_env(void);
clwarp_status c_cache_group_option(void);
clwarp_status c_tuning_text(void);
clwarp_status c_tuning_negative(void);
clwarp_status c_tuning_huge(void);
clwarp_status c_tuning_junk(void);
clwarp_status c_tuning_key(void);

#endif
