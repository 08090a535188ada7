/* Fuzz target: the disk cache's entry reader and validator. */
/* SPDX-License-Identifier: MIT */
#include "fuzz.h"

#include "diskcache.h"
#include "sha256.h"

/*
 * The input's first byte says what to repair in the rest before it is
 * written as the file of one entry, so that besides damaged files the
 * fuzzer also reaches valid ones (a SHA-256 it would never guess):
 *   bit 0  the key field (offset 16) set to the entry's key
 *   bit 1  the payload size field (offset 48) set to the bytes after the header
 *   bit 2  the checksum field (offset 56) set to the payload's SHA-256
 * Whatever is written, diskcache_load must return exactly the payload of a
 * valid entry and reject anything else, deleting the file.
 */
enum { FIX_KEY = 1, FIX_SIZE = 2, FIX_SUM = 4 };

static const char kind[] = "bin";

static struct diskcache cache;
static uint8_t key[32];
static char *entry_path;

static uint64_t
get_u64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void
put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void
setup(void)
{
	char hex[SHA256_HEX_SIZE], name[128];

	if (entry_path)
		return;
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0xa5 ^ (i * 7));
	FUZZ_CHECK(diskcache_open(&cache, fuzz_dir(), NULL, 0, UINT64_MAX, NULL) == CLWARP_OK);
	FUZZ_CHECK(cache.dir);
	sha256_hex(key, hex);
	snprintf(name, sizeof(name), "%s.%s", hex, kind);
	entry_path = fuzz_path(cache.dir, name);
}

/* The format of src/diskcache.h, checked independently of the reader. */
static bool
entry_valid(const uint8_t *file, size_t size)
{
	static const uint8_t magic[8] = { 'C', 'L', 'W', 'A', 'R', 'P', 'C', 0x01 };
	static const uint8_t version_reserved[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };
	uint8_t digest[SHA256_DIGEST_SIZE];

	if (size < DISKCACHE_HEADER_SIZE || memcmp(file, magic, 8) != 0 ||
	    memcmp(file + 8, version_reserved, 8) != 0 || memcmp(file + 16, key, 32) != 0 ||
	    get_u64(file + 48) != size - DISKCACHE_HEADER_SIZE)
		return false;
	sha256_buffer(file + DISKCACHE_HEADER_SIZE, size - DISKCACHE_HEADER_SIZE, digest);
	return memcmp(digest, file + 56, sizeof(digest)) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *file;
	size_t file_size;
	void *payload = (void *)&payload;
	size_t got = 1;
	struct stat st;
	int hit;

	setup();
	if (size == 0)
		return 0;
	file_size = size - 1;
	file = malloc(file_size ? file_size : 1);
	FUZZ_CHECK(file);
	memcpy(file, data + 1, file_size);
	if (file_size >= DISKCACHE_HEADER_SIZE) {
		if (data[0] & FIX_KEY)
			memcpy(file + 16, key, 32);
		if (data[0] & FIX_SIZE)
			put_u64(file + 48, file_size - DISKCACHE_HEADER_SIZE);
		if (data[0] & FIX_SUM)
			sha256_buffer(file + DISKCACHE_HEADER_SIZE, file_size - DISKCACHE_HEADER_SIZE,
				      file + 56);
	}
	fuzz_write_file(entry_path, file, file_size);

	hit = diskcache_load(&cache, key, kind, &payload, &got);
	if (entry_valid(file, file_size)) {
		FUZZ_CHECK(hit == 1 && payload);
		FUZZ_CHECK(got == file_size - DISKCACHE_HEADER_SIZE);
		FUZZ_CHECK(memcmp(payload, file + DISKCACHE_HEADER_SIZE, got) == 0);
		FUZZ_CHECK(stat(entry_path, &st) == 0);
	} else {
		FUZZ_CHECK(hit == 0 && payload == NULL && got == 0);
		/* A damaged entry is deleted, not read again next time. */
		FUZZ_CHECK(stat(entry_path, &st) != 0);
	}
	free(payload);
	unlink(entry_path);
	free(file);
	return 0;
}
