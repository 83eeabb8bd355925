/*
 * The key chain of the trusted storage and the primitives it uses.
 *
 *   HUK  32 random bytes, made on first start, kept 0600 in the secure dir
 *   SSK  = HMAC-SHA256(HUK, "swtee storage key")
 *   K_rpmb = HMAC-SHA256(HUK, "swtee rpmb key")
 *   TSK  = HMAC-SHA256(SSK, "ta" || uuid), per TA; from it the keys of the
 *          TA's directory snapshots and journal
 *   FEK  random per object, kept in the (sealed) directory
 *   K_unique = HMAC-SHA256(HUK, "swtee ta unique key"); a TA's unique key
 *          (the system pseudo-TA) = HMAC-SHA256(K_unique, uuid || extra),
 *          cut to the length asked for
 *
 * The HUK is wiped once the SSK, K_rpmb and K_unique are derived; those
 * live in locked memory until the core stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys.h"
#include "log.h"
#include "paths.h"
#include "secure.h"

#define HUK_LEN 32
#define HUK_FILE "huk"

static uint8_t *ssk;
static uint8_t *rpmb_key;
static uint8_t *unique_key;
static char secure_dir[SWTEE_PATH_MAX];

int crypt_random(void *p, size_t n)
{
	/* OpenSSL's DRBG: seeded from the kernel, no system call per IV. */
	return n > INT32_MAX || RAND_bytes(p, (int)n) != 1 ? -1 : 0;
}

void crypt_sha256(const void *p, size_t n, uint8_t out[STOR_HASH])
{
	unsigned int len = 0;

	EVP_Digest(p, n, out, &len, EVP_sha256(), NULL);
}

void crypt_hmac(const uint8_t key[STOR_KEY], const void *a, size_t an, const void *b, size_t bn,
		uint8_t out[STOR_HASH])
{
	uint8_t buf[512];
	unsigned int len = 0;

	/* Every use is a short label and a short value. */
	if (an + bn > sizeof(buf) || an > sizeof(buf)) {
		memset(out, 0, STOR_HASH);
		return;
	}
	memcpy(buf, a, an);
	if (bn)
		memcpy(buf + an, b, bn);
	HMAC(EVP_sha256(), key, STOR_KEY, buf, an + bn, out, &len);
	secure_wipe(buf, an + bn);
}

EVP_CIPHER_CTX *crypt_ctx_new(const uint8_t key[STOR_KEY])
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (!ctx)
		return NULL;
	if (!EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL, 1) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, STOR_IV, NULL) ||
	    !EVP_CipherInit_ex(ctx, NULL, NULL, key, NULL, 1)) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

static int gcm(EVP_CIPHER_CTX *ctx, int enc, const uint8_t iv[STOR_IV], const void *aad,
	       size_t aadlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[STOR_TAG])
{
	int n = 0;

	if (len > INT32_MAX || aadlen > INT32_MAX)
		return -1;
	if (!EVP_CipherInit_ex(ctx, NULL, NULL, NULL, iv, enc))
		return -1;
	if (aadlen && !EVP_CipherUpdate(ctx, NULL, &n, aad, (int)aadlen))
		return -1;
	if (len && !EVP_CipherUpdate(ctx, out, &n, in, (int)len))
		return -1;
	if (!enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, STOR_TAG, tag))
		return -1;
	/* No plaintext (a header's tag only) comes with out NULL: NULL + 0 is undefined. */
	if (EVP_CipherFinal_ex(ctx, out ? out + len : NULL, &n) != 1)
		return -1;
	if (enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, STOR_TAG, tag))
		return -1;
	return 0;
}

int crypt_seal(EVP_CIPHER_CTX *ctx, const uint8_t iv[STOR_IV], const void *aad, size_t aadlen,
	       const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[STOR_TAG])
{
	return gcm(ctx, 1, iv, aad, aadlen, in, out, len, tag);
}

int crypt_open(EVP_CIPHER_CTX *ctx, const uint8_t iv[STOR_IV], const void *aad, size_t aadlen,
	       const uint8_t *in, uint8_t *out, size_t len, const uint8_t tag[STOR_TAG])
{
	uint8_t t[STOR_TAG];
	int rc = -1;

	memcpy(t, tag, STOR_TAG);
	rc = gcm(ctx, 0, iv, aad, aadlen, in, out, len, t);
	if (rc && out)
		secure_wipe(out, len);
	return rc;
}

static int read_huk(const char *path, uint8_t huk[HUK_LEN])
{
	struct stat st;
	uint8_t extra = 0;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return errno == ENOENT ? 1 : -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	if (st.st_mode & 077) {
		log_error("%s is readable by others: refusing it", path);
		close(fd);
		return -1;
	}
	n = read(fd, huk, HUK_LEN);
	if (n == HUK_LEN && read(fd, &extra, 1) == 0) {
		close(fd);
		return 0;
	}
	close(fd);
	log_error("%s is not a %d-byte key", path, HUK_LEN);
	return -1;
}

