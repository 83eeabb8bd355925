/*
 * The GP property API seen from inside a TA: enumerates the three property
 * sets for xtest, runs a table of typed reads with their conversions and
 * error codes, and misuses the API on request to show that the runtime
 * panics where GP says it must.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <tee_internal_api.h>
#include <trace.h>

#include "ta_props.h"

#define TA_SET TEE_PROPSET_CURRENT_TA
#define CLIENT_SET TEE_PROPSET_CURRENT_CLIENT
#define TEE_SET TEE_PROPSET_TEE_IMPLEMENTATION

/* Properties in the TA set: gpd.ta.appID, the kit's 10, and the 19 valid custom ones. */
#define TA_SET_COUNT 35
#define CLIENT_SET_COUNT 2
#define TEE_SET_COUNT 25
#define MANY_ENUMERATORS 100

enum getter { G_STRING, G_BOOL, G_U32, G_U64, G_BINARY, G_UUID, G_IDENTITY };

/*
 * One typed read and what it must give: the result, and on success the
 * value in the text form value_text writes (NULL: any value).
 */
struct get_check {
	TEE_PropSetHandle set;
	const char *name;
	enum getter get;
	TEE_Result res;
	const char *want;
};

#define OK TEE_SUCCESS
#define NOT_FOUND TEE_ERROR_ITEM_NOT_FOUND
#define BAD_FORMAT TEE_ERROR_BAD_FORMAT
#define UUID_VALUE TA_PROPS_UUID_VALUE_STR

