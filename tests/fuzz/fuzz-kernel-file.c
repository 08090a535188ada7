/* Fuzz target: clwarp-run's //! run and //! expect lines of a kernel file. */
/* SPDX-License-Identifier: MIT */
#include "fuzz.h"

#include "kernel-file.h"

/* The words, each in '...' (a ' as '\''), split again give the same words. */
static void
check_requote(int argc, char **argv)
{
	size_t len = 1;
	char *text, *q;
	int argc2 = 0;
	char **argv2 = NULL;
	char err[128];

	for (int i = 0; i < argc; i++)
		len += 4 * strlen(argv[i]) + 3;
	q = text = malloc(len);
	FUZZ_CHECK(text);
	for (int i = 0; i < argc; i++) {
		*q++ = '\'';
		for (const char *p = argv[i]; *p; p++) {
			if (*p == '\'') {
				memcpy(q, "'\\''", 4);
				q += 4;
			} else {
				*q++ = *p;
			}
		}
		*q++ = '\'';
		*q++ = ' ';
	}
	*q = '\0';
	FUZZ_CHECK(kernel_file_split(text, &argc2, &argv2, err, sizeof(err)));
	FUZZ_CHECK(argc2 == argc);
	for (int i = 0; i < argc2; i++) {
		FUZZ_CHECK(strcmp(argv2[i], argv[i]) == 0);
		free(argv2[i]);
	}
	free(argv2);
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "sub/fuzz.cl", "fuzz.cl", "/fuzz.cl" };
	char *text = fuzz_strndup(data, size);
	char *copy = fuzz_strndup(data, size);
	struct kernel_file kf;
	char err[512] = "";
	int argc = 0;
	char **argv = NULL;

	/* The path only names the file and its folder in kf; parsing cuts
	 * the lines of text. */
	if (kernel_file_parse(paths[size % 3], text, &kf, err, sizeof(err)) != 0) {
		FUZZ_CHECK(err[0] != '\0');
	} else {
		for (size_t i = 0; i < kf.run_count; i++) {
			FUZZ_CHECK(kf.runs[i].argc >= 1 && kf.runs[i].argv[kf.runs[i].argc] == NULL);
			FUZZ_CHECK(strcmp(kf.runs[i].argv[0], "clwarp-run") == 0);
		}
		for (size_t i = 0; i < kf.expect_count; i++)
			FUZZ_CHECK(kernel_file_expect(&kf, kf.expects[i].k, kf.expects[i].width) ==
				   &kf.expects[i]);
	}
	kernel_file_clear(&kf);

	/* The shell-like word splitter on the whole input. */
	err[0] = '\0';
	if (!kernel_file_split(copy, &argc, &argv, err, sizeof(err)))
		FUZZ_CHECK(err[0] != '\0');
	FUZZ_CHECK(argc == 0 || argv[argc] == NULL);
	check_requote(argc, argv);
	for (int i = 0; i < argc; i++) {
		FUZZ_CHECK(strlen(argv[i]) <= size);
		free(argv[i]);
	}
	free(argv);
	free(text);
	free(copy);
	return 0;
}
