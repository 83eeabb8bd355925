/*
 * GP property access: the three property sets and the enumerators over them.
 *
 * TEE_PROPSET_CURRENT_TA is gpd.ta.appID followed by the TA's own table
 * (ta_props[], built by the TA dev kit), of which a "gpd." name counts only
 * if it is one of the kit's standard names and a repeated name only the
 * first time. TEE_PROPSET_CURRENT_CLIENT is the identity of the session whose
 * entry point runs (none during TA_DestroyEntryPoint) and gpd.client.endian.
 * TEE_PROPSET_TEE_IMPLEMENTATION is the table of properties.c.
 *
 * Enumerator handles are table slots with a generation, never pointers: a
 * handle the TA made up, freed or corrupted makes it panic, as do a NULL
 * name or output pointer, the misuses GP lists as panic reasons.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base64.h"
#include "properties.h"
#include "runtime.h"

#define ENUM_MAX 0xffffU     /* slots; a handle's low 16 bits are slot + 1 */
#define ENUM_GEN_MAX 0x7fffU /* keeps handles below the pseudo-handles */
#define ENUM_NOT_STARTED SIZE_MAX
#define TEXT_MAX 64 /* the longest rendering of a non-string value, with NUL */

/* One property as the getters see it, whatever table it came from. */
struct prop {
	const char *name;
	enum user_ta_prop_type type;
	union {
		bool b;
		uint32_t u32;
		uint64_t u64;
		TEE_UUID uuid;
		TEE_Identity id;
		const char *str; /* STRING, and BINARY_BLOCK as base64 text */
	} v;
};

struct prop_enum {
	uint16_t gen; /* 0: the slot is free */
	TEE_PropSetHandle set;
	size_t pos; /* ENUM_NOT_STARTED, or a position in set (see set_size) */
};

static struct prop_enum *enums;
static size_t nenums;
static uint16_t next_gen = 1;

/* The names the TA dev kit puts in every ta_props[] (user_ta_header.c). */
static const char *const kit_names[] = {
    TA_PROP_STR_SINGLE_INSTANCE, TA_PROP_STR_MULTI_SESSION,
    TA_PROP_STR_KEEP_ALIVE,	 TA_PROP_STR_KEEP_CRASHED,
    TA_PROP_STR_DATA_SIZE,	 TA_PROP_STR_STACK_SIZE,
    TA_PROP_STR_VERSION,	 TA_PROP_STR_DESCRIPTION,
    TA_PROP_STR_ENDIAN,		 TA_PROP_STR_DOES_NOT_CLOSE_HANDLE_ON_CORRUPT_OBJECT,
};

static bool is_pseudo_handle(TEE_PropSetHandle h)
{
	return h == TEE_PROPSET_CURRENT_TA || h == TEE_PROPSET_CURRENT_CLIENT ||
	       h == TEE_PROPSET_TEE_IMPLEMENTATION;
}

static void uuid_to_tee(const struct swtee_uuid *u, TEE_UUID *out)
{
	uuid_to_fields(u, &out->timeLow, &out->timeMid, &out->timeHiAndVersion,
		       out->clockSeqAndNode);
}

static void uuid_from_tee(const TEE_UUID *t, struct swtee_uuid *out)
{
	uuid_from_fields(out, t->timeLow, t->timeMid, t->timeHiAndVersion, t->clockSeqAndNode);
}

/* Copies a table entry into p; false if the entry is malformed. */
static bool prop_load(struct prop *p, const char *name, enum user_ta_prop_type type,
		      const void *value)
{
	if (!name || !value)
		return false;
	p->name = name;
	p->type = type;
	switch (type) {
	case USER_TA_PROP_TYPE_BOOL:
		p->v.b = *(const unsigned char *)value != 0;
		return true;
	case USER_TA_PROP_TYPE_U32:
		memcpy(&p->v.u32, value, sizeof(p->v.u32));
		return true;
	case USER_TA_PROP_TYPE_U64:
		memcpy(&p->v.u64, value, sizeof(p->v.u64));
		return true;
	case USER_TA_PROP_TYPE_UUID:
		memcpy(&p->v.uuid, value, sizeof(p->v.uuid));
		return true;
	case USER_TA_PROP_TYPE_IDENTITY:
		memcpy(&p->v.id, value, sizeof(p->v.id));
		return true;
	case USER_TA_PROP_TYPE_STRING:
	case USER_TA_PROP_TYPE_BINARY_BLOCK:
		p->v.str = value;
		return true;
	default:
		return false;
	}
}