static const struct get_check get_checks[] = {
    /* Each type as itself, as text, and as a type it does not convert to */
    {TA_SET, "test.bool", G_BOOL, OK, "true"},
    {TA_SET, "test.bool", G_STRING, OK, "true"},
    {TA_SET, "test.bool", G_U32, BAD_FORMAT, NULL},
    {TA_SET, "test.u32", G_U32, OK, TA_PROPS_U32_STR}, /* the first of two definitions */
    {TA_SET, "test.u32", G_U64, OK, TA_PROPS_U32_STR},
    {TA_SET, "test.u32", G_STRING, OK, TA_PROPS_U32_STR},
    {TA_SET, "test.u32", G_BOOL, BAD_FORMAT, NULL},
    {TA_SET, "test.u64", G_U64, OK, TA_PROPS_U64_STR},
    {TA_SET, "test.u64", G_U32, BAD_FORMAT, NULL}, /* does not fit */
    {TA_SET, "test.u64", G_STRING, OK, TA_PROPS_U64_STR},
    {TA_SET, "test.uuid", G_UUID, OK, UUID_VALUE},
    {TA_SET, "test.uuid", G_STRING, OK, UUID_VALUE},
    {TA_SET, "test.uuid", G_IDENTITY, BAD_FORMAT, NULL},
    {TA_SET, "test.identity", G_IDENTITY, OK, "f0000000:" UUID_VALUE},
    {TA_SET, "test.identity", G_STRING, OK, "f0000000:" UUID_VALUE},
    {TA_SET, "test.identity", G_UUID, BAD_FORMAT, NULL},
    {TA_SET, "test.string", G_STRING, OK, TA_PROPS_STRING},
    {TA_SET, "test.string", G_BOOL, BAD_FORMAT, NULL},
    {TA_SET, "test.string", G_U32, BAD_FORMAT, NULL},
    {TA_SET, "test.string", G_U64, BAD_FORMAT, NULL},
    {TA_SET, "test.string", G_UUID, BAD_FORMAT, NULL},
    {TA_SET, "test.string", G_IDENTITY, BAD_FORMAT, NULL},
    {TA_SET, "test.string", G_BINARY, BAD_FORMAT, NULL},
    {TA_SET, "test.binary", G_BINARY, OK, "hello"},
    {TA_SET, "test.binary", G_STRING, OK, TA_PROPS_BINARY},
    {TA_SET, "test.binary", G_U32, BAD_FORMAT, NULL},
    {TA_SET, "test.empty", G_BINARY, OK, ""},
    {TA_SET, "test.empty", G_STRING, OK, ""},
    /*
     * A binary block the TA declared is decoded as OP-TEE decodes it:
     * what is not base64 is skipped, '=' ends it, a short group gives nothing.
     */
    {TA_SET, "test.bin.padonly", G_BINARY, OK, ""},
    {TA_SET, "test.bin.invalid", G_BINARY, OK, ""},
    {TA_SET, "test.bin.spaced", G_BINARY, OK, "hello"},
    {TA_SET, "test.bin.unpadded", G_BINARY, OK, "hi"},
    {TA_SET, "test.bin.stops", G_BINARY, OK, "hi"},
    /* Strings read as other types */
    {TA_SET, "test.hex", G_U32, OK, "16"},
    {TA_SET, "test.hex", G_U64, OK, "16"},
    {TA_SET, "test.hex", G_STRING, OK, TA_PROPS_HEX},
    {TA_SET, "test.big", G_U32, BAD_FORMAT, NULL},
    {TA_SET, "test.big", G_U64, OK, "4294967296"},
    {TA_SET, "test.notbase64", G_BINARY, BAD_FORMAT, NULL},
    {TA_SET, "test.unpadded", G_BINARY, BAD_FORMAT, NULL},
    {TA_SET, "test.padbits1", G_BINARY, BAD_FORMAT, NULL}, /* non-zero unused bits */
    {TA_SET, "test.padbits2", G_BINARY, BAD_FORMAT, NULL},
    {TA_SET, "test.b64string", G_BINARY, OK, "hi"},
    {TA_SET, "test.strbool", G_BOOL, OK, "true"},
    {TA_SET, "test.struuid", G_UUID, OK, UUID_VALUE},
    {TA_SET, "test.strid", G_IDENTITY, OK, "f0000000:" UUID_VALUE},
    {TA_SET, "test.badid", G_IDENTITY, BAD_FORMAT, NULL},
    /* What the runtime must ignore, and names that are not there */
    {TA_SET, "gpd.test.ignored", G_U32, NOT_FOUND, NULL},
    {TA_SET, "gpd.ta.version", G_STRING, OK, TA_PROPS_VERSION},
    {TA_SET, "no.such.property", G_STRING, NOT_FOUND, NULL},
    {TA_SET, "no.such.property", G_BOOL, NOT_FOUND, NULL},
    {TA_SET, "no.such.property", G_U32, NOT_FOUND, NULL},
    {TA_SET, "no.such.property", G_U64, NOT_FOUND, NULL},
    {TA_SET, "no.such.property", G_BINARY, NOT_FOUND, NULL},
    {TA_SET, "no.such.property", G_UUID, NOT_FOUND, NULL},
    {TA_SET, "no.such.property", G_IDENTITY, NOT_FOUND, NULL},
    {TA_SET, "", G_STRING, NOT_FOUND, NULL},
    {TA_SET, "gpd.client.endian", G_U32, NOT_FOUND, NULL},
    /* The standard TA properties */
    {TA_SET, "gpd.ta.appID", G_UUID, OK, TA_PROPS_UUID_STR},
    {TA_SET, "gpd.ta.appID", G_STRING, OK, TA_PROPS_UUID_STR},
    {TA_SET, "gpd.ta.singleInstance", G_BOOL, OK, "false"},
    {TA_SET, "gpd.ta.multiSession", G_BOOL, OK, "false"},
    {TA_SET, "gpd.ta.instanceKeepAlive", G_BOOL, OK, "false"},
    {TA_SET, "gpd.ta.dataSize", G_U32, OK, "65536"},
    {TA_SET, "gpd.ta.stackSize", G_U32, OK, "8192"},
    {TA_SET, "gpd.ta.description", G_STRING, OK, TA_PROPS_DESCRIPTION},
    {TA_SET, "gpd.ta.endian", G_U32, OK, "0"},
    {TA_SET, "gpd.ta.doesNotCloseHandleOnCorruptObject", G_BOOL, OK, "false"},
    {TA_SET, "optee.ta.instanceKeepCrashed", G_BOOL, OK, "false"},
    /* Client */
    {CLIENT_SET, "gpd.client.endian", G_U32, OK, "0"},
    {CLIENT_SET, "gpd.client.identity", G_IDENTITY, OK, NULL},
    {CLIENT_SET, "gpd.ta.appID", G_UUID, NOT_FOUND, NULL},
    /* TEE */
    {TEE_SET, "gpd.tee.apiversion", G_STRING, OK, "1.3.1"},
    {TEE_SET, "gpd.tee.internalCore.version", G_U32, OK, "16974080"}, /* 0x01030100 */
    {TEE_SET, "gpd.tee.arith.maxBigIntSize", G_U32, OK, "4096"},
    {TEE_SET, "gpd.tee.cryptography.ecc", G_BOOL, OK, "true"},
    {TEE_SET, "gpd.tee.cryptography.octa", G_BOOL, OK, "false"},
    {TEE_SET, "gpd.tee.deviceID", G_UUID, OK, NULL},
    {TEE_SET, "gpd.tee.systemTime.protectionLevel", G_U32, OK, "100"},
    {TEE_SET, "gpd.tee.trustedos.manufacturer", G_STRING, OK, "swtee"},
    {TEE_SET, "gpd.tee.event.maxSources", G_U64, OK, "0"},
    {TEE_SET, "gpd.ta.appID", G_UUID, NOT_FOUND, NULL},
};

