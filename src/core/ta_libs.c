/*
 * The TA libraries a TA needs. A TA linked with a library built with
 * SHLIBNAME/SHLIBUUID names it in its DT_NEEDED by UUID (the library's
 * soname); each such library is found on the TA path and verified as TA
 * images are (signed header, then its own checks: ta_elf_check_lib), then
 * the libraries it needs in turn. DT_NEEDED names that are not UUIDs (the C
 * library) are the host's and left to the dynamic loader.
 */
#include <unistd.h>

#include <tee_client_api.h>

#include "core.h"
#include "elf_dyn.h"
#include "log.h"

static bool listed(const struct ta_libs *l, const struct swtee_uuid *u)
{
	for (size_t i = 0; i < l->n; i++)
		if (uuid_equal(&l->uuid[i], u))
			return true;
	return false;
}

/*
 * Adds what the ELF on fd needs to l, each after its own needs. path[depth]
 * holds the libraries being visited, to refuse a cycle.
 */
static uint32_t visit(struct core *c, const char *ta, int fd, struct ta_libs *l,
		      struct swtee_uuid *path, size_t depth)
{
	struct elf_needed need[ELF_DYN_NEEDED_MAX];
	int n = elf_needed_list(fd, need, ELF_DYN_NEEDED_MAX);
	char name[SWTEE_UUID_STR_LEN];

	if (n < 0) {
		log_error("TA %s: a malformed dynamic section in it or one of its libraries", ta);
		return TEEC_ERROR_BAD_FORMAT;
	}
	for (int i = 0; i < n; i++) {
		struct swtee_uuid u;
		uint32_t res = 0;
		int lib_fd = -1;

		if (!uuid_parse(need[i].name, &u) || listed(l, &u))
			continue;
		uuid_format(&u, name);
		for (size_t k = 0; k < depth; k++)
			if (uuid_equal(&path[k], &u)) {
				log_error("TA %s: its libraries need each other (%s): refused", ta,
					  name);
				return TEEC_ERROR_BAD_FORMAT;
			}
		/* Those listed, those being visited (path) and this one are all distinct. */
		if (l->n + depth + 1 > PROTO_LIBS_MAX) {
			log_error("TA %s: needs more than %d TA libraries (%s is one too many)", ta,
				  PROTO_LIBS_MAX, name);
			return TEEC_ERROR_OUT_OF_MEMORY;
		}
		res = supplicant_load_lib(c, &u, &lib_fd);
		if (res) {
			log_error("TA %s: needs TA library %s, which %s", ta, name,
				  res == TEEC_ERROR_ITEM_NOT_FOUND ? "is not on the TA path"
								   : "was refused (see above)");
			return res;
		}
		path[depth] = u;
		res = visit(c, ta, lib_fd, l, path, depth + 1);
		if (res) {
			close(lib_fd);
			return res;
		}
		l->uuid[l->n] = u;
		l->fd[l->n++] = lib_fd;
	}
	return TEEC_SUCCESS;
}

uint32_t ta_libs_resolve(struct core *c, const struct swtee_uuid *ta, int elf_fd, struct ta_libs *l)
{
	struct swtee_uuid path[PROTO_LIBS_MAX];
	char name[SWTEE_UUID_STR_LEN];
	uint32_t res = 0;

	l->n = 0;
	uuid_format(ta, name);
	res = visit(c, name, elf_fd, l, path, 0);
	if (res)
		ta_libs_close(l);
	return res;
}

void ta_libs_close(struct ta_libs *l)
{
	for (size_t i = 0; i < l->n; i++)
		close(l->fd[i]);
	l->n = 0;
}