static bool kit_name(const char *name)
{
	for (size_t i = 0; i < sizeof(kit_names) / sizeof(kit_names[0]); i++) {
		if (!strcmp(name, kit_names[i]))
			return true;
	}
	return false;
}

/* Could ta_props[i] be a property at all: well formed, and not a "gpd." name of the TA's own? */
static bool ta_entry_valid(size_t i, struct prop *p)
{
	const struct user_ta_property *e = &rt.ta.props[i];

	if (!prop_load(p, e->name, e->type, e->value))
		return false;
	return strncmp(p->name, "gpd.", 4) != 0 || kit_name(p->name);
}

/* ta_props[i] is a property if it is valid and no earlier valid entry has its name. */
static bool ta_entry(size_t i, struct prop *p)
{
	struct prop earlier;

	if (!ta_entry_valid(i, p))
		return false;
	for (size_t j = 0; j < i; j++) {
		if (ta_entry_valid(j, &earlier) && !strcmp(earlier.name, p->name))
			return false;
	}
	return true;
}

/* Positions in a set; some positions hold no property (see set_entry). */
static size_t set_size(TEE_PropSetHandle set)
{
	size_t n = 0;

	if (set == TEE_PROPSET_CURRENT_TA)
		return 1 + (rt.ta.props ? rt.ta.nprops : 0);
	if (set == TEE_PROPSET_CURRENT_CLIENT)
		return 2;
	rt_tee_props(&n);
	return n;
}

/* The property at pos of set, or false if that position holds none. */
static bool set_entry(TEE_PropSetHandle set, size_t pos, struct prop *p)
{
	const struct rt_prop *tee = NULL;
	size_t n = 0;

	if (set == TEE_PROPSET_CURRENT_TA) {
		if (pos > 0)
			return rt.ta.props && pos - 1 < rt.ta.nprops && ta_entry(pos - 1, p);
		p->name = "gpd.ta.appID";
		p->type = USER_TA_PROP_TYPE_UUID;
		uuid_to_tee(&rt.uuid, &p->v.uuid);
		return true;
	}
	if (set == TEE_PROPSET_CURRENT_CLIENT) {
		if (pos == 0 && rt.current) {
			p->name = "gpd.client.identity";
			p->type = USER_TA_PROP_TYPE_IDENTITY;
			p->v.id.login = rt.current->login;
			uuid_to_tee(&rt.current->identity, &p->v.id.uuid);
			return true;
		}
		if (pos == 1) {
			p->name = "gpd.client.endian";
			p->type = USER_TA_PROP_TYPE_U32;
			p->v.u32 = 0; /* little-endian, as every client swtee serves */
			return true;
		}
		return false;
	}
	tee = rt_tee_props(&n);
	return pos < n && prop_load(p, tee[pos].name, tee[pos].type, tee[pos].value);
}

/* The first position at or after pos that holds a property, or set_size(set). */
static size_t set_next(TEE_PropSetHandle set, size_t pos)
{
	size_t n = set_size(set);
	struct prop p;

	while (pos < n && !set_entry(set, pos, &p))
		pos++;
	return pos;
}

static bool set_find(TEE_PropSetHandle set, const char *name, struct prop *p)
{
	size_t n = set_size(set);

	for (size_t pos = 0; pos < n; pos++) {
		if (set_entry(set, pos, p) && !strcmp(p->name, name))
			return true;
	}
	return false;
}

/* The enumerator behind h, or NULL if h is not a live enumerator handle. */
static struct prop_enum *enum_lookup(TEE_PropSetHandle h)
{
	uintptr_t v = (uintptr_t)h;
	size_t slot = v & 0xffffU;