struct run {
	uint32_t n;
	uint32_t failed;
	uint32_t first;
};

static void check(struct run *r, bool ok)
{
	if (!ok) {
		EMSG("property check %u failed", r->n);
		if (!r->failed)
			r->first = r->n;
		r->failed++;
	}
	r->n++;
}

static void uuid_text(const TEE_UUID *u, char *out, size_t size)
{
	const uint8_t *c = u->clockSeqAndNode;

	snprintf(out, size,
		 "%08" PRIx32 "-%04" PRIx16 "-%04" PRIx16 "-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u->timeLow, u->timeMid, u->timeHiAndVersion, c[0], c[1], c[2], c[3], c[4], c[5],
		 c[6], c[7]);
}

/* Reads c's property with c's getter; on success writes the value as text to out[size]. */
static TEE_Result value_text(const struct get_check *c, char *out, size_t size)
{
	union {
		bool b;
		uint32_t u32;
		uint64_t u64;
		TEE_UUID uuid;
		TEE_Identity id;
	} v;
	char uuid[40];
	size_t len = size - 1;
	TEE_Result res = TEE_ERROR_GENERIC;

	memset(&v, 0, sizeof(v));
	memset(out, 0, size);
	switch (c->get) {
	case G_STRING:
		len = size;
		return TEE_GetPropertyAsString(c->set, c->name, out, &len);
	case G_BINARY:
		/* The bytes as they are, NUL-terminated by the memset. */
		return TEE_GetPropertyAsBinaryBlock(c->set, c->name, out, &len);
	case G_BOOL:
		res = TEE_GetPropertyAsBool(c->set, c->name, &v.b);
		snprintf(out, size, "%s", v.b ? "true" : "false");
		break;
	case G_U32:
		res = TEE_GetPropertyAsU32(c->set, c->name, &v.u32);
		snprintf(out, size, "%" PRIu32, v.u32);
		break;
	case G_U64:
		res = TEE_GetPropertyAsU64(c->set, c->name, &v.u64);
		snprintf(out, size, "%" PRIu64, v.u64);
		break;
	case G_UUID:
		res = TEE_GetPropertyAsUUID(c->set, c->name, &v.uuid);
		uuid_text(&v.uuid, out, size);
		break;
	case G_IDENTITY:
		res = TEE_GetPropertyAsIdentity(c->set, c->name, &v.id);
		uuid_text(&v.id.uuid, uuid, sizeof(uuid));
		snprintf(out, size, "%" PRIx32 ":%s", v.id.login, uuid);
		break;
	}
	return res;
}

static bool run_get(const struct get_check *c)
{
	char text[128];
	TEE_Result res = value_text(c, text, sizeof(text));

	if (res != c->res) {
		EMSG("%s: 0x%08x, expected 0x%08x", c->name, res, c->res);
		return false;
	}
	if (res != TEE_SUCCESS || !c->want)
		return true;
	if (strcmp(text, c->want)) {
		EMSG("%s: \"%s\", expected \"%s\"", c->name, text, c->want);
		return false;
	}
	return true;
}

