/*
 * regression 1092 and the --install-ta applet: the secure-storage TA
 * management pseudo-TA (pta_secstor_ta_mgmt.h). A tampered image is refused
 * whatever byte of it changed (OP-TEE's 1008.4 flips the same ones); a good
 * one installs when the client is root or the TEE's own user.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pta_secstor_ta_mgmt.h>
#include <tee_client_api.h>

#include "adbg.h"
#include "ta_image_format.h"
#include "xtest_helpers.h"

#define BASIC_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01"

static const TEEC_UUID secstor_uuid = PTA_SECSTOR_TA_MGMT_UUID;

static TEEC_Result bootstrap(TEEC_Session *s, const void *img, size_t len)
{
	TEEC_Operation op = {0};
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)img;
	op.params[0].tmpref.size = len;
	return TEEC_InvokeCommand(s, PTA_SECSTOR_TA_MGMT_BOOTSTRAP, &op, &orig);
}

static void xtest_tee_test_1092(ADBG_Case_t *c)
{
	/* The header's fields (struct shdr), its hash and signature, the ELF twice. */
	static const size_t offsets[] = {0,    4,   8, 12, 14, 16, SHDR_SIZE, SHDR_SIZE + 32,
					 3000, 8000};
	TEEC_Session s = {0};
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t orig = 0;
	size_t len = 0;
	uint8_t *img = xtest_installed_ta(BASIC_NAME, &len);
	uint8_t *bad = img ? malloc(len) : NULL;

	if (!ADBG_EXPECT_NOT_NULL(c, img) || !ADBG_EXPECT_NOT_NULL(c, bad) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &secstor_uuid, NULL, &orig)))
		goto out;
	Do_ADBG_BeginSubCase(c, "a tampered image is refused with TEEC_ERROR_SECURITY");
	for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		memcpy(bad, img, len);
		bad[offsets[i] < len ? offsets[i] : len - 1] ^= 1;
		if (!ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SECURITY, bootstrap(&s, bad, len)))
			Do_ADBG_Log("byte %zu flipped", offsets[i]);
	}
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SECURITY, bootstrap(&s, img, len / 2));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "bad parameters and unknown commands");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, bootstrap(&s, NULL, 0));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				TEEC_InvokeCommand(&s, 1, NULL, &orig));
	Do_ADBG_EndSubCase(c, NULL);

	/*
	 * Root and the TEE's own user (that of `swtee run`) may install; any
	 * other user is refused (a system TEE's client, say).
	 */
	Do_ADBG_BeginSubCase(c, "a good image installs");
	res = bootstrap(&s, img, len);
	if (geteuid() != 0 && res == TEEC_ERROR_ACCESS_DENIED)
		Do_ADBG_Log("refused: this user is neither root nor the TEE's");
	else
		ADBG_EXPECT_TEEC_SUCCESS(c, res);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
out:
	free(bad);
	free(img);
}
ADBG_CASE_DEFINE(regression, 1092, xtest_tee_test_1092,
		 "Installing TAs into the secure dir: tampered images refused, a good one kept");

static int install_file(TEEC_Session *s, const char *path)
{
	size_t len = 0;
	uint8_t *img = xtest_read_file(path, &len);
	TEEC_Result res = img ? bootstrap(s, img, len) : TEEC_ERROR_ITEM_NOT_FOUND;

	free(img);
	if (res) {
		fprintf(stderr, "xtest --install-ta: %s: %s (0x%08x)\n", path,
			!img ? strerror(errno) : "refused", (unsigned)res);
		return 1;
	}
	printf("installed %s\n", path);
	return 0;
}

static int install_dir(TEEC_Session *s, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e = NULL;
	int rc = 0;

	if (!d)
		return install_file(s, dir);
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		size_t n = strlen(e->d_name);

		if (n < 4 || strcmp(e->d_name + n - 3, ".ta"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rc |= install_file(s, path);
	}
	closedir(d);
	return rc;
}

/* xtest --install-ta DIR|FILE...: each .ta into the TEE's secure dir. */
int install_ta_runner_cmd_parser(int argc, char *argv[])
{
	TEEC_Context ctx;
	TEEC_Session s;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;
	int rc = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: xtest --install-ta DIR|FILE...\n"
			"  installs each signed TA image (every *.ta of a DIR) into the TEE's\n"
			"  secure dir, from which a TA absent from the TA path loads\n");
		return argc < 2 ? 2 : 0;
	}
	res = TEEC_InitializeContext(NULL, &ctx);
	if (!res)
		res =
		    TEEC_OpenSession(&ctx, &s, &secstor_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);
	if (res) {
		fprintf(stderr, "xtest --install-ta: no TA installer in the TEE (0x%08x)\n",
			(unsigned)res);
		return 1;
	}
	for (int i = 1; i < argc; i++)
		rc |= install_dir(&s, argv[i]);
	TEEC_CloseSession(&s);
	TEEC_FinalizeContext(&ctx);
	return rc;
}
