/*
 * regression 1008: the core refuses TA images that are unsigned, tampered,
 * truncated or signed for another UUID. The case writes damaged copies of
 * the basic TA into the run's own TA directory (SWTEE_RUN_TA_DIR, set by
 * `swtee run`), which the supplicant searches first.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_basic.h"
#include "xtest_helpers.h"

#define BASIC_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01"
#define OTHER_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6eff"

static const TEEC_UUID basic_uuid = TA_BASIC_UUID;
static const TEEC_UUID other_uuid = {
    0x5a1f0b7e, 0x3c2d, 0x4e6f, {0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0xff}};

/* The installed basic TA: beside xtest at ../lib/swtee/ta. */
static uint8_t *basic_image(size_t *len)
{
	return xtest_installed_ta(BASIC_NAME, len);
}

/* Writes img as name.ta in dir and expects the open of uuid to be refused. */
static void expect_refused(ADBG_Case_t *c, const char *dir, const char *name, const TEEC_UUID *uuid,
			   const uint8_t *img, size_t len, const char *what)
{
	char path[PATH_MAX];
	TEEC_Session s = {0};
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	Do_ADBG_BeginSubCase(c, "%s", what);
	snprintf(path, sizeof(path), "%s/%s.ta", dir, name);
	if (ADBG_EXPECT_TRUE(c, xtest_write_file(path, img, len))) {
		res = xtest_teec_open_session(&s, uuid, NULL, &orig);
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SECURITY, res);
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
		if (!res)
			TEEC_CloseSession(&s);
		unlink(path);
	}
	Do_ADBG_EndSubCase(c, "%s", what);
}

static void xtest_tee_test_1008(ADBG_Case_t *c)
{
	const char *dir = getenv("SWTEE_RUN_TA_DIR");
	uint8_t *img = NULL;
	uint8_t *bad = NULL;
	size_t len = 0;
	size_t sig_size = 0;
	size_t elf_off = 0;
	TEEC_Session s = {0};
	uint32_t orig = 0;
	struct {
		const char *what;
		size_t off;
	} flips[7];

	if (!dir) {
		Do_ADBG_Skip(c, "needs SWTEE_RUN_TA_DIR (run under swtee run)");
		return;
	}
	img = basic_image(&len);
	if (!ADBG_EXPECT_NOT_NULL(c, img) || !ADBG_EXPECT_COMPARE_UNSIGNED(c, len, >, 200))
		goto out;
	sig_size = (size_t)img[18] | (size_t)img[19] << 8;
	elf_off = 20 + 32 + sig_size + 20;
	if (!ADBG_EXPECT_COMPARE_UNSIGNED(c, elf_off, <, len))
		goto out;
	bad = malloc(len + 1);
	if (!ADBG_EXPECT_NOT_NULL(c, bad))
		goto out;

	flips[0].what = "Flipped bit in the header magic";
	flips[0].off = 1;
	flips[1].what = "Flipped bit in the image size";
	flips[1].off = 8;
	flips[2].what = "Flipped bit in the stored hash";
	flips[2].off = 20 + 7;
	flips[3].what = "Flipped bit in the signature";
	flips[3].off = 20 + 32 + sig_size / 2;
	flips[4].what = "Flipped bit in the signed UUID";
	flips[4].off = 20 + 32 + sig_size + 3;
	flips[5].what = "Flipped bit in the ELF code";
	flips[5].off = elf_off + (len - elf_off) / 2;
	flips[6].what = "Flipped bit in the last byte";
	flips[6].off = len - 1;
	for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
		memcpy(bad, img, len);
		bad[flips[i].off] ^= 0x10;
		expect_refused(c, dir, BASIC_NAME, &basic_uuid, bad, len, flips[i].what);
	}
	expect_refused(c, dir, BASIC_NAME, &basic_uuid, img, len / 2, "Truncated image");
	expect_refused(c, dir, BASIC_NAME, &basic_uuid, img, elf_off - 1, "Header only");
	memcpy(bad, img, len);
	bad[len] = 0;
	expect_refused(c, dir, BASIC_NAME, &basic_uuid, bad, len + 1, "One trailing byte");
	expect_refused(c, dir, BASIC_NAME, &basic_uuid, img + elf_off, len - elf_off,
		       "Unsigned ELF");
	memset(bad, 0xa5, len);
	expect_refused(c, dir, BASIC_NAME, &basic_uuid, bad, 1000, "Garbage");
	expect_refused(c, dir, BASIC_NAME, &basic_uuid, bad, 0, "Empty file");
	expect_refused(c, dir, OTHER_NAME, &other_uuid, img, len,
		       "A valid image under another UUID's name");

	Do_ADBG_BeginSubCase(c, "The genuine image still loads");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig)))
		TEEC_CloseSession(&s);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "An image loaded once, then altered in place, is refused");
	{
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/" BASIC_NAME ".ta", dir);
		if (ADBG_EXPECT_TRUE(c, xtest_write_file(path, img, len)) &&
		    ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig))) {
			TEEC_CloseSession(&s);
			/* Same file, same inode, same size: only the bytes change. */
			memcpy(bad, img, len);
			bad[elf_off + 100] ^= 0x01;
			if (ADBG_EXPECT_TRUE(c, xtest_write_file(path, bad, len)))
				ADBG_EXPECT_TEEC_RESULT(
				    c, TEEC_ERROR_SECURITY,
				    xtest_teec_open_session(&s, &basic_uuid, NULL, &orig));
		}
		unlink(path);
	}
	Do_ADBG_EndSubCase(c, NULL);

	/*
	 * A FIFO named like a TA would block whoever opens it: it is skipped
	 * (the installed image loads) and, for a TA with no image, the open
	 * fails at once; the TEE answers throughout.
	 */
	Do_ADBG_BeginSubCase(c, "A FIFO named like a TA is skipped, never waited on");
	{
		char path[PATH_MAX];
		char other[PATH_MAX];
		struct timespec t0;
		struct timespec t1;

		snprintf(path, sizeof(path), "%s/" BASIC_NAME ".ta", dir);
		snprintf(other, sizeof(other), "%s/" OTHER_NAME ".ta", dir);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (ADBG_EXPECT(c, 0, mkfifo(path, 0644)) &&
		    ADBG_EXPECT(c, 0, mkfifo(other, 0644))) {
			if (ADBG_EXPECT_TEEC_SUCCESS(
				c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig)))
				TEEC_CloseSession(&s);
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_ITEM_NOT_FOUND,
			    xtest_teec_open_session(&s, &other_uuid, NULL, &orig));
			clock_gettime(CLOCK_MONOTONIC, &t1);
			ADBG_EXPECT_COMPARE_SIGNED(c, (long)(t1.tv_sec - t0.tv_sec), <, 3);
		}
		unlink(path);
		unlink(other);
	}
	Do_ADBG_EndSubCase(c, NULL);
out:
	free(bad);
	free(img);
}
ADBG_CASE_DEFINE(regression, 1008, xtest_tee_test_1008,
		 "Signed TA images: unsigned, tampered, truncated and misnamed are refused");