/* Lengths in and out: the size needed on a short buffer, the NUL counted. */
static void check_short_buffers(struct run *r)
{
	char buf[32];
	uint8_t bin[8];
	size_t len = 0;
	TEE_UUID dev;

	check(r, TEE_GetPropertyAsString(TA_SET, "test.string", NULL, &len) ==
			 TEE_ERROR_SHORT_BUFFER &&
		     len == sizeof(TA_PROPS_STRING));
	memset(buf, 'x', sizeof(buf));
	len = sizeof(TA_PROPS_STRING) - 1;
	check(r,
	      TEE_GetPropertyAsString(TA_SET, "test.string", buf, &len) == TEE_ERROR_SHORT_BUFFER &&
		  len == sizeof(TA_PROPS_STRING) && buf[0] == 'x');
	len = sizeof(TA_PROPS_STRING);
	check(r, TEE_GetPropertyAsString(TA_SET, "test.string", buf, &len) == TEE_SUCCESS &&
		     len == sizeof(TA_PROPS_STRING) && !strcmp(buf, TA_PROPS_STRING));
	len = 0;
	check(r,
	      TEE_GetPropertyAsString(TA_SET, "test.u32", NULL, &len) == TEE_ERROR_SHORT_BUFFER &&
		  len == sizeof(TA_PROPS_U32_STR));
	len = 0;
	check(r, TEE_GetPropertyAsBinaryBlock(TA_SET, "test.binary", NULL, &len) ==
			 TEE_ERROR_SHORT_BUFFER &&
		     len == 5);
	len = 4;
	check(r, TEE_GetPropertyAsBinaryBlock(TA_SET, "test.binary", bin, &len) ==
			 TEE_ERROR_SHORT_BUFFER &&
		     len == 5);
	len = 5;
	check(r, TEE_GetPropertyAsBinaryBlock(TA_SET, "test.binary", bin, &len) == TEE_SUCCESS &&
		     len == 5 && !memcmp(bin, "hello", 5));
	len = 0;
	check(r, TEE_GetPropertyAsBinaryBlock(TA_SET, "test.empty", NULL, &len) == TEE_SUCCESS &&
		     len == 0);
	/* The device ID is a version-5 style UUID with the RFC 4122 variant. */
	check(r, TEE_GetPropertyAsUUID(TEE_SET, "gpd.tee.deviceID", &dev) == TEE_SUCCESS &&
		     dev.timeHiAndVersion >> 12 == 5 && (dev.clockSeqAndNode[0] & 0xc0) == 0x80);
}

static bool name_is(TEE_PropSetHandle e, const char *want)
{
	char name[64];
	size_t len = sizeof(name);

	return TEE_GetPropertyName(e, name, &len) == TEE_SUCCESS && len == strlen(want) + 1 &&
	       !strcmp(name, want);
}

/* Properties left in e from where it stands; n_named of them are called name. */
static uint32_t count_rest(TEE_PropSetHandle e, const char *name, uint32_t *n_named)
{
	uint32_t n = 0;

	*n_named = 0;
	do {
		char buf[64];
		size_t len = sizeof(buf);

		if (TEE_GetPropertyName(e, buf, &len) != TEE_SUCCESS)
			break;
		n++;
		if (!strcmp(buf, name))
			(*n_named)++;
	} while (TEE_GetNextProperty(e) == TEE_SUCCESS);
	return n;
}

