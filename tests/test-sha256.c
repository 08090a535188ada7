/* Tests for the SHA-256 implementation: FIPS 180-4 vectors and field framing. */
/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check-main.h"
#include "sha256.h"

static void
hex_of(const void *data, size_t len, char hex[SHA256_HEX_SIZE])
{
	uint8_t digest[SHA256_DIGEST_SIZE];

	sha256_buffer(data, len, digest);
	sha256_hex(digest, hex);
}

START_TEST(test_empty)
{
	char hex[SHA256_HEX_SIZE];

	hex_of("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of(NULL, 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
END_TEST

START_TEST(test_abc)
{
	char hex[SHA256_HEX_SIZE];

	hex_of("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

START_TEST(test_448_bits)
{
	static const char msg[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[SHA256_HEX_SIZE];

	hex_of(msg, strlen(msg), hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(test_896_bits)
{
	static const char msg[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
				  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	char hex[SHA256_HEX_SIZE];

	hex_of(msg, strlen(msg), hex);
	ck_assert_str_eq(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}
END_TEST

START_TEST(test_million_a)
{
	/* Odd chunk sizes cross block boundaries at every possible offset. */
	static const size_t chunks[] = { 1, 3, 7, 13, 55, 56, 63, 64, 65, 127, 129, 1000, 4093 };
	char buf[4096];
	struct sha256 ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];
	size_t left = 1000000, i = 0;

	memset(buf, 'a', sizeof(buf));
	sha256_init(&ctx);
	while (left) {
		size_t n = chunks[i++ % (sizeof(chunks) / sizeof(chunks[0]))];

		if (n > left)
			n = left;
		sha256_update(&ctx, buf, n);
		left -= n;
	}
	sha256_final(&ctx, digest);
	sha256_hex(digest, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(test_padding_edges)
{
	/* Every length around the padding boundary must agree with one-shot hashing. */
	uint8_t msg[200];
	uint8_t a[SHA256_DIGEST_SIZE], b[SHA256_DIGEST_SIZE];

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 31 + 7);
	for (size_t len = 0; len <= sizeof(msg); len++) {
		struct sha256 ctx;

		sha256_buffer(msg, len, a);
		sha256_init(&ctx);
		for (size_t j = 0; j < len; j++)
			sha256_update(&ctx, msg + j, 1);
		sha256_final(&ctx, b);
		ck_assert_mem_eq(a, b, sizeof(a));
	}
}
END_TEST

static void
digest_of_fields(const char *const *fields, size_t n, uint8_t digest[SHA256_DIGEST_SIZE])
{
	struct sha256 ctx;

	sha256_init(&ctx);
	for (size_t i = 0; i < n; i++)
		sha256_update_str(&ctx, fields[i]);
	sha256_final(&ctx, digest);
}

START_TEST(test_str_framing)
{
	const char *ab_c[] = { "ab", "c" };
	const char *a_bc[] = { "a", "bc" };
	const char *abc_empty[] = { "abc", "" };
	const char *null_one[] = { NULL };
	const char *empty_one[] = { "" };
	uint8_t d1[SHA256_DIGEST_SIZE], d2[SHA256_DIGEST_SIZE], d3[SHA256_DIGEST_SIZE];

	digest_of_fields(ab_c, 2, d1);
	digest_of_fields(a_bc, 2, d2);
	digest_of_fields(abc_empty, 2, d3);
	ck_assert_mem_ne(d1, d2, sizeof(d1));
	ck_assert_mem_ne(d1, d3, sizeof(d1));
	ck_assert_mem_ne(d2, d3, sizeof(d1));

	digest_of_fields(null_one, 1, d1);
	digest_of_fields(empty_one, 1, d2);
	ck_assert_mem_ne(d1, d2, sizeof(d1));
}
END_TEST

START_TEST(test_str_encoding)
{
	/* The framing is part of the cache key format: pin its exact bytes. */
	static const uint8_t abc_framed[] = { 3, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 'c' };
	static const uint8_t null_framed[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t expect[SHA256_DIGEST_SIZE], got[SHA256_DIGEST_SIZE];
	struct sha256 ctx;

	sha256_buffer(abc_framed, sizeof(abc_framed), expect);
	sha256_init(&ctx);
	sha256_update_str(&ctx, "abc");
	sha256_final(&ctx, got);
	ck_assert_mem_eq(expect, got, sizeof(got));

	sha256_buffer(null_framed, sizeof(null_framed), expect);
	sha256_init(&ctx);
	sha256_update_str(&ctx, NULL);
	sha256_final(&ctx, got);
	ck_assert_mem_eq(expect, got, sizeof(got));
}
END_TEST

START_TEST(test_hex)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];

	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		digest[i] = (uint8_t)(i * 8 + (i & 1 ? 0xf0 : 0x0a));
	memset(hex, 'x', sizeof(hex));
	sha256_hex(digest, hex);
	ck_assert_uint_eq(strlen(hex), 64);
	ck_assert_str_eq(hex, "0af81a082a183a284a385a486a587a688a789a88aa98baa8cab8dac8ead8fae8");
}
END_TEST

static Suite *
sha256_suite(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_abc);
	tcase_add_test(tc, test_448_bits);
	tcase_add_test(tc, test_896_bits);
	tcase_add_test(tc, test_million_a);
	tcase_add_test(tc, test_padding_edges);
	tcase_add_test(tc, test_str_framing);
	tcase_add_test(tc, test_str_encoding);
	tcase_add_test(tc, test_hex);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return test_main(sha256_suite());
}