/* A new HUK, durable before it is used: written aside, synced, renamed. */
static int make_huk(const char *dir, const char *path, uint8_t huk[HUK_LEN])
{
	if (crypt_random(huk, HUK_LEN) || paths_replace_file(dir, HUK_FILE, huk, HUK_LEN)) {
		log_error("cannot make the hardware unique key %s: %s", path, strerror(errno));
		return -1;
	}
	log_info("made a new hardware unique key in %s", path);
	return 0;
}

int keys_init(const char *dir)
{
	uint8_t huk[HUK_LEN];
	char path[SWTEE_PATH_MAX];
	char rpmb_dir[SWTEE_PATH_MAX];
	int rc = -1;
	int r = 0;

	if (snprintf(secure_dir, sizeof(secure_dir), "%s", dir) >= (int)sizeof(secure_dir) ||
	    paths_join(path, sizeof(path), dir, HUK_FILE) ||
	    paths_join(rpmb_dir, sizeof(rpmb_dir), dir, "rpmb"))
		return -1;
	if (paths_mkdir_p(dir, 0700) || paths_mkdir_p(rpmb_dir, 0700)) {
		log_error("cannot create %s: %s", rpmb_dir, strerror(errno));
		return -1;
	}
	r = read_huk(path, huk);
	if (r == 1)
		r = make_huk(dir, path, huk);
	if (r)
		goto out;
	ssk = secmem_alloc(STOR_KEY);
	rpmb_key = secmem_alloc(STOR_KEY);
	unique_key = secmem_alloc(STOR_KEY);
	if (!ssk || !rpmb_key || !unique_key)
		goto out;
	crypt_hmac(huk, "swtee storage key", 17, NULL, 0, ssk);
	crypt_hmac(huk, "swtee rpmb key", 14, NULL, 0, rpmb_key);
	crypt_hmac(huk, "swtee ta unique key", 19, NULL, 0, unique_key);
	rc = 0;
out:
	secure_wipe(huk, sizeof(huk));
	if (rc)
		keys_fini();
	return rc;
}

void keys_fini(void)
{
	secmem_free(ssk);
	secmem_free(rpmb_key);
	secmem_free(unique_key);
	ssk = rpmb_key = unique_key = NULL;
}

int keys_ta_unique(const struct swtee_uuid *uuid, const void *extra, size_t extra_len, uint8_t *key,
		   size_t key_len)
{
	uint8_t mac[STOR_HASH];
	uint8_t data[sizeof(uuid->b) + KEYS_UNIQUE_EXTRA_MAX];

	if (!unique_key || key_len > sizeof(mac) || extra_len > KEYS_UNIQUE_EXTRA_MAX)
		return -1;
	memcpy(data, uuid->b, sizeof(uuid->b));
	if (extra_len)
		memcpy(data + sizeof(uuid->b), extra, extra_len);
	crypt_hmac(unique_key, data, sizeof(uuid->b) + extra_len, NULL, 0, mac);
	memcpy(key, mac, key_len);
	secure_wipe(mac, sizeof(mac));
	return 0;
}

bool keys_ready(void)
{
	return ssk != NULL;
}

const char *keys_secure_dir(void)
{
	return secure_dir;
}

void keys_for_ta(const struct swtee_uuid *uuid, struct ta_keys *k,
		 char dirname[STOR_DIRNAME_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	uint8_t tsk[STOR_HASH];
	uint8_t h[STOR_HASH];

	crypt_hmac(ssk, "ta", 2, uuid->b, sizeof(uuid->b), tsk);
	crypt_hmac(tsk, "dir", 3, NULL, 0, k->dir);
	crypt_hmac(tsk, "journal", 7, NULL, 0, k->journal);
	crypt_hmac(rpmb_key, "slot", 4, uuid->b, sizeof(uuid->b), h);
	memcpy(k->binding, h, STOR_TAG);
	crypt_hmac(ssk, "name", 4, uuid->b, sizeof(uuid->b), h);
	for (size_t i = 0; i < STOR_DIRNAME_LEN / 2; i++) {
		dirname[2 * i] = hex[h[i] >> 4];
		dirname[2 * i + 1] = hex[h[i] & 15];
	}
	dirname[STOR_DIRNAME_LEN] = '\0';
	secure_wipe(tsk, sizeof(tsk));
}

void keys_rpmb_mac(const void *p, size_t n, uint8_t mac[STOR_HASH])
{
	crypt_hmac(rpmb_key, p, n, NULL, 0, mac);
}
