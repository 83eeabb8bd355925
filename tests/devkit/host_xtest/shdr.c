/*
 * A signed TA image read through signed_hdr.h, as xtest 1008 reads one
 * before corrupting its fields: the structures must describe swtee's real
 * <uuid>.ta byte for byte.
 */
#include <signed_hdr.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tee_api_defines.h>
#include <utee_defines.h>

#include "host_xtest.h"

/* OP-TEE's layout, which xtest computes offsets from. */
_Static_assert(sizeof(struct shdr) == 20, "struct shdr");
_Static_assert(offsetof(struct shdr, img_size) == 8, "shdr.img_size");
_Static_assert(offsetof(struct shdr, sig_size) == 18, "shdr.sig_size");
_Static_assert(sizeof(struct shdr_bootstrap_ta) == 20, "struct shdr_bootstrap_ta");
_Static_assert(sizeof(struct shdr_encrypted_ta) == 12, "struct shdr_encrypted_ta");
_Static_assert(sizeof(struct shdr_subkey) == 36, "struct shdr_subkey");
_Static_assert(SHDR_MAGIC == 0x4f545348, "SHDR_MAGIC");
_Static_assert(SHDR_BOOTSTRAP_TA == 1 && SHDR_SUBKEY == 3, "enum shdr_img_type");

#define IMAGE_MAX (64u * 1024 * 1024)

static int fails;

static void expect(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL: shdr: %s\n", what);
		fails++;
	}
}

/* The whole of path in a new buffer (the caller frees it); NULL on error. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0;

	*len = 0;
	if (!f)
		return NULL;
	buf = malloc(IMAGE_MAX);
	if (buf) {
		n = fread(buf, 1, IMAGE_MAX, f);
		if (ferror(f) || n == IMAGE_MAX) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

/* "8-4-4-4-12" hex into the 16 bytes of the bootstrap header; 0 if valid. */
static int parse_uuid(const char *s, uint8_t out[16])
{
	size_t n = 0;

	for (; *s && n < 16; s++) {
		unsigned int byte = 0;

		if (*s == '-')
			continue;
		if (sscanf(s, "%2x", &byte) != 1)
			return -1;
		out[n++] = (uint8_t)byte;
		s++;
	}
	return n == 16 && !*s ? 0 : -1;
}

static void check_header(const uint8_t *img, size_t len, const uint8_t uuid[16])
{
	const struct shdr *shdr = (const struct shdr *)img;
	const struct shdr_bootstrap_ta *bs = NULL;
	size_t hdr = SHDR_GET_SIZE(shdr);

	expect(shdr->magic == SHDR_MAGIC, "magic");
	expect(shdr->img_type == SHDR_BOOTSTRAP_TA, "img_type is SHDR_BOOTSTRAP_TA");
	expect(shdr->algo == TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256 ||
		   shdr->algo == TEE_ALG_RSASSA_PKCS1_V1_5_SHA256,
	       "algo is an RSA SHA-256 signature");
	expect(shdr->hash_size == TEE_SHA256_HASH_SIZE, "hash_size");
	expect(hdr == sizeof(*shdr) + shdr->hash_size + shdr->sig_size, "SHDR_GET_SIZE");
	expect(SHDR_GET_HASH(shdr) == img + sizeof(*shdr), "SHDR_GET_HASH");
	expect(SHDR_GET_SIG(shdr) == img + sizeof(*shdr) + shdr->hash_size, "SHDR_GET_SIG");
	if (hdr + sizeof(*bs) + shdr->img_size != len) {
		expect(0, "header, bootstrap header and img_size add up to the file");
		return;
	}
	bs = (const struct shdr_bootstrap_ta *)(img + hdr);
	expect(!memcmp(bs->uuid, uuid, 16), "the bootstrap header's uuid");
	expect(!memcmp(img + hdr + sizeof(*bs), "\177ELF", 4), "an ELF after the headers");
}

int shdr_check(const char *path, const char *uuid_str)
{
	uint8_t uuid[16] = {0};
	size_t len = 0;
	uint8_t *img = NULL;

	fails = 0;
	if (parse_uuid(uuid_str, uuid)) {
		printf("FAIL: shdr: %s is not a UUID\n", uuid_str);
		return 1;
	}
	img = slurp(path, &len);
	if (!img || len < sizeof(struct shdr)) {
		printf("FAIL: shdr: %s: cannot read a header\n", path);
		free(img);
		return 1;
	}
	check_header(img, len, uuid);
	free(img);
	return fails;
}
