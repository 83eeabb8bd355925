/*
 * regression 1006: the GP property sets as a TA reads them, through the
 * props test TA: every standard TA, client and TEE property with its value
 * as TEE_GetPropertyAsString gives it, the TA's custom properties, the
 * typed getters (checked inside the TA), the client identity per login
 * method, and the panics on misuse.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_props.h"
#include "xtest_helpers.h"

#define LIST_MAX 8192
#define TA_SET_COUNT 35
#define CLIENT_SET_COUNT 2
#define TEE_SET_COUNT 25
#define UUID_STR_LEN 37

static const TEEC_UUID props_uuid = TA_PROPS_UUID;

/* swtee's login namespace, in which client identities are version-5 UUIDs */
static const uint8_t login_ns[16] = {0x58, 0xac, 0x9c, 0xa0, 0x20, 0x86, 0x46, 0x83,
				     0xa1, 0xb8, 0xec, 0x4b, 0xc0, 0x8e, 0x01, 0xb6};

static void uuid_text(const uint8_t b[16], char out[UUID_STR_LEN])
{
	snprintf(out, UUID_STR_LEN,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
		 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
		 b[15]);
}

/* The first 16 bytes of md(prefix || name), stamped as a version-5 RFC 4122 UUID. */
static bool uuid_v5_style(const EVP_MD *md, const void *prefix, size_t prefix_len, const char *name,
			  size_t name_len, uint8_t out[16])
{
	uint8_t h[EVP_MAX_MD_SIZE];
	unsigned int hlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = ctx && EVP_DigestInit_ex(ctx, md, NULL) &&
		  EVP_DigestUpdate(ctx, prefix, prefix_len) &&
		  EVP_DigestUpdate(ctx, name, name_len) && EVP_DigestFinal_ex(ctx, h, &hlen) &&
		  hlen >= 16;

	EVP_MD_CTX_free(ctx);
	if (!ok)
		return false;
	memcpy(out, h, 16);
	out[6] = (uint8_t)((out[6] & 0x0f) | 0x50);
	out[8] = (uint8_t)((out[8] & 0x3f) | 0x80);
	return true;
}

/* The identity of TEEC_LOGIN_USER: UUIDv5(login_ns, "uid=%x"). */
static bool user_identity(uint8_t out[16])
{
	char name[32];
	int n = snprintf(name, sizeof(name), "uid=%x", (unsigned int)getuid());

	return n > 0 && (size_t)n < sizeof(name) &&
	       uuid_v5_style(EVP_sha1(), login_ns, sizeof(login_ns), name, (size_t)n, out);
}

/*
 * gpd.tee.deviceID as properties.h defines it: from /etc/machine-id without
 * trailing white space, or else the host name.
 */
static bool device_id(char out[UUID_STR_LEN])
{
	static const char prefix[] = "swtee.deviceID:";
	char id[256];
	uint8_t b[16];
	size_t n = 0;
	FILE *f = fopen("/etc/machine-id", "re");

	if (f) {
		n = fread(id, 1, sizeof(id), f);
		fclose(f);
	}
	while (n && (id[n - 1] == '\n' || id[n - 1] == ' ' || id[n - 1] == '\t' ||
		     id[n - 1] == '\r' || id[n - 1] == '\v' || id[n - 1] == '\f'))
		n--;
	if (!n) {
		if (gethostname(id, sizeof(id)))
			return false;
		id[sizeof(id) - 1] = '\0';
		n = strlen(id);
	}
	if (!uuid_v5_style(EVP_sha256(), prefix, sizeof(prefix) - 1, id, n, b))
		return false;
	uuid_text(b, out);
	return true;
}

/* Lists a property set as "name=value\n" lines into buf[size], NUL-terminated. */
static bool list_set(ADBG_Case_t *c, TEEC_Session *s, uint32_t set, char *buf, size_t size)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = set;
	op.params[1].tmpref.buffer = buf;
	op.params[1].tmpref.size = size - 1;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, TA_PROPS_CMD_ENUMERATE, &op, &orig)))
		return false;
	if (!ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].tmpref.size, <, size))
		return false;
	buf[op.params[1].tmpref.size] = '\0';
	return true;
}

static size_t count_lines(const char *list)
{
	size_t n = 0;

	for (const char *p = list; *p; p++)
		n += *p == '\n';
	return n;
}

/* How many lines of list name name; the value of the first goes to val[size]. */
static size_t value_of(const char *list, const char *name, char *val, size_t size)
{
	size_t name_len = strlen(name);
	size_t found = 0;

	val[0] = '\0';
	for (const char *p = list; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > name_len && !strncmp(p, name, name_len) && p[name_len] == '=') {
			if (!found++)
				snprintf(val, size, "%.*s", (int)(len - name_len - 1),
					 p + name_len + 1);
		}
		p += len + (end ? 1 : 0);
	}
	return found;
}

