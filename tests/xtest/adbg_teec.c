/*
 * TEEC-aware checks: result codes and return origins are shown with their
 * names, "0xffff0006 = TEEC_ERROR_BAD_PARAMETERS". The values are those of
 * the GP TEE Client API (and the TEE_ERROR_* codes its header carries);
 * they are spelled out here so that adbg does not depend on libteec.
 */
#include <inttypes.h>
#include <stdio.h>

#include "adbg_int.h"

struct adbg_name {
	uint32_t value;
	const char *name;
};

static const struct adbg_name adbg_teec_results[] = {
    {0x00000000, "TEEC_SUCCESS"},
    {0xF0100003, "TEEC_ERROR_STORAGE_NOT_AVAILABLE"},
    {0xFFFF0000, "TEEC_ERROR_GENERIC"},
    {0xFFFF0001, "TEEC_ERROR_ACCESS_DENIED"},
    {0xFFFF0002, "TEEC_ERROR_CANCEL"},
    {0xFFFF0003, "TEEC_ERROR_ACCESS_CONFLICT"},
    {0xFFFF0004, "TEEC_ERROR_EXCESS_DATA"},
    {0xFFFF0005, "TEEC_ERROR_BAD_FORMAT"},
    {0xFFFF0006, "TEEC_ERROR_BAD_PARAMETERS"},
    {0xFFFF0007, "TEEC_ERROR_BAD_STATE"},
    {0xFFFF0008, "TEEC_ERROR_ITEM_NOT_FOUND"},
    {0xFFFF0009, "TEEC_ERROR_NOT_IMPLEMENTED"},
    {0xFFFF000A, "TEEC_ERROR_NOT_SUPPORTED"},
    {0xFFFF000B, "TEEC_ERROR_NO_DATA"},
    {0xFFFF000C, "TEEC_ERROR_OUT_OF_MEMORY"},
    {0xFFFF000D, "TEEC_ERROR_BUSY"},
    {0xFFFF000E, "TEEC_ERROR_COMMUNICATION"},
    {0xFFFF000F, "TEEC_ERROR_SECURITY"},
    {0xFFFF0010, "TEEC_ERROR_SHORT_BUFFER"},
    {0xFFFF0011, "TEEC_ERROR_EXTERNAL_CANCEL"},
    {0xFFFF300F, "TEE_ERROR_OVERFLOW"},
    {0xFFFF3024, "TEEC_ERROR_TARGET_DEAD"},
    {0xFFFF3041, "TEEC_ERROR_STORAGE_NO_SPACE"},
    {0xFFFF3071, "TEE_ERROR_MAC_INVALID"},
    {0xFFFF3072, "TEE_ERROR_SIGNATURE_INVALID"},
    {0xFFFF5000, "TEE_ERROR_TIME_NOT_SET"},
    {0xFFFF5001, "TEE_ERROR_TIME_NEEDS_RESET"},
};

static const struct adbg_name adbg_teec_origins[] = {
    {0x00000001, "TEEC_ORIGIN_API"},
    {0x00000002, "TEEC_ORIGIN_COMMS"},
    {0x00000003, "TEEC_ORIGIN_TEE"},
    {0x00000004, "TEEC_ORIGIN_TRUSTED_APP"},
};

static const char *adbg_lookup(const struct adbg_name *tab, size_t n, uint32_t v)
{
	size_t i = 0;

	for (i = 0; i < n; i++)
		if (tab[i].value == v)
			return tab[i].name;
	return NULL;
}

const char *xtest_teec_result_name(uint32_t res)
{
	return adbg_lookup(adbg_teec_results,
			   sizeof(adbg_teec_results) / sizeof(adbg_teec_results[0]), res);
}

const char *xtest_teec_origin_name(uint32_t origin)
{
	return adbg_lookup(adbg_teec_origins,
			   sizeof(adbg_teec_origins) / sizeof(adbg_teec_origins[0]), origin);
}

/* "0xffff0006 = TEEC_ERROR_BAD_PARAMETERS", or the bare hex when unnamed. */
static const char *adbg_named(char *buf, size_t len, uint32_t v, const char *name)
{
	if (name)
		snprintf(buf, len, "0x%" PRIx32 " = %s", v, name);
	else
		snprintf(buf, len, "0x%" PRIx32, v);
	return buf;
}

static bool adbg_expect_named(ADBG_Case_t *c, const char *file, int line, const char *expr,
			      uint32_t expected, uint32_t got, const char *(*name_of)(uint32_t))
{
	char g[64];
	char e[64];

	if (adbg_case_record(c, file, line, got == expected))
		return true;
	Do_ADBG_Log("%s:%d: %s has an unexpected value: %s, expected %s", adbg_basename(file), line,
		    expr, adbg_named(g, sizeof(g), got, name_of(got)),
		    adbg_named(e, sizeof(e), expected, name_of(expected)));
	return false;
}

bool adbg_expect_teec_result(ADBG_Case_t *c, const char *file, int line, const char *expr,
			     uint32_t expected, uint32_t got)
{
	return adbg_expect_named(c, file, line, expr, expected, got, xtest_teec_result_name);
}

bool adbg_expect_teec_origin(ADBG_Case_t *c, const char *file, int line, const char *expr,
			     uint32_t expected, uint32_t got)
{
	return adbg_expect_named(c, file, line, expr, expected, got, xtest_teec_origin_name);
}
