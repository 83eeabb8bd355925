/*
 * swtee status --properties [UUID|FILE.ta]: the GP property sets as a TA
 * reads them, shown without running one.
 *   - TEE implementation set: the very table the TA runtime answers from
 *     (src/ta_runtime/properties/properties.c), so it cannot disagree.
 *   - Client set: what a TA sees of a client that opens its session with
 *     TEEC_LOGIN_PUBLIC (other logins get the identities of
 *     docs/architecture.md, computed by the core at open).
 *   - TA set, given a TA: what its image states, read from the signed header
 *     and the ELF's .ta_head by the core's TA-image library (ta_image_inspect).
 *     dataSize, version, description and the TA's own properties live in the
 *     TA's property table, which is code-relocated data: reading it would
 *     mean running the TA, so they are named, not shown. The signature is
 *     not checked here (`swtee sign --verify` does that).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "properties.h"
#include "status.h"
#include "ta_image.h"
#include "uuid.h"

static void print_tee_uuid(const TEE_UUID *u)
{
	printf("%08" PRIx32 "-%04" PRIx16 "-%04" PRIx16 "-%02x%02x-%02x%02x%02x%02x%02x%02x",
	       u->timeLow, u->timeMid, u->timeHiAndVersion, u->clockSeqAndNode[0],
	       u->clockSeqAndNode[1], u->clockSeqAndNode[2], u->clockSeqAndNode[3],
	       u->clockSeqAndNode[4], u->clockSeqAndNode[5], u->clockSeqAndNode[6],
	       u->clockSeqAndNode[7]);
}

static void print_prop(const struct rt_prop *p)
{
	printf("  %-58s ", p->name);
	switch (p->type) {
	case USER_TA_PROP_TYPE_BOOL:
		printf("%s\n", *(const bool *)p->value ? "true" : "false");
		break;
	case USER_TA_PROP_TYPE_U32:
		printf("%" PRIu32 " (0x%" PRIx32 ")\n", *(const uint32_t *)p->value,
		       *(const uint32_t *)p->value);
		break;
	case USER_TA_PROP_TYPE_U64:
		printf("%" PRIu64 "\n", *(const uint64_t *)p->value);
		break;
	case USER_TA_PROP_TYPE_UUID:
		print_tee_uuid(p->value);
		printf("\n");
		break;
	case USER_TA_PROP_TYPE_IDENTITY:
		printf("login 0x%08" PRIx32 ", ", ((const TEE_Identity *)p->value)->login);
		print_tee_uuid(&((const TEE_Identity *)p->value)->uuid);
		printf("\n");
		break;
	case USER_TA_PROP_TYPE_STRING:
		printf("\"%s\"\n", (const char *)p->value);
		break;
	case USER_TA_PROP_TYPE_BINARY_BLOCK:
		printf("%s (base64)\n", (const char *)p->value);
		break;
	default:
		printf("?\n");
		break;
	}
}

static void print_set(const char *title, const struct rt_prop *props, size_t n)
{
	printf("%s\n", title);
	for (size_t i = 0; i < n; i++)
		print_prop(&props[i]);
}

/* Reads the whole file at path (at most max bytes) into *buf. */
static int read_file(const char *path, size_t max, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	uint8_t *p = NULL;
	size_t n = 0;
	int rc = -1;

	*buf = NULL;
	*len = 0;
	if (!f)
		return -1;
	p = malloc(max + 1);
	if (!p)
		goto out;
	n = fread(p, 1, max + 1, f);
	if (ferror(f) || n > max)
		goto out;
	*buf = p;
	p = NULL; /* transferred */
	*len = n;
	rc = 0;
out:
	free(p);
	fclose(f);
	return rc;
}

/* A UUID names an installed TA; anything else is a path. */
static int ta_path(const char *arg, char *path, size_t n)
{
	struct swtee_uuid u;
	char name[SWTEE_UUID_STR_LEN + 3];
	char dir[SWTEE_PATH_MAX];

	if (!uuid_parse(arg, &u)) {
		if (strlen(arg) >= n)
			return -1;
		strcpy(path, arg);
		return 0;
	}
	uuid_format(&u, name);
	strcat(name, ".ta");
	if (paths_sibling("../lib/swtee/ta", dir, sizeof(dir)))
		return -1;
	return paths_join(path, n, dir, name);
}