/* name appears once in list, with the value want. */
static void expect_prop(ADBG_Case_t *c, const char *list, const char *name, const char *want)
{
	char got[256];
	size_t n = value_of(list, name, got, sizeof(got));

	if (!ADBG_EXPECT(c, 1, n)) {
		Do_ADBG_Log("    %s: listed %zu times", name, n);
		return;
	}
	if (!ADBG_EXPECT_TRUE(c, !strcmp(got, want)))
		Do_ADBG_Log("    %s=\"%s\", expected \"%s\"", name, got, want);
}

static void expect_prop_u32(ADBG_Case_t *c, const char *list, const char *name, uint32_t want)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", want);
	expect_prop(c, list, name, text);
}

static void check_ta_set(ADBG_Case_t *c, const char *list)
{
	static const char *const custom[][2] = {
	    {"test.bool", "true"},
	    {"test.u32", TA_PROPS_U32_STR},
	    {"test.u64", TA_PROPS_U64_STR},
	    {"test.uuid", TA_PROPS_UUID_VALUE_STR},
	    {"test.identity", "f0000000:" TA_PROPS_UUID_VALUE_STR},
	    {"test.string", TA_PROPS_STRING},
	    {"test.binary", TA_PROPS_BINARY},
	    {"test.empty", ""},
	    {"test.bin.padonly", "===="},
	    {"test.bin.invalid", "-%@&"},
	    {"test.bin.spaced", "aGVs bG8"},
	    {"test.bin.unpadded", "aGk"},
	    {"test.bin.stops", "aGk=aGk="},
	    {"test.hex", TA_PROPS_HEX},
	    {"test.big", "4294967296"},
	    {"test.notbase64", TA_PROPS_NOT_BASE64},
	    {"test.unpadded", "aGk"},
	    {"test.padbits1", "aGl="},
	    {"test.padbits2", "aB=="},
	    {"test.b64string", "aGk="},
	    {"test.strbool", "TRUE"},
	    {"test.struuid", "01234567-89AB-CDEF-0123-456789ABCDEF"},
	    {"test.strid", "0xf0000000:" TA_PROPS_UUID_VALUE_STR},
	    {"test.badid", "123456789:" TA_PROPS_UUID_VALUE_STR},
	};
	char val[256];

	expect_prop(c, list, "gpd.ta.appID", TA_PROPS_UUID_STR);
	expect_prop(c, list, "gpd.ta.singleInstance", "false");
	expect_prop(c, list, "gpd.ta.multiSession", "false");
	expect_prop(c, list, "gpd.ta.instanceKeepAlive", "false");
	expect_prop_u32(c, list, "gpd.ta.dataSize", TA_PROPS_DATA_SIZE);
	expect_prop_u32(c, list, "gpd.ta.stackSize", TA_PROPS_STACK_SIZE);
	expect_prop(c, list, "gpd.ta.version", TA_PROPS_VERSION); /* not the "forged" one */
	expect_prop(c, list, "gpd.ta.description", TA_PROPS_DESCRIPTION);
	expect_prop(c, list, "gpd.ta.endian", "0");
	expect_prop(c, list, "gpd.ta.doesNotCloseHandleOnCorruptObject", "false");
	expect_prop(c, list, "optee.ta.instanceKeepCrashed", "false");
	for (size_t i = 0; i < sizeof(custom) / sizeof(custom[0]); i++)
		expect_prop(c, list, custom[i][0], custom[i][1]);
	/* The TA's own "gpd." name is ignored, and nothing else is listed. */
	ADBG_EXPECT(c, 0, value_of(list, "gpd.test.ignored", val, sizeof(val)));
	ADBG_EXPECT(c, TA_SET_COUNT, count_lines(list));
	/* appID first, as OP-TEE lists it */
	ADBG_EXPECT_TRUE(c, !strncmp(list, "gpd.ta.appID=", 13));
}

