/*
 * TAs installed into the secure dir through the secure-storage TA-management
 * pseudo-TA (pta_secstor_ta_mgmt.h, xtest --install-ta): the image is
 * verified as a load verifies it (signature, key scope, version floor)
 * before it is stored as tas/<uuid>.ta, and again at every load, when the
 * TA path has no image of that UUID. Only root and the core's own user may
 * install: an installed TA is every user's, and its version raises the
 * floor for the UUID.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "core.h"
#include "storage/storage.h"
#include "log.h"
#include "paths.h"
#include "proto.h"
#include "pta_image.h"
#include "ta_image.h"
#include "ta_version.h"

#define STORE_DIR "tas"

/* The store's directory in the secure dir: 0, or -1 without one. */
static int store_dir(char *out, size_t n)
{
	return keys_secure_dir() ? paths_join(out, n, keys_secure_dir(), STORE_DIR) : -1;
}

int ta_store_open(const struct swtee_uuid *uuid)
{
	char dir[SWTEE_PATH_MAX], path[SWTEE_PATH_MAX], name[SWTEE_UUID_STR_LEN];

	uuid_format(uuid, name);
	if (store_dir(dir, sizeof(dir)) ||
	    snprintf(path, sizeof(path), "%s/%s.ta", dir, name) >= (int)sizeof(path))
		return -1;
	return open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
}

/* img[0..len) as tas/<uuid>.ta: aside, synced, renamed. */
static uint32_t image_store(const struct swtee_uuid *uuid, const uint8_t *img, size_t len)
{
	char dir[SWTEE_PATH_MAX], id[SWTEE_UUID_STR_LEN], name[SWTEE_UUID_STR_LEN + 8];

	uuid_format(uuid, id);
	snprintf(name, sizeof(name), "%s.ta", id);
	if (store_dir(dir, sizeof(dir)))
		return TEEC_ERROR_OUT_OF_MEMORY;
	if ((mkdir(dir, 0700) && errno != EEXIST) || paths_replace_file(dir, name, img, len)) {
		log_error("cannot store an installed TA in %s: %s", dir, strerror(errno));
		return TEEC_ERROR_STORAGE_NO_SPACE;
	}
	return TEEC_SUCCESS;
}

/* Verified as a load verifies it, then stored: TEEC_SUCCESS or why not, logged. */
static uint32_t install(struct core *c, const uint8_t *img, size_t len)
{
	struct ta_image_info head, info;
	char why[160];
	uint32_t res = 0;

	if (ta_image_inspect(img, len, &head, why, sizeof(why))) {
		log_error("TA install: refused: %s", why);
		return TEEC_ERROR_SECURITY;
	}
	res = ta_keys_verify(c, img, len, &head.uuid, false, &info, "TA");
	if (res)
		return TEEC_ERROR_SECURITY;
	res = ta_version_accept(&info.uuid, info.ta_version, "TA");
	if (res)
		return res;
	res = image_store(&info.uuid, img, len);
	if (!res) {
		char name[SWTEE_UUID_STR_LEN];

		uuid_format(&info.uuid, name);
		log_info("TA %s: installed into the secure dir (version %u)", name,
			 info.ta_version);
	}
	return res;
}

void ta_store_request(struct core *c, struct instance *in, struct buf_reader *r,
		      const struct msg_fds *fds)
{
	uint8_t out[8];
	struct buf_writer w;
	uint32_t res = TEEC_ERROR_ACCESS_DENIED;
	uint8_t *img = NULL;
	size_t len = 0;

	if (!buf_done(r) || fds->n != 1 || !pta_is_secstor(&in->uuid)) {
		instance_kill(in, "sent a TA install request it may not send");
		return;
	}
	if (!keys_secure_dir()) {
		res = TEEC_ERROR_NOT_SUPPORTED;
	} else if (in->uid == 0 || in->uid == geteuid()) {
		/* The memfd the pseudo-TA filled, of at most TA_IMAGE_MAX bytes. */
		res = supplicant_read_image(fds->fd[0], &img, &len) ? TEEC_ERROR_BAD_PARAMETERS
								    : install(c, img, len);
	} else {
		log_error(
		    "TA install: refused to user %u: only root and the TEE's user install TAs",
		    (unsigned)in->uid);
	}
	free(img);
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_TA_INSTALL_RSP);
	buf_put_u32(&w, res);
	if (instance_send(in, out, buf_written(&w), NULL, 0))
		instance_kill(in, "does not take the answer to its request");
}
