/*
 * The attestation pseudo-TA's requests to the core (MSG_CTL_ATTEST): the
 * measurements only the core can make. The pseudo-TA's instance holds the
 * signing key and signs them (src/ta_runtime/pta_attest.c); the core only
 * measures:
 *   - the TEE: SHA-256 over the read-only segments of swteed's executable
 *     (code and constants) as they are mapped now;
 *   - a TA or TA library image: its signed header digest, from the image
 *     the supplicant hands over (or the TA installed in the secure dir),
 *     verified as a load verifies it; the request waits for it in
 *     image_wait.c;
 *   - a TA instance, the one that opened the asking session: SHA-256 of the
 *     digests of its TA and libraries, kept from when it started.
 */
/* glibc's dl_iterate_phdr, not the one the kit's <link.h> gives a TA */
#define SWTEE_TA_RUNTIME
#include <link.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "core.h"
#include "log.h"
#include "proto.h"
#include "image_wait.h"
#include "pta_image.h"
#include "ta_image.h"

static void reply(struct instance *in, uint32_t res, const uint8_t *digest)
{
	uint8_t out[8 + PROTO_ATTEST_DIGEST_LEN];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_ATTEST_RSP);
	buf_put_u32(&w, res);
	if (!res)
		buf_put_bytes(&w, digest, PROTO_ATTEST_DIGEST_LEN);
	if (instance_send(in, out, buf_written(&w), NULL, 0))
		instance_kill(in, "does not take the answer to its request");
}

struct tee_hash {
	EVP_MD_CTX *md;
	int ok;
};

/* The first object dl_iterate_phdr visits is the executable itself. */
static int hash_program(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct tee_hash *h = arg;

	(void)size;
	for (ElfW(Half) i = 0; h->ok && i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W))
			h->ok = EVP_DigestUpdate(
			    h->md, (const void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz);
	}
	return 1;
}

static uint32_t measure_tee(uint8_t digest[PROTO_ATTEST_DIGEST_LEN])
{
	struct tee_hash h = {.md = EVP_MD_CTX_new()};

	h.ok = h.md && EVP_DigestInit_ex(h.md, EVP_sha256(), NULL);
	if (h.ok)
		dl_iterate_phdr(hash_program, &h);
	h.ok = h.ok && EVP_DigestFinal_ex(h.md, digest, NULL);
	EVP_MD_CTX_free(h.md);
	return h.ok ? TEEC_SUCCESS : TEEC_ERROR_GENERIC;
}

/* The instance that opened session sid on in, if a TA instance did. */
static uint32_t measure_caller(const struct instance *in, uint32_t sid,
			       uint8_t digest[PROTO_ATTEST_DIGEST_LEN])
{
	for (const struct session_ref *s = in->sessions; s; s = s->next) {
		if (s->id != sid)
			continue;
		if (!s->owner_inst || s->owner_inst->destroying)
			return TEEC_ERROR_ACCESS_DENIED;
		/* Its TA's and libraries' digests, one after the other in load order. */
		return EVP_Digest(s->owner_inst->code_digest,
				  s->owner_inst->ncode * PROTO_ATTEST_DIGEST_LEN, digest, NULL,
				  EVP_sha256(), NULL)
			   ? TEEC_SUCCESS
			   : TEEC_ERROR_GENERIC;
	}
	return TEEC_ERROR_ACCESS_DENIED;
}

/*
 * Is the image on fd a TA library, as far as its bytes say before any check
 * (no .ta_head)? Only picks which checks supplicant_image_verify makes.
 */
static bool image_is_lib(int fd)
{
	struct ta_image_info info;
	char why[128];
	uint8_t *img = NULL;
	size_t len = 0;
	bool lib = false;

	if (!supplicant_read_image(fd, &img, &len))
		lib = ta_image_inspect(img, len, &info, why, sizeof(why)) == TA_IMAGE_E_ELF;
	free(img);
	return lib;
}

/* The image on file_fd (taken, -1 for none), verified: its signed header digest. */
static void image_measured(struct core *c, struct instance *in, const struct swtee_uuid *uuid,
			   uint32_t res, int file_fd)
{
	struct ta_facts facts = {0};
	int elf_fd = -1;

	if (!res)
		res = supplicant_image_verify(c, uuid, image_is_lib(file_fd), file_fd, &elf_fd,
					      &facts);
	else if (file_fd >= 0)
		close(file_fd);
	if (elf_fd >= 0)
		close(elf_fd);
	if (in)
		reply(in, res, facts.digest);
}

void pta_attest_request(struct core *c, struct instance *in, struct buf_reader *r,
			const struct msg_fds *fds)
{
	uint8_t digest[PROTO_ATTEST_DIGEST_LEN] = {0};
	struct swtee_uuid uuid;
	uint32_t what = 0;
	uint32_t sid = 0;

	buf_get_u32(r, &what);
	if (what == PROTO_ATTEST_TA_IMAGE)
		buf_get_bytes(r, uuid.b, sizeof(uuid.b));
	else if (what == PROTO_ATTEST_TA_MEMORY)
		buf_get_u32(r, &sid);
	if (!buf_done(r) || fds->n || !pta_is_attestation(&in->uuid) || what < PROTO_ATTEST_TEE ||
	    what > PROTO_ATTEST_TA_MEMORY) {
		instance_kill(in, "sent an attestation request it may not send");
		return;
	}
	switch (what) {
	case PROTO_ATTEST_TEE:
		reply(in, measure_tee(digest), digest);
		break;
	case PROTO_ATTEST_TA_MEMORY:
		reply(in, measure_caller(in, sid, digest), digest);
		break;
	default:
		if (image_wait_pending(in->id))
			instance_kill(in,
				      "asked for a second TA image digest while one is pending");
		else
			image_wait_start(c, in, &uuid, image_measured);
		break;
	}
}