static void check_tee_set(ADBG_Case_t *c, const char *list)
{
	static const char *const fixed[][2] = {
	    {"gpd.tee.apiversion", "1.3.1"},
	    {"gpd.tee.internalCore.version", "16974080"}, /* 0x01030100 */
	    {"gpd.tee.description",
	     "swtee: a software TEE for Linux (process isolation, no hardware root of trust)"},
	    {"gpd.tee.systemTime.protectionLevel", "100"},
	    {"gpd.tee.TAPersistentTime.protectionLevel", "100"},
	    {"gpd.tee.arith.maxBigIntSize", "4096"},
	    {"gpd.tee.cryptography.ecc", "true"},
	    {"gpd.tee.cryptography.nist", "true"},
	    {"gpd.tee.cryptography.bsi-r", "false"},
	    {"gpd.tee.cryptography.bsi-t", "false"},
	    {"gpd.tee.cryptography.ietf", "true"},
	    {"gpd.tee.cryptography.octa", "false"},
	    {"gpd.tee.trustedStorage.antiRollback.protectionLevel", "100"},
	    {"gpd.tee.trustedStorage.rollbackDetection.protectionLevel", "100"},
	    {"gpd.tee.trustedos.manufacturer", "swtee"},
	    {"gpd.tee.firmware.implementation.version", "none"},
	    {"gpd.tee.firmware.implementation.binaryversion", "0"},
	    {"gpd.tee.firmware.manufacturer", "none"},
	    {"gpd.tee.event.maxSources", "0"},
	    {"gpd.tee.sockets.version", "16777216"},
	    {"gpd.tee.sockets.tcp.version", "16777216"},
	    {"gpd.tee.sockets.udp.version", "16777216"},
	};
	char want[UUID_STR_LEN];
	char version[256];
	unsigned int major = 0;
	unsigned int minor = 0;
	unsigned int patch = 0;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		expect_prop(c, list, fixed[i][0], fixed[i][1]);
	if (ADBG_EXPECT_TRUE(c, device_id(want)))
		expect_prop(c, list, "gpd.tee.deviceID", want);
	/* "swtee <major.minor.patch>", and the same as (major << 16) | (minor << 8) | patch */
	if (ADBG_EXPECT(c, 1,
			value_of(list, "gpd.tee.trustedos.implementation.version", version,
				 sizeof(version))) &&
	    ADBG_EXPECT(c, 3, sscanf(version, "swtee %u.%u.%u", &major, &minor, &patch))) {
		expect_prop_u32(c, list, "gpd.tee.trustedos.implementation.binaryversion",
				major << 16 | minor << 8 | patch);
	}
	ADBG_EXPECT(c, TEE_SET_COUNT, count_lines(list));
}

static void check_client_set(ADBG_Case_t *c, const char *list, const char *identity)
{
	expect_prop(c, list, "gpd.client.identity", identity);
	expect_prop(c, list, "gpd.client.endian", "0");
	ADBG_EXPECT(c, CLIENT_SET_COUNT, count_lines(list));
}

/* The client identity the TA sees, through TA_PROPS_CMD_IDENTITY. */
static void check_identity(ADBG_Case_t *c, TEEC_Session *s, uint32_t login, const uint8_t want[16])
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint8_t got[16] = {0};
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[1].tmpref.buffer = got;
	op.params[1].tmpref.size = sizeof(got);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, TA_PROPS_CMD_IDENTITY, &op, &orig)))
		return;
	ADBG_EXPECT(c, login, op.params[0].value.a);
	ADBG_EXPECT_BUFFER(c, want, 16, got, op.params[1].tmpref.size);
}

static void test_sets(ADBG_Case_t *c, char *list)
{
	static const char public_id[] = "0:00000000-0000-0000-0000-000000000000";
	TEEC_Session s = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &props_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "TEE_PROPSET_CURRENT_TA: standard and custom properties");
	if (list_set(c, &s, TA_PROPS_SET_TA, list, LIST_MAX))
		check_ta_set(c, list);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TEE_PROPSET_CURRENT_CLIENT, public login");
	if (list_set(c, &s, TA_PROPS_SET_CLIENT, list, LIST_MAX))
		check_client_set(c, list, public_id);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TEE_PROPSET_TEE_IMPLEMENTATION");
	if (list_set(c, &s, TA_PROPS_SET_TEE, list, LIST_MAX)) {
		check_tee_set(c, list);
		Do_ADBG_Log("    TEE properties as a TA sees them:");
		for (const char *p = list; *p;) {
			const char *end = strchr(p, '\n');
			int len = end ? (int)(end - p) : (int)strlen(p);

			Do_ADBG_Log("      %.*s", len, p);
			p += len + (end ? 1 : 0);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}

static void test_in_ta(ADBG_Case_t *c)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Session s = {0};
	uint32_t orig = 0;

	Do_ADBG_BeginSubCase(c, "Typed getters, conversions, errors and enumerators in the TA");
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &props_uuid, NULL, &orig)))
		goto out;
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_PROPS_CMD_CHECK, &op, &orig))) {
		if (!ADBG_EXPECT(c, 0, op.params[0].value.a))
			Do_ADBG_Log(
			    "    %u of %u checks failed, the first is #%u (see the core log)",
			    op.params[0].value.a, op.params[1].value.a, op.params[0].value.b);
		ADBG_EXPECT(c, TA_PROPS_NO_FAILURE, op.params[0].value.b);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].value.a, >=, 100);
	}
	TEEC_CloseSession(&s);
