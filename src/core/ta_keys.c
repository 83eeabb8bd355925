/*
 * The keys the core trusts to sign TAs: the kit's, built in, and each
 * --ta-key file, which may list before its PEM block the TA UUIDs its key
 * may sign. A key signs only what its scope allows: developer B's key,
 * scoped to B's UUIDs, cannot sign a TA under developer A's UUID and so
 * reach A's trusted storage.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <tee_client_api.h>

#include "core.h"
#include "log.h"
#include "paths.h"
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

/* Loads the key file path into the next slot. Returns 0, or -1, logged. */
static int key_file_load(struct core *c, const char *path)
{
	char buf[16384];
	FILE *f = NULL;
	EVP_PKEY *k = NULL;
	size_t n = 0;

	if (c->nkeys >= CORE_MAX_KEYS) {
		log_error("TA key %s: at most %d keys are trusted", path, CORE_MAX_KEYS);
		return -1;
	}
	f = fopen(path, "re");
	if (!f) {
		log_error("cannot read TA key %s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n >= sizeof(buf) || key_scope_parse(path, buf, n, &c->key_scope[c->nkeys]))
		return -1;
	k = ta_image_load_pubkey_pem(buf, n);
	if (!k) {
		log_error("TA key %s is not a usable RSA public key", path);
		return -1;
	}
	if (!c->key_scope[c->nkeys].n)
		log_info("TA key %s may sign any UUID (list those it may sign as 'uuid UUID' lines "
			 "before its PEM block)",
			 path);
	c->keys[c->nkeys++] = k;
	return 0;
}

/* Whoever may write st's file could make the core trust a key of theirs. */
static bool writable_by_others(const struct stat *st)
{
	return (st->st_uid != 0 && st->st_uid != geteuid()) || (st->st_mode & (S_IWGRP | S_IWOTH));
}

static int pem_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 4 && !strcmp(d->d_name + n - 4, ".pem");
}

/* Every *.pem of dir, in name order. Returns 0 (also for no dir), or -1, logged. */
static int key_dir_load(struct core *c, const char *dir)
{
	struct dirent **names = NULL;
	struct stat st;
	int n = 0;
	int rc = 0;

	if (lstat(dir, &st)) {
		if (errno == ENOENT)
			return 0;
		log_error("TA key dir %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || writable_by_others(&st)) {
		log_error("TA key dir %s: not a directory that only root or this user may write; "
			  "no key of it is trusted",
			  dir);
		return -1;
	}
	n = scandir(dir, &names, pem_name, alphasort);
	if (n < 0) {
		log_error("TA key dir %s: %s", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[SWTEE_PATH_MAX];

		if (!rc && (paths_join(path, sizeof(path), dir, names[i]->d_name) ||
			    lstat(path, &st) || !S_ISREG(st.st_mode) || writable_by_others(&st))) {
			log_error("TA key %s/%s: not a regular file that only root or this user "
				  "may write",
				  dir, names[i]->d_name);
			rc = -1;
		}
		if (!rc)
			rc = key_file_load(c, path);
		free(names[i]);
	}
	free(names);
	return rc;
}

int ta_keys_load(struct core *c, char **extra, size_t nextra, const char *dir)
{
	EVP_PKEY *k =
	    ta_image_load_pubkey_pem((const char *)swtee_ta_pubkey_pem, swtee_ta_pubkey_pem_len);

	if (!k) {
		log_error("the built-in TA key does not load");
		return -1;
	}
	snprintf(c->key_scope[0].file, sizeof(c->key_scope[0].file), "built-in");
	c->keys[c->nkeys++] = k;
	for (size_t i = 0; i < nextra; i++)
		if (key_file_load(c, extra[i]))
			return -1;
	return dir ? key_dir_load(c, dir) : 0;
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

/* "3072-bit RSA, SHA-256 1a2b3c4d5e6f7081": a key's size and the start of its fingerprint. */
static void key_describe(EVP_PKEY *k, char *out, size_t n)
{
	unsigned char *der = NULL;
	unsigned char md[32];
	unsigned int mdlen = 0;
	int len = i2d_PUBKEY(k, &der);
	int w = 0;

	if (len <= 0 || !EVP_Digest(der, (size_t)len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen < 8) {
		snprintf(out, n, "%d-bit RSA", EVP_PKEY_get_bits(k));
		OPENSSL_free(der);
		return;
	}
	w = snprintf(out, n, "%d-bit RSA, SHA-256 ", EVP_PKEY_get_bits(k));
	for (unsigned i = 0; i < 8 && w > 0 && (size_t)w < n; i++)
		w += snprintf(out + w, n - (size_t)w, "%02x", md[i]);
	OPENSSL_free(der);
}

/* The refusal of an image no trusted key signed: which keys are trusted, and how to add one. */
static void log_untrusted(const struct core *c, const char *what, const char *name, const char *why)
{
	char list[1024];
	int w = 0;

	list[0] = '\0';
	for (size_t i = 0; i < c->nkeys && w >= 0 && (size_t)w < sizeof(list); i++) {
		char d[64];

		key_describe(c->keys[i], d, sizeof(d));
		w += snprintf(list + w, sizeof(list) - (size_t)w, "%s%s (%s)", i ? "; " : "",
			      c->key_scope[i].file, d);
	}
	log_error("%s %s: image refused: not signed by a key this TEE trusts (%s); trusted: %s. "
		  "Trust its key with swtee run --ta-key PEM, swteed --ta-key PEM or a file in "
		  "swteed's --ta-key-dir",
		  what, name, why, list);
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
	int rc = 0;

	uuid_format(uuid, name);
	for (size_t i = 0; i < c->nkeys; i++)
		if (key_may_sign(&c->key_scope[i], uuid))
			allowed[n++] = c->keys[i];
	rc = verify_with(img, len, uuid, lib, allowed, n, info, why, sizeof(why));
	if (!rc)
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
	if (rc == TA_IMAGE_E_SIGNATURE)
		log_untrusted(c, what, name, why);
	else
		log_error("%s %s: image refused: %s", what, name, why);
	return TEEC_ERROR_SECURITY;
}
