/*
 * The TEE implementation property set (TEE_PROPSET_TEE_IMPLEMENTATION):
 * swtee's own answers to the gpd.tee.* properties, in one table that the GP
 * property functions of the TA runtime and the swtee tools both read.
 */
#ifndef SWTEE_PROPERTIES_H
#define SWTEE_PROPERTIES_H

#include <stddef.h>

#include <user_ta_header.h>

/*
 * One property. value points at what type says: a bool, uint32_t, uint64_t,
 * TEE_UUID, TEE_Identity, or a NUL-terminated string (base64 text for a
 * binary block).
 */
struct rt_prop {
	const char *name;
	enum user_ta_prop_type type;
	const void *value;
};

/*
 * Returns the TEE implementation properties in enumeration order, never
 * NULL, and sets *n to their count. The table is static and stays valid.
 *
 * Two values are computed, once, at program start (a constructor, so that
 * sandboxed TA instances inherit them from the zygote they are forked from):
 * gpd.tee.deviceID, a version-5 style UUID made of the first 16 bytes of
 * SHA-256("swtee.deviceID:" || id), where id is the content of
 * /etc/machine-id without trailing white space, or the host name when that
 * file cannot be read or is empty; and the trusted OS binary version,
 * (major << 16) | (minor << 8) | patch of SWTEE_VERSION.
 */
const struct rt_prop *rt_tee_props(size_t *n);

#endif