static void check_enumerators(struct run *r)
{
	TEE_PropSetHandle e = TEE_HANDLE_NULL;
	TEE_PropSetHandle e2 = TEE_HANDLE_NULL;
	TEE_Identity id;
	uint32_t u32 = 1;
	uint32_t named = 0;
	char buf[64];
	size_t len = 0;

	check(r, TEE_AllocatePropertyEnumerator(&e) == TEE_SUCCESS && e != TEE_HANDLE_NULL);
	check(r, e != TA_SET && e != CLIENT_SET && e != TEE_SET);
	/* Not started */
	len = sizeof(buf);
	check(r, TEE_GetPropertyName(e, buf, &len) == TEE_ERROR_ITEM_NOT_FOUND);
	check(r, TEE_GetNextProperty(e) == TEE_ERROR_ITEM_NOT_FOUND);
	len = sizeof(buf);
	check(r, TEE_GetPropertyAsString(e, NULL, buf, &len) == TEE_ERROR_ITEM_NOT_FOUND);
	/* Client set, in order; getters read the current property and ignore the name */
	TEE_StartPropertyEnumerator(e, CLIENT_SET);
	check(r, name_is(e, "gpd.client.identity"));
	len = 0;
	check(r, TEE_GetPropertyName(e, NULL, &len) == TEE_ERROR_SHORT_BUFFER &&
		     len == sizeof("gpd.client.identity"));
	len = 5;
	check(r, TEE_GetPropertyName(e, buf, &len) == TEE_ERROR_SHORT_BUFFER &&
		     len == sizeof("gpd.client.identity"));
	check(r, TEE_GetPropertyAsIdentity(e, "gpd.tee.apiversion", &id) == TEE_SUCCESS);
	check(r, TEE_GetPropertyAsU32(e, NULL, &u32) == TEE_ERROR_BAD_FORMAT);
	check(r, TEE_GetNextProperty(e) == TEE_SUCCESS);
	check(r, name_is(e, "gpd.client.endian"));
	check(r, TEE_GetPropertyAsU32(e, "gpd.tee.arith.maxBigIntSize", &u32) == TEE_SUCCESS &&
		     u32 == 0);
	/* Past the end, and staying there */
	check(r, TEE_GetNextProperty(e) == TEE_ERROR_ITEM_NOT_FOUND);
	len = sizeof(buf);
	check(r, TEE_GetPropertyName(e, buf, &len) == TEE_ERROR_ITEM_NOT_FOUND);
	len = sizeof(buf);
	check(r, TEE_GetPropertyAsString(e, NULL, buf, &len) == TEE_ERROR_ITEM_NOT_FOUND);
	check(r, TEE_GetNextProperty(e) == TEE_ERROR_ITEM_NOT_FOUND);
	/* Reset, then restart on another set */
	TEE_ResetPropertyEnumerator(e);
	len = sizeof(buf);
	check(r, TEE_GetPropertyName(e, buf, &len) == TEE_ERROR_ITEM_NOT_FOUND);
	TEE_StartPropertyEnumerator(e, TA_SET);
	check(r, name_is(e, "gpd.ta.appID"));
	check(r, count_rest(e, "test.u32", &named) == TA_SET_COUNT && named == 1);
	TEE_StartPropertyEnumerator(e, TA_SET);
	check(r, count_rest(e, "gpd.ta.version", &named) == TA_SET_COUNT && named == 1);
	TEE_StartPropertyEnumerator(e, TA_SET);
	check(r, count_rest(e, "gpd.test.ignored", &named) == TA_SET_COUNT && named == 0);
	TEE_StartPropertyEnumerator(e, CLIENT_SET);
	check(r, count_rest(e, "", &named) == CLIENT_SET_COUNT);
	/* Two enumerators do not share a position */
	check(r, TEE_AllocatePropertyEnumerator(&e2) == TEE_SUCCESS && e2 != e);
	TEE_StartPropertyEnumerator(e, TA_SET);
	TEE_StartPropertyEnumerator(e2, TEE_SET);
	check(r, TEE_GetNextProperty(e2) == TEE_SUCCESS);
	check(r, name_is(e, "gpd.ta.appID") && name_is(e2, "gpd.tee.internalCore.version"));
	TEE_StartPropertyEnumerator(e2, TEE_SET);
	check(r, count_rest(e2, "gpd.tee.deviceID", &named) == TEE_SET_COUNT && named == 1);
	TEE_FreePropertyEnumerator(e);
	TEE_FreePropertyEnumerator(e2);
	TEE_FreePropertyEnumerator(TEE_HANDLE_NULL);
}

static void check_many_enumerators(struct run *r)
{
	TEE_PropSetHandle e[MANY_ENUMERATORS];
	bool ok = true;
	size_t i = 0;

	for (i = 0; i < MANY_ENUMERATORS; i++) {
		ok = ok && TEE_AllocatePropertyEnumerator(&e[i]) == TEE_SUCCESS;
		for (size_t j = 0; ok && j < i; j++)
			ok = e[j] != e[i];
		if (!ok)
			break;
		TEE_StartPropertyEnumerator(e[i], i % 2 ? TEE_SET : CLIENT_SET);
	}
	check(r, ok);
	for (size_t j = 0; j < i; j++)
		TEE_FreePropertyEnumerator(e[j]);
}