	if (v > UINT32_MAX || !slot || slot > nenums)
		return NULL;
	if (!enums[slot - 1].gen || enums[slot - 1].gen != v >> 16)
		return NULL;
	return &enums[slot - 1];
}

static struct prop_enum *enum_get(TEE_PropSetHandle h, const char *func)
{
	struct prop_enum *e = enum_lookup(h);

	if (!e)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return e;
}

/*
 * The property a getter reads: by name in a property set, or the current
 * one of an enumerator (name ignored). TEE_ERROR_ITEM_NOT_FOUND when there
 * is none; panics on a handle that is neither, or on a NULL name.
 */
static TEE_Result lookup(TEE_PropSetHandle h, const char *name, struct prop *p, const char *func)
{
	struct prop_enum *e = NULL;

	if (is_pseudo_handle(h)) {
		if (!name)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		return set_find(h, name, p) ? TEE_SUCCESS : TEE_ERROR_ITEM_NOT_FOUND;
	}
	e = enum_get(h, func);
	if (e->pos == ENUM_NOT_STARTED || !set_entry(e->set, e->pos, p))
		return TEE_ERROR_ITEM_NOT_FOUND;
	return TEE_SUCCESS;
}

/* p as GP text, in buf[TEXT_MAX] unless it is a string already. */
static const char *prop_text(const struct prop *p, char buf[TEXT_MAX])
{
	struct swtee_uuid u;
	char s[SWTEE_UUID_STR_LEN];

	switch (p->type) {
	case USER_TA_PROP_TYPE_BOOL:
		return p->v.b ? "true" : "false";
	case USER_TA_PROP_TYPE_U32:
		snprintf(buf, TEXT_MAX, "%" PRIu32, p->v.u32);
		return buf;
	case USER_TA_PROP_TYPE_U64:
		snprintf(buf, TEXT_MAX, "%" PRIu64, p->v.u64);
		return buf;
	case USER_TA_PROP_TYPE_UUID:
		uuid_from_tee(&p->v.uuid, &u);
		uuid_format(&u, buf);
		return buf;
	case USER_TA_PROP_TYPE_IDENTITY:
		uuid_from_tee(&p->v.id.uuid, &u);
		uuid_format(&u, s);
		snprintf(buf, TEXT_MAX, "%" PRIx32 ":%s", p->v.id.login, s);
		return buf;
	default:
		return p->v.str;
	}
}

/* Copies the string s with its NUL to buf[*len], or sets *len to the size needed. */
static TEE_Result put_string(const char *s, char *buf, size_t *len)
{
	size_t need = strlen(s) + 1;

	if (*len < need) {
		*len = need;
		return TEE_ERROR_SHORT_BUFFER;
	}
	memcpy(buf, s, need);
	*len = need;
	return TEE_SUCCESS;
}

/* GP [outbuf]/[outstring]: len is not NULL, and buf is not NULL unless *len is 0. */
static void check_outbuf(const void *buf, const size_t *len, const char *func)
{
	if (!len || (!buf && *len))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
}

static TEE_Result get_string(TEE_PropSetHandle h, const char *name, char *buf, size_t *len,
			     const char *func)
{
	char text[TEXT_MAX];
	struct prop p;
	TEE_Result res = TEE_ERROR_GENERIC;

	check_outbuf(buf, len, func);
	res = lookup(h, name, &p, func);
	if (res != TEE_SUCCESS)
		return res;
	return put_string(prop_text(&p, text), buf, len);
}

TEE_Result TEE_GetPropertyAsString(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				   char *valueBuffer, size_t *valueBufferLen)
{
	return get_string(propsetOrEnumerator, name, valueBuffer, valueBufferLen,
			  "TEE_GetPropertyAsString");
}

