/*
 * The keys the core trusts to sign TAs: the kit's, built in, and each
 * --ta-key file, which may list before its PEM block the TA UUIDs its key
 * may sign. A key signs only what its scope allows: developer B's key,
 * scoped to B's UUIDs, cannot sign a TA under developer A's UUID and so
 * reach A's trusted storage.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <tee_client_api.h>

#include "core.h"
#include "log.h"
#include "ta_image.h"

extern const unsigned char swtee_ta_pubkey_pem[];
extern const unsigned int swtee_ta_pubkey_pem_len;

/*
 * The lines of a TA key file before its PEM block: comments ('#'), blank
 * lines and "uuid UUID", each a TA UUID the key may sign (none: any).
 * Returns 0, or -1 with the reason logged.
 */
static int key_scope_parse(const char *file, const char *text, size_t len, struct key_scope *ks)
{
	const char *p = text;
	const char *end = text + len;
	unsigned line = 0;

	snprintf(ks->file, sizeof(ks->file), "%s", file);
	ks->n = 0;
	while (p < end && !((size_t)(end - p) >= 10 && memcmp(p, "-----BEGIN", 10) == 0)) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char u[SWTEE_UUID_STR_LEN + 1];

		line++;
		if (n == 0 || p[0] == '#') {
			p += n + 1;
			continue;
		}
		if (n != 5 + SWTEE_UUID_STR_LEN - 1 || memcmp(p, "uuid ", 5) != 0 ||
		    ks->n >= CORE_KEY_UUIDS) {
			log_error(
			    "TA key %s, line %u: expected 'uuid UUID' (at most %d), a comment or "
			    "the PEM block",
			    file, line, CORE_KEY_UUIDS);
			return -1;
		}
		memcpy(u, p + 5, SWTEE_UUID_STR_LEN - 1);
		u[SWTEE_UUID_STR_LEN - 1] = '\0';
		if (!uuid_parse(u, &ks->uuid[ks->n])) {
			log_error("TA key %s, line %u: '%s' is not a UUID", file, line, u);
			return -1;
		}
		ks->n++;
		p += n + 1;
	}
	return 0;
}

int ta_keys_load(struct core *c, char **extra, size_t nextra)
{
	EVP_PKEY *k =
	    ta_image_load_pubkey_pem((const char *)swtee_ta_pubkey_pem, swtee_ta_pubkey_pem_len);

	if (!k) {
		log_error("the built-in TA key does not load");
		return -1;
	}
	snprintf(c->key_scope[0].file, sizeof(c->key_scope[0].file), "built-in");
	c->keys[c->nkeys++] = k;
	for (size_t i = 0; i < nextra; i++) {
		char buf[16384];
		FILE *f = fopen(extra[i], "re");
		size_t n = 0;

		if (!f) {
			log_error("cannot read TA key %s: %s", extra[i], strerror(errno));
			return -1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		if (n >= sizeof(buf) || key_scope_parse(extra[i], buf, n, &c->key_scope[c->nkeys]))
			return -1;
		k = ta_image_load_pubkey_pem(buf, n);
		if (!k || c->nkeys >= CORE_MAX_KEYS) {
			log_error("TA key %s is not a usable RSA public key", extra[i]);
			EVP_PKEY_free(k);
			return -1;
		}
		if (!c->key_scope[c->nkeys].n)
			log_info("TA key %s may sign any UUID (list those it may sign as 'uuid "
				 "UUID' lines before its PEM block)",
				 extra[i]);
		c->keys[c->nkeys++] = k;
	}
	return 0;
}

static bool key_may_sign(const struct key_scope *ks, const struct swtee_uuid *uuid)
{
	if (!ks->n)
		return true;
	for (size_t i = 0; i < ks->n; i++)
		if (uuid_equal(&ks->uuid[i], uuid))
			return true;
	return false;
}

static int verify_with(const uint8_t *img, size_t len, const struct swtee_uuid *uuid, bool lib,
		       EVP_PKEY *const *keys, size_t nkeys, struct ta_image_info *info, char *why,
		       size_t whylen)
{
	return lib ? ta_image_verify_lib(img, len, uuid, keys, nkeys, info, why, whylen)
		   : ta_image_verify(img, len, uuid, keys, nkeys, info, why, whylen);
}

uint32_t ta_keys_verify(const struct core *c, const uint8_t *img, size_t len,
			const struct swtee_uuid *uuid, bool lib, struct ta_image_info *info,
			const char *what)
{
	EVP_PKEY *allowed[CORE_MAX_KEYS];
	char name[SWTEE_UUID_STR_LEN];
	char why[256];
	size_t n = 0;

	uuid_format(uuid, name);
	for (size_t i = 0; i < c->nkeys; i++)
		if (key_may_sign(&c->key_scope[i], uuid))
			allowed[n++] = c->keys[i];
	if (!verify_with(img, len, uuid, lib, allowed, n, info, why, sizeof(why)))
		return TEEC_SUCCESS;
	/* Refused: if a key that may not sign this UUID signed it, say which. */
	for (size_t i = 0; i < c->nkeys; i++) {
		struct ta_image_info other;
		char ignored[256];

		if (key_may_sign(&c->key_scope[i], uuid) ||
		    verify_with(img, len, uuid, lib, &c->keys[i], 1, &other, ignored,
				sizeof(ignored)))
			continue;
		log_error("%s %s: signed by TA key %s, which may not sign this UUID (it lists %zu "
			  "other%s); image refused",
			  what, name, c->key_scope[i].file, c->key_scope[i].n,
			  c->key_scope[i].n == 1 ? "" : "s");
		return TEEC_ERROR_SECURITY;
	}
	log_error("%s %s: image refused: %s", what, name, why);
	return TEEC_ERROR_SECURITY;
}