static void check_gp11(struct run *r)
{
	TEE_PropSetHandle e = TEE_HANDLE_NULL;
	char buf[32];
	uint8_t bin[8];
	uint32_t len = 0;

	check(r, __GP11_TEE_GetPropertyAsString(TA_SET, "test.string", NULL, &len) ==
			 TEE_ERROR_SHORT_BUFFER &&
		     len == sizeof(TA_PROPS_STRING));
	len = sizeof(buf);
	check(r, __GP11_TEE_GetPropertyAsString(TA_SET, "test.string", buf, &len) == TEE_SUCCESS &&
		     len == sizeof(TA_PROPS_STRING) && !strcmp(buf, TA_PROPS_STRING));
	len = 1;
	check(r, __GP11_TEE_GetPropertyAsBinaryBlock(TA_SET, "test.binary", bin, &len) ==
			 TEE_ERROR_SHORT_BUFFER &&
		     len == 5);
	len = sizeof(bin);
	check(r, __GP11_TEE_GetPropertyAsBinaryBlock(TA_SET, "test.binary", bin, &len) ==
			 TEE_SUCCESS &&
		     len == 5 && !memcmp(bin, "hello", 5));
	len = sizeof(bin);
	check(r, __GP11_TEE_GetPropertyAsBinaryBlock(TA_SET, "test.notbase64", bin, &len) ==
		     TEE_ERROR_BAD_FORMAT);
	if (TEE_AllocatePropertyEnumerator(&e) != TEE_SUCCESS) {
		check(r, false);
		return;
	}
	TEE_StartPropertyEnumerator(e, TEE_SET);
	len = 0;
	check(r, __GP11_TEE_GetPropertyName(e, NULL, &len) == TEE_ERROR_SHORT_BUFFER &&
		     len == sizeof("gpd.tee.apiversion"));
	len = sizeof(buf);
	check(r, __GP11_TEE_GetPropertyName(e, buf, &len) == TEE_SUCCESS &&
		     len == sizeof("gpd.tee.apiversion") && !strcmp(buf, "gpd.tee.apiversion"));
	TEE_FreePropertyEnumerator(e);
}

static TEE_Result run_checks(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct run r = {.first = TA_PROPS_NO_FAILURE};

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	for (size_t i = 0; i < sizeof(get_checks) / sizeof(get_checks[0]); i++)
		check(&r, run_get(&get_checks[i]));
	check_short_buffers(&r);
	check_enumerators(&r);
	check_many_enumerators(&r);
	check_gp11(&r);
	p[0].value.a = r.failed;
	p[0].value.b = r.first;
	p[1].value.a = r.n;
	return TEE_SUCCESS;
}

/* Appends s[0..n) at *used in out[cap], or only counts it once out is full. */
static void put(char *out, size_t cap, size_t *used, const char *s, size_t n)
{
	if (*used <= cap && n <= cap - *used)
		memcpy(out + *used, s, n);
	*used += n;
}

static TEE_Result enumerate(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	static const TEE_PropSetHandle sets[] = {TA_SET, CLIENT_SET, TEE_SET};
	TEE_PropSetHandle e = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	char *out = p[1].memref.buffer;
	size_t cap = p[1].memref.size;
	size_t used = 0;
	char *value = NULL;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE) ||
	    p[0].value.a >= sizeof(sets) / sizeof(sets[0]))
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_AllocatePropertyEnumerator(&e);
	if (res != TEE_SUCCESS)
		goto out;
	TEE_StartPropertyEnumerator(e, sets[p[0].value.a]);
	do {
		char name[128];
		size_t name_len = sizeof(name);
		size_t len = 0;

		res = TEE_GetPropertyName(e, name, &name_len);
		if (res != TEE_SUCCESS)
			goto out;
		/* Ask for the size first, as a TA that does not know it would. */
		res = TEE_GetPropertyAsString(e, NULL, NULL, &len);
		if (res != TEE_ERROR_SHORT_BUFFER) {
			res = TEE_ERROR_GENERIC;
			goto out;
		}
		value = TEE_Malloc(len, TEE_MALLOC_FILL_ZERO);
		if (!value) {
			res = TEE_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		res = TEE_GetPropertyAsString(e, NULL, value, &len);
		if (res != TEE_SUCCESS)
			goto out;
		put(out, cap, &used, name, name_len - 1);
		put(out, cap, &used, "=", 1);
		put(out, cap, &used, value, len - 1);
		put(out, cap, &used, "\n", 1);
		TEE_Free(value);
		value = NULL;
	} while (TEE_GetNextProperty(e) == TEE_SUCCESS);
	res = used > cap ? TEE_ERROR_SHORT_BUFFER : TEE_SUCCESS;
	p[1].memref.size = used;
out:
	TEE_Free(value);
	TEE_FreePropertyEnumerator(e);
	return res;
}