out:
	Do_ADBG_EndSubCase(c, NULL);
}

static void test_identities(ADBG_Case_t *c, char *list)
{
	static const uint8_t nil[16];
	char first_device_id[UUID_STR_LEN] = "";
	char val[256];
	char user_id[UUID_STR_LEN + 16];
	uint8_t user[16];
	TEEC_Session s = {0};
	uint32_t orig = 0;

	Do_ADBG_BeginSubCase(c, "Client identity, TEEC_LOGIN_PUBLIC: login 0, nil UUID");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &props_uuid, NULL, &orig))) {
		check_identity(c, &s, TEEC_LOGIN_PUBLIC, nil);
		if (list_set(c, &s, TA_PROPS_SET_TEE, list, LIST_MAX))
			value_of(list, "gpd.tee.deviceID", first_device_id,
				 sizeof(first_device_id));
		TEEC_CloseSession(&s);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Client identity, TEEC_LOGIN_USER: login 1, UUIDv5 of uid");
	if (!ADBG_EXPECT_TRUE(c, user_identity(user)))
		goto out;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_OpenSession(&xtest_teec_ctx, &s, &props_uuid,
							  TEEC_LOGIN_USER, NULL, NULL, &orig)))
		goto out;
	check_identity(c, &s, TEEC_LOGIN_USER, user);
	memcpy(user_id, "1:", 2);
	uuid_text(user, user_id + 2);
	if (list_set(c, &s, TA_PROPS_SET_CLIENT, list, LIST_MAX))
		check_client_set(c, list, user_id);
	/* Another instance reports the same device ID. */
	if (list_set(c, &s, TA_PROPS_SET_TEE, list, LIST_MAX) &&
	    ADBG_EXPECT(c, 1, value_of(list, "gpd.tee.deviceID", val, sizeof(val))))
		ADBG_EXPECT_TRUE(c, !strcmp(val, first_device_id));
	TEEC_CloseSession(&s);
out:
	Do_ADBG_EndSubCase(c, NULL);
}

static void test_misuse(ADBG_Case_t *c)
{
	static const char *const what[TA_PROPS_MISUSE_COUNT] = {
	    [TA_PROPS_MISUSE_FORGED_HANDLE] = "a made-up handle",
	    [TA_PROPS_MISUSE_USE_AFTER_FREE] = "a freed enumerator",
	    [TA_PROPS_MISUSE_DOUBLE_FREE] = "an enumerator freed twice",
	    [TA_PROPS_MISUSE_NULL_NAME] = "a NULL name",
	    [TA_PROPS_MISUSE_BAD_PROPSET] = "starting on something not a property set",
	    [TA_PROPS_MISUSE_NULL_VALUE] = "a NULL value pointer",
	    [TA_PROPS_MISUSE_NULL_BUFFER] = "a NULL buffer with a non-zero length",
	    [TA_PROPS_MISUSE_NULL_HANDLE] = "TEE_HANDLE_NULL as the property set",
	    [TA_PROPS_MISUSE_GP11_NULL_LENGTH] = "a NULL length to a GP 1.1 function",
	};

	for (uint32_t i = 0; i < TA_PROPS_MISUSE_COUNT; i++) {
		TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
		TEEC_Session s = {0};
		uint32_t orig = 0;

		Do_ADBG_BeginSubCase(c, "Panic on %s", what[i]);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &props_uuid, NULL, &orig))) {
			op.paramTypes =
			    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
			op.params[0].value.a = i;
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_TARGET_DEAD,
			    TEEC_InvokeCommand(&s, TA_PROPS_CMD_MISUSE, &op, &orig));
			ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
			TEEC_CloseSession(&s);
		}
		Do_ADBG_EndSubCase(c, NULL);
	}
}

static void xtest_tee_test_1006(ADBG_Case_t *c)
{
	char *list = calloc(1, LIST_MAX);

	if (!ADBG_EXPECT_NOT_NULL(c, list))
		return;
	test_sets(c, list);
	test_in_ta(c);
	test_identities(c, list);
	test_misuse(c);
	free(list);
}
ADBG_CASE_DEFINE(regression, 1006, xtest_tee_test_1006, "Test properties (TA, client, TEE)");
