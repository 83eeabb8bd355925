/*
 * swtee's TEE implementation properties. The values are true of swtee: a
 * software TEE whose storage and time are protected by the REE kernel only
 * (protection level 100), with a device ID that is stable per machine.
 */
#include <ctype.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tee_api_defines.h>

#include "properties.h"
#include "uuid.h"

#ifndef SWTEE_VERSION
#define SWTEE_VERSION "0.1.0"
#endif

#define DEVICE_ID_PREFIX "swtee.deviceID:"
#define MACHINE_ID_MAX 256

static TEE_UUID device_id;
static uint32_t trustedos_binary_version;
static bool computed;

static const bool yes = true;
static const bool no;
static const uint32_t zero;
static const uint32_t level_ree = 100; /* protected by the REE kernel, see GP */
static const uint32_t core_version = TEE_CORE_API_VERSION;
static const uint32_t max_bigint_bits = 4096;
/* The GP Sockets API (TEE_ISOCKET_VERSION) and its TCP and UDP protocols. */
static const uint32_t sockets_version = 0x01000000;

static const struct rt_prop tee_props[] = {
    {"gpd.tee.apiversion", USER_TA_PROP_TYPE_STRING, "1.3.1"},
    {"gpd.tee.internalCore.version", USER_TA_PROP_TYPE_U32, &core_version},
    {"gpd.tee.description", USER_TA_PROP_TYPE_STRING,
     "swtee: a software TEE for Linux (process isolation, no hardware root of trust)"},
    {"gpd.tee.deviceID", USER_TA_PROP_TYPE_UUID, &device_id},
    {"gpd.tee.systemTime.protectionLevel", USER_TA_PROP_TYPE_U32, &level_ree},
    {"gpd.tee.TAPersistentTime.protectionLevel", USER_TA_PROP_TYPE_U32, &level_ree},
    {"gpd.tee.arith.maxBigIntSize", USER_TA_PROP_TYPE_U32, &max_bigint_bits},
    {"gpd.tee.cryptography.ecc", USER_TA_PROP_TYPE_BOOL, &yes},
    {"gpd.tee.cryptography.nist", USER_TA_PROP_TYPE_BOOL, &yes},
    {"gpd.tee.cryptography.bsi-r", USER_TA_PROP_TYPE_BOOL, &no},
    {"gpd.tee.cryptography.bsi-t", USER_TA_PROP_TYPE_BOOL, &no},
    {"gpd.tee.cryptography.ietf", USER_TA_PROP_TYPE_BOOL, &yes},
    {"gpd.tee.cryptography.octa", USER_TA_PROP_TYPE_BOOL, &no},
    {"gpd.tee.trustedStorage.antiRollback.protectionLevel", USER_TA_PROP_TYPE_U32, &level_ree},
    {"gpd.tee.trustedStorage.rollbackDetection.protectionLevel", USER_TA_PROP_TYPE_U32, &level_ree},
    {"gpd.tee.trustedos.implementation.version", USER_TA_PROP_TYPE_STRING, "swtee " SWTEE_VERSION},
    {"gpd.tee.trustedos.implementation.binaryversion", USER_TA_PROP_TYPE_U32,
     &trustedos_binary_version},
    {"gpd.tee.trustedos.manufacturer", USER_TA_PROP_TYPE_STRING, "swtee"},
    {"gpd.tee.firmware.implementation.version", USER_TA_PROP_TYPE_STRING, "none"},
    {"gpd.tee.firmware.implementation.binaryversion", USER_TA_PROP_TYPE_U32, &zero},
    {"gpd.tee.firmware.manufacturer", USER_TA_PROP_TYPE_STRING, "none"},
    {"gpd.tee.event.maxSources", USER_TA_PROP_TYPE_U32, &zero},
    {"gpd.tee.sockets.version", USER_TA_PROP_TYPE_U32, &sockets_version},
    {"gpd.tee.sockets.tcp.version", USER_TA_PROP_TYPE_U32, &sockets_version},
    {"gpd.tee.sockets.udp.version", USER_TA_PROP_TYPE_U32, &sockets_version},
};

/* Writes the machine's identity text to buf[size]; returns its length, 0 if there is none. */
static size_t machine_id(char *buf, size_t size)
{
	ssize_t r = -1;
	size_t n = 0;
	int fd = open("/etc/machine-id", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		r = read(fd, buf, size);
		close(fd);
	}
	n = r > 0 ? (size_t)r : 0;
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	if (n)
		return n;
	if (gethostname(buf, size))
		return 0;
	buf[size - 1] = '\0'; /* a truncated host name has no NUL */
	return strlen(buf);
}

static void derive_device_id(void)
{
	char msg[sizeof(DEVICE_ID_PREFIX) + MACHINE_ID_MAX];
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	struct swtee_uuid u = {{0}};
	size_t n = sizeof(DEVICE_ID_PREFIX) - 1;

	memcpy(msg, DEVICE_ID_PREFIX, n);
	n += machine_id(msg + n, MACHINE_ID_MAX);
	if (!EVP_Digest(msg, n, md, &mdlen, EVP_sha256(), NULL) || mdlen < sizeof(u.b))
		return; /* the nil UUID */
	memcpy(u.b, md, sizeof(u.b));
	u.b[6] = (uint8_t)((u.b[6] & 0x0f) | 0x50);
	u.b[8] = (uint8_t)((u.b[8] & 0x3f) | 0x80);
	uuid_to_fields(&u, &device_id.timeLow, &device_id.timeMid, &device_id.timeHiAndVersion,
		       device_id.clockSeqAndNode);
}

/* "major.minor.patch[anything]" as (major << 16) | (minor << 8) | patch; 0 if it is not that. */
static uint32_t binary_version(const char *v)
{
	static const unsigned long max[3] = {0xffff, 0xff, 0xff};
	uint32_t out = 0;

	for (size_t i = 0; i < 3; i++) {
		char *end = NULL;
		unsigned long x = 0;

		if (!isdigit((unsigned char)*v))
			return 0;
		x = strtoul(v, &end, 10);
		if (x > max[i] || (i < 2 && *end != '.'))
			return 0;
		out = (out << 8) | (uint32_t)x;
		v = end + 1;
	}
	return out;
}

static void tee_props_compute(void)
{
	derive_device_id();
	trustedos_binary_version = binary_version(SWTEE_VERSION);
	computed = true;
}

/*
 * Runs before main, in the zygote every instance is forked from: an instance
 * runs sandboxed, with no /etc to read and no open() to read it with.
 */
__attribute__((constructor)) static void tee_props_init(void)
{
	tee_props_compute();
}

const struct rt_prop *rt_tee_props(size_t *n)
{
	if (!computed)
		tee_props_compute();
	*n = sizeof(tee_props) / sizeof(tee_props[0]);
	return tee_props;
}