/* GP integer text: decimal, or hexadecimal after "0x" or "0X"; no sign, no spaces. */
static bool parse_u64(const char *s, uint64_t *out)
{
	unsigned int base = 10;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned int d = 0;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

TEE_Result TEE_GetPropertyAsBool(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				 bool *value)
{
	static const char func[] = "TEE_GetPropertyAsBool";
	struct prop p;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!value)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = lookup(propsetOrEnumerator, name, &p, func);
	if (res != TEE_SUCCESS)
		return res;
	if (p.type == USER_TA_PROP_TYPE_BOOL)
		*value = p.v.b;
	else if (p.type == USER_TA_PROP_TYPE_STRING && !strcasecmp(p.v.str, "true"))
		*value = true;
	else if (p.type == USER_TA_PROP_TYPE_STRING && !strcasecmp(p.v.str, "false"))
		*value = false;
	else
		return TEE_ERROR_BAD_FORMAT;
	return TEE_SUCCESS;
}

/* Any integer property, or a string that parse_u64 reads, as a uint64_t. */
static TEE_Result get_integer(TEE_PropSetHandle h, const char *name, uint64_t *value,
			      const char *func)
{
	struct prop p;
	TEE_Result res = TEE_ERROR_GENERIC;

	res = lookup(h, name, &p, func);
	if (res != TEE_SUCCESS)
		return res;
	if (p.type == USER_TA_PROP_TYPE_U32)
		*value = p.v.u32;
	else if (p.type == USER_TA_PROP_TYPE_U64)
		*value = p.v.u64;
	else if (p.type != USER_TA_PROP_TYPE_STRING || !parse_u64(p.v.str, value))
		return TEE_ERROR_BAD_FORMAT;
	return TEE_SUCCESS;
}

TEE_Result TEE_GetPropertyAsU32(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				uint32_t *value)
{
	static const char func[] = "TEE_GetPropertyAsU32";
	uint64_t v = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!value)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = get_integer(propsetOrEnumerator, name, &v, func);
	if (res != TEE_SUCCESS)
		return res;
	if (v > UINT32_MAX)
		return TEE_ERROR_BAD_FORMAT;
	*value = (uint32_t)v;
	return TEE_SUCCESS;
}

TEE_Result TEE_GetPropertyAsU64(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				uint64_t *value)
{
	static const char func[] = "TEE_GetPropertyAsU64";
	uint64_t v = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!value)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = get_integer(propsetOrEnumerator, name, &v, func);
	if (res == TEE_SUCCESS)
		*value = v;
	return res;
}

static TEE_Result get_binary(TEE_PropSetHandle h, const char *name, void *buf, size_t *len,
			     const char *func)
{
	struct prop p;
	size_t need = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	check_outbuf(buf, len, func);
	res = lookup(h, name, &p, func);
	if (res != TEE_SUCCESS)
		return res;
	if (p.type != USER_TA_PROP_TYPE_BINARY_BLOCK && p.type != USER_TA_PROP_TYPE_STRING)
		return TEE_ERROR_BAD_FORMAT;
	/*
	 * A value the TA declared a binary block is read as OP-TEE reads it;
	 * a string must be base64 exactly, as GP says.
	 */
	if (p.type == USER_TA_PROP_TYPE_BINARY_BLOCK)
		base64_decode_lenient(p.v.str, strlen(p.v.str), buf, *len, &need);
	else if (!base64_decode(p.v.str, strlen(p.v.str), buf, *len, &need))
		return TEE_ERROR_BAD_FORMAT;
	res = need > *len ? TEE_ERROR_SHORT_BUFFER : TEE_SUCCESS;
	*len = need;
	return res;
}

TEE_Result TEE_GetPropertyAsBinaryBlock(TEE_PropSetHandle propsetOrEnumerator, const char *name,
					void *valueBuffer, size_t *valueBufferLen)
{
	return get_binary(propsetOrEnumerator, name, valueBuffer, valueBufferLen,
			  "TEE_GetPropertyAsBinaryBlock");
}

TEE_Result TEE_GetPropertyAsUUID(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				 TEE_UUID *value)
{
	static const char func[] = "TEE_GetPropertyAsUUID";
	struct swtee_uuid u;
	struct prop p;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!value)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = lookup(propsetOrEnumerator, name, &p, func);
	if (res != TEE_SUCCESS)
		return res;
	if (p.type == USER_TA_PROP_TYPE_UUID) {
		*value = p.v.uuid;
		return TEE_SUCCESS;
	}
	if (p.type != USER_TA_PROP_TYPE_STRING || !uuid_parse(p.v.str, &u))
		return TEE_ERROR_BAD_FORMAT;
	uuid_to_tee(&u, value);
	return TEE_SUCCESS;
}

