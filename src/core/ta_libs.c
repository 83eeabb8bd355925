/*
 * The TA libraries a TA needs. A TA linked with a library built with
 * SHLIBNAME/SHLIBUUID names it in its DT_NEEDED by UUID (the library's
 * soname); each such library is found on the TA path and verified as TA
 * images are (signed header, then its own checks: ta_elf_check_lib), then
 * the libraries it needs in turn. DT_NEEDED names that are not UUIDs (the C
 * library) are the host's and left to the dynamic loader.
 *
 * The walk is depth first and resumable: each library comes from the
 * supplicant as an event (session_open.c), so the walk stops at every
 * library it needs and goes on when that library has been verified.
 */
#include <string.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "core.h"
#include "log.h"

static bool listed(const struct ta_libs *l, const struct swtee_uuid *u)
{
	for (size_t i = 0; i < l->n; i++)
		if (uuid_equal(&l->uuid[i], u))
			return true;
	return false;
}

/* Reads what the ELF on f->fd needs into f: the UUID names only. */
static uint32_t frame_read(struct lib_walk *w, struct lib_frame *f)
{
	struct elf_needed need[ELF_DYN_NEEDED_MAX];
	int n = elf_needed_list(f->fd, need, ELF_DYN_NEEDED_MAX);

	f->n = 0;
	f->next = 0;
	if (n < 0) {
		log_error("TA %s: a malformed dynamic section in it or one of its libraries",
			  w->ta);
		return TEEC_ERROR_BAD_FORMAT;
	}
	for (int i = 0; i < n; i++)
		if (uuid_parse(need[i].name, &f->need[f->n]))
			f->n++;
	return TEEC_SUCCESS;
}

uint32_t ta_libs_begin(struct lib_walk *w, const struct swtee_uuid *ta, int elf_fd)
{
	uint32_t res = 0;

	w->libs.n = 0;
	w->depth = 0;
	uuid_format(ta, w->ta);
	w->frame[0].fd = elf_fd;
	w->frame[0].uuid = *ta;
	res = frame_read(w, &w->frame[0]);
	if (res)
		w->frame[0].fd = -1;
	return res;
}

/* Is u being visited, that is, does a library on the path need itself? */
static bool on_path(const struct lib_walk *w, const struct swtee_uuid *u)
{
	for (size_t k = 1; k <= w->depth; k++)
		if (uuid_equal(&w->frame[k].uuid, u))
			return true;
	return false;
}

enum lib_walk_next ta_libs_next(struct lib_walk *w, struct swtee_uuid *want, uint32_t *res)
{
	char name[SWTEE_UUID_STR_LEN];

	*res = TEEC_SUCCESS;
	for (;;) {
		struct lib_frame *f = &w->frame[w->depth];

		while (f->next < f->n && listed(&w->libs, &f->need[f->next]))
			f->next++;
		if (f->next < f->n) {
			*want = f->need[f->next];
			uuid_format(want, name);
			if (on_path(w, want)) {
				log_error("TA %s: its libraries need each other (%s): refused",
					  w->ta, name);
				*res = TEEC_ERROR_BAD_FORMAT;
				return LIB_WALK_FAILED;
			}
			/* Those listed, those being visited and this one are all distinct. */
			if (w->libs.n + w->depth + 1 > PROTO_LIBS_MAX) {
				log_error("TA %s: needs more than %d TA libraries (%s is one too "
					  "many)",
					  w->ta, PROTO_LIBS_MAX, name);
				*res = TEEC_ERROR_OUT_OF_MEMORY;
				return LIB_WALK_FAILED;
			}
			return LIB_WALK_NEED;
		}
		if (!w->depth)
			return LIB_WALK_DONE;
		/* Everything f needs is listed: f follows it. */
		w->libs.uuid[w->libs.n] = f->uuid;
		memcpy(w->libs.digest[w->libs.n], f->digest, sizeof(f->digest));
		w->libs.fd[w->libs.n++] = f->fd;
		f->fd = -1;
		w->depth--;
	}
}

uint32_t ta_libs_push(struct lib_walk *w, int lib_fd, const uint8_t digest[PROTO_ATTEST_DIGEST_LEN])
{
	struct lib_frame *parent = &w->frame[w->depth];
	struct lib_frame *f = &w->frame[w->depth + 1];
	uint32_t res = 0;

	f->fd = lib_fd;
	memcpy(f->digest, digest, sizeof(f->digest));
	f->uuid = parent->need[parent->next++];
	res = frame_read(w, f);
	if (res) {
		close(lib_fd);
		f->fd = -1;
		return res;
	}
	w->depth++;
	return TEEC_SUCCESS;
}

void ta_libs_abandon(struct lib_walk *w)
{
	for (size_t k = 1; k <= w->depth; k++)
		close(w->frame[k].fd);
	w->depth = 0;
	ta_libs_close(&w->libs);
}

void ta_libs_close(struct ta_libs *l)
{
	for (size_t i = 0; i < l->n; i++)
		close(l->fd[i]);
	l->n = 0;
}