static TEE_Result identity(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_Identity id;
	uint8_t *b = p[1].memref.buffer;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[1].memref.size < 16) {
		p[1].memref.size = 16;
		return TEE_ERROR_SHORT_BUFFER;
	}
	res = TEE_GetPropertyAsIdentity(CLIENT_SET, "gpd.client.identity", &id);
	if (res != TEE_SUCCESS)
		return res;
	p[0].value.a = id.login;
	for (size_t i = 0; i < 4; i++)
		b[i] = (uint8_t)(id.uuid.timeLow >> (24 - 8 * i));
	b[4] = (uint8_t)(id.uuid.timeMid >> 8);
	b[5] = (uint8_t)id.uuid.timeMid;
	b[6] = (uint8_t)(id.uuid.timeHiAndVersion >> 8);
	b[7] = (uint8_t)id.uuid.timeHiAndVersion;
	memcpy(b + 8, id.uuid.clockSeqAndNode, 8);
	p[1].memref.size = 16;
	return TEE_SUCCESS;
}

/* Each of these must end the instance; returning means the runtime let it pass. */
static TEE_Result misuse(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_PropSetHandle e = TEE_HANDLE_NULL;
	uint32_t u32 = 0;
	size_t len = 8;
	bool b = false;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (TEE_AllocatePropertyEnumerator(&e) != TEE_SUCCESS)
		return TEE_ERROR_OUT_OF_MEMORY;
	switch (p[0].value.a) {
	case TA_PROPS_MISUSE_FORGED_HANDLE:
		/* A neighbour of a real handle, then a wild value. */
		(void)TEE_GetPropertyAsU32((TEE_PropSetHandle)((uintptr_t)e + 1), "x", &u32);
		(void)TEE_GetPropertyAsU32((TEE_PropSetHandle)(uintptr_t)0x12345678, "x", &u32);
		break;
	case TA_PROPS_MISUSE_USE_AFTER_FREE:
		TEE_FreePropertyEnumerator(e);
		(void)TEE_GetNextProperty(e);
		break;
	case TA_PROPS_MISUSE_DOUBLE_FREE:
		TEE_FreePropertyEnumerator(e);
		TEE_FreePropertyEnumerator(e);
		break;
	case TA_PROPS_MISUSE_NULL_NAME:
		(void)TEE_GetPropertyAsBool(TA_SET, NULL, &b);
		break;
	case TA_PROPS_MISUSE_BAD_PROPSET:
		TEE_StartPropertyEnumerator(e, e);
		break;
	case TA_PROPS_MISUSE_NULL_VALUE:
		(void)TEE_GetPropertyAsBool(TA_SET, "test.bool", NULL);
		break;
	case TA_PROPS_MISUSE_NULL_BUFFER:
		(void)TEE_GetPropertyAsString(TA_SET, "test.string", NULL, &len);
		break;
	case TA_PROPS_MISUSE_NULL_HANDLE:
		(void)TEE_GetPropertyAsString(TEE_HANDLE_NULL, "test.string", NULL, &len);
		break;
	case TA_PROPS_MISUSE_GP11_NULL_LENGTH:
		TEE_StartPropertyEnumerator(e, TA_SET);
		(void)__GP11_TEE_GetPropertyName(e, NULL, NULL);
		break;
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
	return TEE_SUCCESS;
}

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	(void)types;
	(void)params;
	*ctx = NULL;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param p[TEE_NUM_PARAMS])
{
	(void)ctx;
	switch (cmd) {
	case TA_PROPS_CMD_ENUMERATE:
		return enumerate(types, p);
	case TA_PROPS_CMD_CHECK:
		return run_checks(types, p);
	case TA_PROPS_CMD_IDENTITY:
		return identity(types, p);
	case TA_PROPS_CMD_MISUSE:
		return misuse(types, p);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
