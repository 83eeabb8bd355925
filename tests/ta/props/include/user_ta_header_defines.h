#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_props.h>

#define TA_UUID TA_PROPS_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE TA_PROPS_STACK_SIZE
#define TA_DATA_SIZE TA_PROPS_DATA_SIZE
#define TA_VERSION TA_PROPS_VERSION
#define TA_DESCRIPTION TA_PROPS_DESCRIPTION

/*
 * One property of every type, strings that convert to other types, and
 * three entries the runtime must ignore: a "gpd." name of the TA's own, a
 * redefinition of a standard property and a repeated name.
 */
/* clang-format off */
#define TA_CURRENT_TA_EXT_PROPERTIES \
	{ "test.bool", USER_TA_PROP_TYPE_BOOL, &(const bool){ true } }, \
	{ "test.u32", USER_TA_PROP_TYPE_U32, &(const uint32_t){ TA_PROPS_U32 } }, \
	{ "test.u64", USER_TA_PROP_TYPE_U64, &(const uint64_t){ TA_PROPS_U64 } }, \
	{ "test.uuid", USER_TA_PROP_TYPE_UUID, &(const TEE_UUID)TA_PROPS_UUID_VALUE }, \
	{ "test.identity", USER_TA_PROP_TYPE_IDENTITY, \
	  &(const TEE_Identity){ TEE_LOGIN_TRUSTED_APP, TA_PROPS_UUID_VALUE } }, \
	{ "test.string", USER_TA_PROP_TYPE_STRING, TA_PROPS_STRING }, \
	{ "test.binary", USER_TA_PROP_TYPE_BINARY_BLOCK, TA_PROPS_BINARY }, \
	{ "test.empty", USER_TA_PROP_TYPE_BINARY_BLOCK, "" }, \
	{ "test.bin.padonly", USER_TA_PROP_TYPE_BINARY_BLOCK, "====" }, \
	{ "test.bin.invalid", USER_TA_PROP_TYPE_BINARY_BLOCK, "-%@&" }, \
	{ "test.bin.spaced", USER_TA_PROP_TYPE_BINARY_BLOCK, "aGVs bG8" }, \
	{ "test.bin.unpadded", USER_TA_PROP_TYPE_BINARY_BLOCK, "aGk" }, \
	{ "test.bin.stops", USER_TA_PROP_TYPE_BINARY_BLOCK, "aGk=aGk=" }, \
	{ "test.hex", USER_TA_PROP_TYPE_STRING, TA_PROPS_HEX }, \
	{ "test.big", USER_TA_PROP_TYPE_STRING, "4294967296" }, \
	{ "test.notbase64", USER_TA_PROP_TYPE_STRING, TA_PROPS_NOT_BASE64 }, \
	{ "test.unpadded", USER_TA_PROP_TYPE_STRING, "aGk" }, \
	{ "test.padbits1", USER_TA_PROP_TYPE_STRING, "aGl=" }, \
	{ "test.padbits2", USER_TA_PROP_TYPE_STRING, "aB==" }, \
	{ "test.b64string", USER_TA_PROP_TYPE_STRING, "aGk=" }, \
	{ "test.strbool", USER_TA_PROP_TYPE_STRING, "TRUE" }, \
	{ "test.struuid", USER_TA_PROP_TYPE_STRING, "01234567-89AB-CDEF-0123-456789ABCDEF" }, \
	{ "test.strid", USER_TA_PROP_TYPE_STRING, "0xf0000000:" TA_PROPS_UUID_VALUE_STR }, \
	{ "test.badid", USER_TA_PROP_TYPE_STRING, "123456789:" TA_PROPS_UUID_VALUE_STR }, \
	{ "gpd.test.ignored", USER_TA_PROP_TYPE_U32, &(const uint32_t){ 1 } }, \
	{ "gpd.ta.version", USER_TA_PROP_TYPE_STRING, "forged" }, \
	{ "test.u32", USER_TA_PROP_TYPE_U32, &(const uint32_t){ 7 } },
/* clang-format on */

#endif
