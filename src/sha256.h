/* SHA-256 (FIPS 180-4): incremental hashing for cache keys and payload checksums. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_SHA256_H
#define CLWARP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32
#define SHA256_HEX_SIZE 65 /* 64 hex digits and the terminating NUL */

struct sha256 {
	uint32_t state[8];
	uint64_t length;     /* bytes hashed so far */
	uint8_t block[64];
	size_t used;         /* bytes waiting in block */
};

void sha256_init(struct sha256 *ctx);
/* data may be NULL only when len is 0. */
void sha256_update(struct sha256 *ctx, const void *data, size_t len);
/*
 * Hash the string's length as 8 bytes little-endian, then its bytes, so
 * that consecutive fields cannot run into each other ("ab"+"c" differs from
 * "a"+"bc"). NULL hashes as the length UINT64_MAX with no bytes, distinct
 * from "".
 */
void sha256_update_str(struct sha256 *ctx, const char *s);
/* Writes the digest; ctx must be re-initialised before reuse. */
void sha256_final(struct sha256 *ctx, uint8_t digest[SHA256_DIGEST_SIZE]);
/* Lower-case hex, NUL-terminated. */
void sha256_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char hex[SHA256_HEX_SIZE]);
/* One-shot: sha256_init, sha256_update, sha256_final. */
void sha256_buffer(const void *data, size_t len, uint8_t digest[SHA256_DIGEST_SIZE]);

#endif