/* n hexadecimal digits at s, 1 to 8 of them, as a uint32_t. */
static bool parse_hex32(const char *s, size_t n, uint32_t *out)
{
	uint32_t v = 0;

	if (!n || n > 8)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned int d = 0;

		if (s[i] >= '0' && s[i] <= '9')
			d = (unsigned int)(s[i] - '0');
		else if (s[i] >= 'a' && s[i] <= 'f')
			d = (unsigned int)(s[i] - 'a' + 10);
		else if (s[i] >= 'A' && s[i] <= 'F')
			d = (unsigned int)(s[i] - 'A' + 10);
		else
			return false;
		v = (v << 4) | d;
	}
	*out = v;
	return true;
}

/* "<login>:<uuid>" with the login in hexadecimal, "0x" optional: what prop_text writes. */
static bool parse_identity(const char *s, TEE_Identity *out)
{
	const char *colon = strchr(s, ':');
	struct swtee_uuid u;
	uint32_t login = 0;
	size_t n = colon ? (size_t)(colon - s) : 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (!colon || !parse_hex32(s, n, &login) || !uuid_parse(colon + 1, &u))
		return false;
	out->login = login;
	uuid_to_tee(&u, &out->uuid);
	return true;
}

TEE_Result TEE_GetPropertyAsIdentity(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				     TEE_Identity *value)
{
	static const char func[] = "TEE_GetPropertyAsIdentity";
	struct prop p;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!value)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = lookup(propsetOrEnumerator, name, &p, func);
	if (res != TEE_SUCCESS)
		return res;
	if (p.type == USER_TA_PROP_TYPE_IDENTITY) {
		*value = p.v.id;
		return TEE_SUCCESS;
	}
	if (p.type != USER_TA_PROP_TYPE_STRING || !parse_identity(p.v.str, value))
		return TEE_ERROR_BAD_FORMAT;
	return TEE_SUCCESS;
}

/* A free slot, the table grown if need be; NULL when the TA heap or ENUM_MAX is reached. */
static struct prop_enum *enum_slot(size_t *slot)
{
	struct prop_enum *t = NULL;
	size_t n = 0;

	for (size_t i = 0; i < nenums; i++) {
		if (!enums[i].gen) {
			*slot = i;
			return &enums[i];
		}
	}
	if (nenums >= ENUM_MAX)
		return NULL;
	n = nenums ? nenums * 2 : 8;
	if (n > ENUM_MAX)
		n = ENUM_MAX;
	t = TEE_Realloc(enums, n * sizeof(*t)); /* zero-fills the new slots */
	if (!t)
		return NULL;
	enums = t;
	*slot = nenums;
	nenums = n;
	return &enums[*slot];
}

TEE_Result TEE_AllocatePropertyEnumerator(TEE_PropSetHandle *enumerator)
{
	struct prop_enum *e = NULL;
	size_t slot = 0;

	if (!enumerator)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_AllocatePropertyEnumerator");
	*enumerator = TEE_HANDLE_NULL;
	e = enum_slot(&slot);
	if (!e)
		return TEE_ERROR_OUT_OF_MEMORY;
	e->gen = next_gen;
	e->set = TEE_HANDLE_NULL;
	e->pos = ENUM_NOT_STARTED;
	next_gen = next_gen == ENUM_GEN_MAX ? 1 : next_gen + 1;
	*enumerator = (TEE_PropSetHandle)(((uintptr_t)e->gen << 16) | (slot + 1));
	return TEE_SUCCESS;
}

void TEE_FreePropertyEnumerator(TEE_PropSetHandle enumerator)
{
	struct prop_enum *e = NULL;

	if (enumerator == TEE_HANDLE_NULL)
		return;
	e = enum_get(enumerator, "TEE_FreePropertyEnumerator");
	e->gen = 0;
	e->set = TEE_HANDLE_NULL;
	e->pos = ENUM_NOT_STARTED;
}