/* The TA set from the image at path; 0, or 1 with a message. */
static int print_ta_set(const char *arg)
{
	char path[SWTEE_PATH_MAX];
	char why[160] = "";
	char text[SWTEE_UUID_STR_LEN];
	struct ta_image_info info = {0};
	uint8_t *img = NULL;
	size_t len = 0;
	uint32_t stack = 0;
	uint32_t flags = 0;
	int rc = 1;

	if (ta_path(arg, path, sizeof(path))) {
		fprintf(stderr, "swtee status: path too long: %s\n", arg);
		return 1;
	}
	if (read_file(path, SHDR_MAX_IMG_SIZE + 64 * 1024, &img, &len)) {
		fprintf(stderr, "swtee status: cannot read %s: %s\n", path, strerror(errno));
		goto out;
	}
	/* Shown, not trusted: the signature is not checked here. */
	if (ta_image_inspect(img, len, &info, why, sizeof(why))) {
		fprintf(stderr, "swtee status: %s: %s\n", path, why);
		goto out;
	}
	stack = info.stack_size;
	flags = info.flags;
	uuid_format(&info.uuid, text);
	printf("TA properties (TEE_PROPSET_CURRENT_TA), from %s\n", path);
	printf("  %-58s %s\n", "gpd.ta.appID", text);
	printf("  %-58s %s\n", "gpd.ta.singleInstance",
	       (flags & TA_FLAG_SINGLE_INSTANCE) ? "true" : "false");
	printf("  %-58s %s\n", "gpd.ta.multiSession",
	       (flags & TA_FLAG_MULTI_SESSION) ? "true" : "false");
	printf("  %-58s %s\n", "gpd.ta.instanceKeepAlive",
	       (flags & TA_FLAG_INSTANCE_KEEP_ALIVE) ? "true" : "false");
	printf("  %-58s %" PRIu32 "\n", "gpd.ta.stackSize",
	       stack > TA_FRAMEWORK_STACK_SIZE ? stack - TA_FRAMEWORK_STACK_SIZE : 0);
	printf("  %-58s 0 (little-endian)\n", "gpd.ta.endian");
	printf("  %-58s %s\n", "gpd.ta.doesNotCloseHandleOnCorruptObject",
	       (flags & TA_FLAG_DONT_CLOSE_HANDLE_ON_CORRUPT_OBJECT) ? "true" : "false");
	printf("  %-58s %s\n", "optee.ta.instanceKeepCrashed",
	       (flags & TA_FLAG_INSTANCE_KEEP_CRASHED) ? "true" : "false");
	printf("  (image version %" PRIu32 "; gpd.ta.dataSize, gpd.ta.version, "
	       "gpd.ta.description and the TA's own\n   properties are in its property table: "
	       "the TA reads them with TEE_GetPropertyAs*)\n",
	       info.ta_version);
	rc = 0;
out:
	free(img);
	return rc;
}

int swtee_status_props(const char *ta)
{
	static const TEE_Identity public_identity = {.login = TEE_LOGIN_PUBLIC};
	static const uint32_t little_endian;
	const struct rt_prop client[] = {
	    {"gpd.client.identity", USER_TA_PROP_TYPE_IDENTITY, &public_identity},
	    {"gpd.client.endian", USER_TA_PROP_TYPE_U32, &little_endian},
	};
	size_t n = 0;
	const struct rt_prop *tee = rt_tee_props(&n);

	print_set("TEE implementation properties (TEE_PROPSET_TEE_IMPLEMENTATION)", tee, n);
	print_set(
	    "\nClient properties (TEE_PROPSET_CURRENT_CLIENT), for a TEEC_LOGIN_PUBLIC client",
	    client, sizeof(client) / sizeof(client[0]));
	if (!ta)
		return 0;
	printf("\n");
	return print_ta_set(ta);
}
