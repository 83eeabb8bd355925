/*
 * A host program shaped like xtest's host side: the GP Internal API types
 * and constants xtest passes to TAs, util.h, signed_hdr.h and the pseudo
 * TA headers, all from the kit's host_include/, with conf.h forced in.
 *
 *   host_xtest check          the headers' values; prints the CFG_ settings
 *   host_xtest shdr FILE UUID FILE is a signed image of UUID (shdr.c)
 *   host_xtest pta            no pseudo TA answers (pta.c; needs a TEE)
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <tee_api_compat.h>
#include <tee_api_defines.h>
#include <tee_api_defines_extensions.h>
#include <tee_api_types.h>
#include <tee_client_api.h>
#include <utee_defines.h>
#include <util.h>

#include "host_xtest.h"

static int failures;

static void expect(int ok, const char *what)
{
	if (!ok) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

#define EXPECT(cond) expect((cond), #cond)

/* What xtest's crypto cases build on the host and send to the crypt TA. */
static void check_api_types(void)
{
	static uint8_t key[16];
	TEE_Attribute attr = {.attributeID = TEE_ATTR_SECRET_VALUE};
	TEE_ObjectInfo info = {.objectType = TEE_TYPE_AES, .objectSize = 128};
	TEE_UUID uuid = {0x01020304, 0x0506, 0x0708, {9, 10, 11, 12, 13, 14, 15, 16}};

	attr.content.ref.buffer = key;
	attr.content.ref.length = sizeof(key);
	EXPECT(attr.content.ref.length == 16);
	EXPECT(info.objectSize == 128);
	EXPECT(sizeof(uuid) == sizeof(TEEC_UUID));
	EXPECT(sizeof(__GP11_TEE_Attribute) <= sizeof(TEE_Attribute));
	EXPECT(TEE_ALG_AES_CBC_NOPAD == 0x10000110);
	EXPECT(TEE_ALG_GET_MAIN_ALG(TEE_ALG_AES_CBC_NOPAD) == TEE_MAIN_ALGO_AES);
	EXPECT(TEE_SHA256_HASH_SIZE == 32);
	EXPECT(TEE_STORAGE_PRIVATE_RPMB == 0x80000100);
	EXPECT(TEE_ALG_HKDF_SHA256_DERIVE_KEY == 0x800040C0);
	/* xtest compares TEEC results with TEE_ERROR_* names. */
	EXPECT(TEE_ERROR_ITEM_NOT_FOUND == TEEC_ERROR_ITEM_NOT_FOUND);
}

static void check_util(void)
{
	static const int four[4];

	EXPECT(ARRAY_SIZE(four) == 4);
	EXPECT(ROUNDUP(13, 8) == 16);
	EXPECT(ROUNDDOWN(13, 8) == 8);
	EXPECT(MIN(3, 5) == 3 && MAX(3, 5) == 5);
	EXPECT(BIT(3) == 8 && BIT32(31) == 0x80000000u);
	EXPECT(IS_ALIGNED(64, 16) && !IS_ALIGNED(65, 16));
}

/* The settings xtest's sources test, as conf.h has them: NAME=y or NAME=n. */
static void print_conf(void)
{
	static const struct {
		const char *name;
		int set;
	} conf[] = {
#define CONF(name, set) {#name, set}
#ifdef CFG_GP_SOCKETS
	    CONF(CFG_GP_SOCKETS, 1),
#else
	    CONF(CFG_GP_SOCKETS, 0),
#endif
#ifdef CFG_REE_FS
	    CONF(CFG_REE_FS, 1),
#else
	    CONF(CFG_REE_FS, 0),
#endif
#ifdef CFG_RPMB_FS
	    CONF(CFG_RPMB_FS, 1),
#else
	    CONF(CFG_RPMB_FS, 0),
#endif
#ifdef CFG_CRYPTO_RSASSA_NA1
	    CONF(CFG_CRYPTO_RSASSA_NA1, 1),
#else
	    CONF(CFG_CRYPTO_RSASSA_NA1, 0),
#endif
#ifdef CFG_TA_MBEDTLS
	    CONF(CFG_TA_MBEDTLS, 1),
#else
	    CONF(CFG_TA_MBEDTLS, 0),
#endif
#ifdef CFG_SECURE_DATA_PATH
	    CONF(CFG_SECURE_DATA_PATH, 1),
#else
	    CONF(CFG_SECURE_DATA_PATH, 0),
#endif
#ifdef CFG_PKCS11_TA
	    CONF(CFG_PKCS11_TA, 1),
#else
	    CONF(CFG_PKCS11_TA, 0),
#endif
#ifdef CFG_SPMC_TESTS
	    CONF(CFG_SPMC_TESTS, 1),
#else
	    CONF(CFG_SPMC_TESTS, 0),
#endif
#ifdef CFG_CRYPTO_SE05X
	    CONF(CFG_CRYPTO_SE05X, 1),
#else
	    CONF(CFG_CRYPTO_SE05X, 0),
#endif
#ifdef CFG_TA_BTI
	    CONF(CFG_TA_BTI, 1),
#else
	    CONF(CFG_TA_BTI, 0),
#endif
#ifdef CFG_CORE_TPM_EVENT_LOG
	    CONF(CFG_CORE_TPM_EVENT_LOG, 1),
#else
	    CONF(CFG_CORE_TPM_EVENT_LOG, 0),
#endif
#ifdef CFG_GCM_NIST_VECTORS
	    CONF(CFG_GCM_NIST_VECTORS, 1),
#else
	    CONF(CFG_GCM_NIST_VECTORS, 0),
#endif
#undef CONF
	};

	for (size_t i = 0; i < ARRAY_SIZE(conf); i++)
		printf("%s=%s\n", conf[i].name, conf[i].set ? "y" : "n");
}

static int check(void)
{
	check_api_types();
	check_util();
#ifdef CFG_GP_SOCKETS
	failures += sockets_check();
#endif
	print_conf();
	/* From optee_client_config.mk, through the Makefile. */
	printf("plugin path: %s\n", PLUGIN_LOAD_PATH);
	return failures;
}

int main(int argc, char *argv[])
{
	int fails = 1;

	if (argc == 2 && !strcmp(argv[1], "check"))
		fails = check();
	else if (argc == 4 && !strcmp(argv[1], "shdr"))
		fails = shdr_check(argv[2], argv[3]);
	else if (argc == 2 && !strcmp(argv[1], "pta"))
		fails = pta_check();
	else
		fprintf(stderr, "usage: host_xtest check | shdr FILE UUID | pta\n");
	if (fails)
		printf("%d check(s) failed\n", fails);
	return fails ? 1 : 0;
}