void TEE_StartPropertyEnumerator(TEE_PropSetHandle enumerator, TEE_PropSetHandle propSet)
{
	static const char func[] = "TEE_StartPropertyEnumerator";
	struct prop_enum *e = enum_get(enumerator, func);

	if (!is_pseudo_handle(propSet))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	e->set = propSet;
	e->pos = set_next(propSet, 0);
}

void TEE_ResetPropertyEnumerator(TEE_PropSetHandle enumerator)
{
	struct prop_enum *e = enum_get(enumerator, "TEE_ResetPropertyEnumerator");

	e->set = TEE_HANDLE_NULL;
	e->pos = ENUM_NOT_STARTED;
}

static TEE_Result get_name(TEE_PropSetHandle enumerator, void *buf, size_t *len, const char *func)
{
	struct prop_enum *e = enum_get(enumerator, func);
	struct prop p;

	check_outbuf(buf, len, func);
	if (e->pos == ENUM_NOT_STARTED || !set_entry(e->set, e->pos, &p))
		return TEE_ERROR_ITEM_NOT_FOUND;
	return put_string(p.name, buf, len);
}

TEE_Result TEE_GetPropertyName(TEE_PropSetHandle enumerator, void *nameBuffer,
			       size_t *nameBufferLen)
{
	return get_name(enumerator, nameBuffer, nameBufferLen, "TEE_GetPropertyName");
}

TEE_Result TEE_GetNextProperty(TEE_PropSetHandle enumerator)
{
	struct prop_enum *e = enum_get(enumerator, "TEE_GetNextProperty");
	size_t n = 0;

	if (e->pos == ENUM_NOT_STARTED)
		return TEE_ERROR_ITEM_NOT_FOUND;
	n = set_size(e->set);
	if (e->pos < n)
		e->pos = set_next(e->set, e->pos + 1);
	return e->pos < n ? TEE_SUCCESS : TEE_ERROR_ITEM_NOT_FOUND;
}

/* GP 1.1: the same with 32-bit lengths. */

static void len_from_gp11(const uint32_t *len32, size_t *len, const char *func)
{
	if (!len32)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	*len = *len32;
}

static void len_to_gp11(TEE_Result res, size_t len, uint32_t *len32)
{
	if ((res == TEE_SUCCESS || res == TEE_ERROR_SHORT_BUFFER) && len <= UINT32_MAX)
		*len32 = (uint32_t)len;
	else if (res == TEE_ERROR_SHORT_BUFFER)
		*len32 = UINT32_MAX; /* more than any 1.1 buffer can hold */
}

TEE_Result __GP11_TEE_GetPropertyAsString(TEE_PropSetHandle propsetOrEnumerator, const char *name,
					  char *valueBuffer, uint32_t *valueBufferLen)
{
	static const char func[] = "__GP11_TEE_GetPropertyAsString";
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t len = 0;

	len_from_gp11(valueBufferLen, &len, func);
	res = get_string(propsetOrEnumerator, name, valueBuffer, &len, func);
	len_to_gp11(res, len, valueBufferLen);
	return res;
}

TEE_Result __GP11_TEE_GetPropertyAsBinaryBlock(TEE_PropSetHandle propsetOrEnumerator,
					       const char *name, void *valueBuffer,
					       uint32_t *valueBufferLen)
{
	static const char func[] = "__GP11_TEE_GetPropertyAsBinaryBlock";
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t len = 0;

	len_from_gp11(valueBufferLen, &len, func);
	res = get_binary(propsetOrEnumerator, name, valueBuffer, &len, func);
	len_to_gp11(res, len, valueBufferLen);
	return res;
}

TEE_Result __GP11_TEE_GetPropertyName(TEE_PropSetHandle enumerator, void *nameBuffer,
				      uint32_t *nameBufferLen)
{
	static const char func[] = "__GP11_TEE_GetPropertyName";
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t len = 0;

	len_from_gp11(nameBufferLen, &len, func);
	res = get_name(enumerator, nameBuffer, &len, func);
	len_to_gp11(res, len, nameBufferLen);
	return res;
}
