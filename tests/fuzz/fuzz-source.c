/* Fuzz target: the #include expander and the rewrites of source_expand. */
/* SPDX-License-Identifier: MIT */
#include "fuzz.h"

#include "error.h"
#include "source.h"

/*
 * The input is split at 0x01 bytes into
 *   FLAGS MAIN \x01 A \x01 B \x01 C
 * MAIN is the program text (up to its first NUL, as a C string), A, B and C
 * (raw bytes, NULs included) become dir/a.h, dir/sub/b.h and dir/inc/c.h,
 * and the options say -I dir/inc; a part left out is a missing file. FLAGS
 * (the first byte) picks the backend's rewrite: bit 0 the local backend's
 * scratch parameter, bit 1 a sub-group width pin, bit 2 khr's and intel's
 * scratch for programs that name __syncthreads_count/_and/_or.
 *
 * The expander may inline up to MAX_INCLUDE_COUNT (10000) files: tens of
 * megabytes from a few kilobytes that include each other over and over,
 * seconds in a normal build but far longer under the fuzzer's
 * instrumentation. So that such inputs are not reported as hangs, each
 * include file keeps at most INCLUDE_MAX bytes, and only MAIN may include
 * the served header (3.7 kB each time).
 */
#define PARTS 4
#define INCLUDE_MAX 256

static const char *const include_names[PARTS - 1] = { "a.h", "sub/b.h", "inc/c.h" };

static char *dir, *options, *include_paths[PARTS - 1];

static void
setup(void)
{
	char *sub, *inc;
	size_t len;

	if (dir)
		return;
	dir = strdup(fuzz_dir());
	FUZZ_CHECK(dir);
	sub = fuzz_path(dir, "sub");
	inc = fuzz_path(dir, "inc");
	FUZZ_CHECK(mkdir(sub, 0700) == 0 && mkdir(inc, 0700) == 0);
	len = strlen(inc) + 32;
	options = malloc(len);
	FUZZ_CHECK(options);
	snprintf(options, len, "-cl-std=CL1.2 -I %s -DN=4", inc);
	for (size_t i = 0; i < PARTS - 1; i++)
		include_paths[i] = fuzz_path(dir, include_names[i]);
	free(sub);
	free(inc);
}

static bool
contains(const uint8_t *data, size_t size, const char *word)
{
	size_t n = strlen(word);

	/* The first byte first: a memcmp at every offset would cost the
	 * fuzzer a trace call each. */
	for (size_t k = 0; k + n <= size; k++) {
		if (data[k] == (uint8_t)word[0] && memcmp(data + k, word, n) == 0)
			return true;
	}
	return false;
}

/* Devices, FIFOs and /proc would make an include block or never end; a
 * kernel's own includes are the user's files, not untrusted input. */
static bool
names_special_file(const uint8_t *data, size_t size)
{
	static const char *const bad[] = { "dev/", "proc/", "sys/", "run/" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (contains(data, size, bad[i]))
			return true;
	}
	return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[PARTS];
	size_t len[PARTS], n;
	struct source_rewrite rewrite = { 0 };
	struct file_stamps stamps = { 0 };
	struct source_result result;
	clwarp_status status;
	char *text;

	setup();
	if (size == 0 || names_special_file(data, size))
		return 0;
	rewrite.add_scratch_arg = data[0] & 1;
	rewrite.scratch_for_block_sync = data[0] & 4;
	rewrite.reqd_sub_group_size = data[0] & 2 ? 32 : 0;
	rewrite.barrier_warps = data[0] & 8;
	n = fuzz_split(data + 1, size - 1, 0x01, part, len, PARTS);
	for (size_t i = 1; i < n; i++) {
		if (len[i] > INCLUDE_MAX)
			len[i] = INCLUDE_MAX;
		if (contains(part[i], len[i], "clwarp/cuda.h"))
			return 0;
	}
	for (size_t i = 1; i < PARTS; i++) {
		if (i < n)
			fuzz_write_file(include_paths[i - 1], part[i], len[i]);
		else
			unlink(include_paths[i - 1]);
	}
	text = fuzz_strndup(part[0], len[0]);

	clear_error();
	status = source_expand(text, "main.cl", dir, options, &rewrite, &stamps, &result);
	if (status == CLWARP_OK) {
		FUZZ_CHECK(result.text.data ? strlen(result.text.data) == result.text.len
					    : result.text.len == 0);
		FUZZ_CHECK(!result.text.failed);
		source_result_free(&result);
	} else {
		/* Every failure says why; memory never runs out here (ASan
		 * would stop first), so that status would be a wrong one. */
		FUZZ_CHECK(clwarp_last_error()[0] != '\0');
		FUZZ_CHECK(status != CLWARP_ERROR_OUT_OF_MEMORY);
		FUZZ_CHECK(result.text.data == NULL);
	}
	file_stamps_free(&stamps);
	free(text);
	return 0;
}
