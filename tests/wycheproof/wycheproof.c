/*
 * Runs the Wycheproof test vectors through the GP API of a TA (the crypt
 * test TA, over libteec), never through a host crypto library.
 *
 *	wycheproof [--symmetric | --asymmetric] DIR [FILE...]
 *
 * DIR holds the Wycheproof JSON files (testvectors_v1 layout). Without FILE
 * arguments every file of the chosen set (both without an option) runs, a
 * missing one is a failure, and so is a file in DIR that neither set knows,
 * so that a new vector file cannot go unnoticed. Prints
 * "<file>: N passed, M failed" per file, a failing test's tcId and reason
 * as it goes, and "N passed, M failed" at the end; exits 1 on any failure,
 * 2 when it cannot run at all.
 *
 * A test passes when a "valid" vector gives its expected output (both ways
 * where there are two) or verifies, an "invalid" one is refused in one of
 * the ways GP allows (the error codes of docs/crypto.md; a panic of
 * TEE_DeriveKey, which can return nothing else), and an "acceptable" one
 * either way, the outcome being printed. The decisions the runner takes
 * where GP has no exact counterpart are listed in docs/crypto.md.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wp.h"

static const char *const symmetric_files[] = {
    "aes_cbc_pkcs5_test.json", "aes_ccm_test.json",	"aes_cmac_test.json",
    "aes_gcm_test.json",       "aes_xts_test.json",	"hmac_sha1_test.json",
    "hmac_sha224_test.json",   "hmac_sha256_test.json", "hmac_sha384_test.json",
    "hmac_sha512_test.json",   "hmac_sm3_test.json",
};

static const char *const asymmetric_files[] = {
    "dsa_2048_224_sha224_p1363_test.json",
    "dsa_2048_256_sha256_p1363_test.json",
    "ecdh_secp224r1_ecpoint_test.json",
    "ecdh_secp256r1_ecpoint_test.json",
    "ecdh_secp384r1_ecpoint_test.json",
    "ecdh_secp521r1_ecpoint_test.json",
    "ecdsa_secp192r1_sha256_p1363_test.json",
    "ecdsa_secp224r1_sha224_p1363_test.json",
    "ecdsa_secp256r1_sha256_p1363_test.json",
    "ecdsa_secp384r1_sha384_p1363_test.json",
    "ecdsa_secp521r1_sha512_p1363_test.json",
    "ed25519_test.json",
    "hkdf_sha1_test.json",
    "hkdf_sha256_test.json",
    "hkdf_sha384_test.json",
    "hkdf_sha512_test.json",
    "pbkdf2_hmacsha1_test.json",
    "pbkdf2_hmacsha256_test.json",
    "pbkdf2_hmacsha512_test.json",
    "rsa_oaep_2048_sha1_mgf1sha1_test.json",
    "rsa_oaep_2048_sha256_mgf1sha256_test.json",
    "rsa_oaep_2048_sha512_mgf1sha512_test.json",
    "rsa_pkcs1_2048_test.json",
    "rsa_pss_2048_sha1_mgf1_20_test.json",
    "rsa_pss_2048_sha256_mgf1_32_test.json",
    "rsa_pss_2048_sha384_mgf1_48_test.json",
    "rsa_signature_2048_sha256_test.json",
    "rsa_signature_2048_sha384_test.json",
    "rsa_signature_2048_sha512_test.json",
    "x25519_test.json",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The test types, by a group's "type". */
static const struct {
	const char *type;
	wp_run_fn run;
} kinds[] = {
    {"IndCpaTest", wp_ind_cpa},
    {"AeadTest", wp_aead},
    {"MacTest", wp_mac},
    {"DsaP1363Verify", wp_dsa},
    {"EcdsaP1363Verify", wp_ecdsa},
    {"EddsaVerify", wp_eddsa},
    {"RsassaPkcs1Verify", wp_rsa_pkcs1_verify},
    {"RsassaPssVerify", wp_rsa_pss_verify},
    {"RsaesOaepDecrypt", wp_rsa_oaep},
    {"RsaesPkcs1Decrypt", wp_rsa_pkcs1_decrypt},
    {"EcdhEcpointTest", wp_ecdh},
    {"XdhComp", wp_xdh},
    {"HkdfTest", wp_hkdf},
    {"PbkdfTest", wp_pbkdf2},
};

/* ---- helpers (wp.h) ---- */

void why(struct test *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
}

void bytes_free(struct bytes *b)
{
	free(b->p);
	b->p = NULL;
	b->n = 0;
}

bool get_hex(json_object *o, const char *name, struct bytes *b)
{
	json_object *v = NULL;
	const char *h = NULL;
	size_t len = 0;

	b->p = NULL;
	b->n = 0;
	if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_string))
		return false;
	h = json_object_get_string(v);
	len = strlen(h);
	if (len % 2)
		return false;
	b->p = malloc(len / 2 + 1);
	if (!b->p)
		return false;
	for (size_t i = 0; i < len / 2; i++) {
		unsigned int x = 0;

		if (sscanf(h + 2 * i, "%2x", &x) != 1) {
			bytes_free(b);
			return false;
		}
		b->p[i] = (uint8_t)x;
	}
	b->n = len / 2;
	return true;
}

int get_int(json_object *o, const char *name)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, name, &v))
		return -1;
	return json_object_get_int(v);
}

const char *get_str(json_object *o, const char *name)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

json_object *get_obj(json_object *o, const char *name)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, name, &v) || !json_object_is_type(v, json_type_object))
		return NULL;
	return v;
}

void check_dead(struct test *t, TEEC_Result res)
{
	if (res != TEEC_ERROR_TARGET_DEAD)
		return;
	TEEC_CloseSession(t->s);
	if (cc_open(t->ctx, t->s))
		fprintf(stderr, "wycheproof: cannot reopen the crypt TA session\n");
}

uint32_t hash_alg(const char *name)
{
	static const struct {
		const char *name;
		uint32_t alg;
	} hashes[] = {
	    {"SHA-1", TEE_ALG_SHA1},	    {"SHA-224", TEE_ALG_SHA224},
	    {"SHA-256", TEE_ALG_SHA256},    {"SHA-384", TEE_ALG_SHA384},
	    {"SHA-512", TEE_ALG_SHA512},    {"SHA3-224", TEE_ALG_SHA3_224},
	    {"SHA3-256", TEE_ALG_SHA3_256}, {"SHA3-384", TEE_ALG_SHA3_384},
	    {"SHA3-512", TEE_ALG_SHA3_512},
	};

	for (size_t i = 0; i < N(hashes); i++)
		if (!strcmp(hashes[i].name, name))
			return hashes[i].alg;
	return 0;
}

void ta_release(struct test *t, TEEC_Result res, uint32_t op, uint32_t obj1, uint32_t obj2)
{
	check_dead(t, res);
	if (res == TEEC_ERROR_TARGET_DEAD)
		return;
	cc_free_obj(t->s, obj1);
	cc_free_obj(t->s, obj2);
	cc_free_op(t->s, op);
}

bool ta_digest(struct test *t, uint32_t hash, const struct bytes *msg, uint8_t *out, size_t *len)
{
	static const uint8_t none[1];
	uint32_t op = 0;
	TEEC_Result res = cc_alloc_op(t->s, hash, TEE_MODE_DIGEST, 0, &op);

	if (!res)
		res = cc_digest_final(t->s, op, msg->n ? msg->p : none, msg->n, out, len);
	ta_release(t, res, op, 0, 0);
	if (res)
		why(t, "digest 0x%08x: 0x%08x", hash, res);
	return res == TEEC_SUCCESS;
}

enum outcome ta_verify(struct test *t, uint32_t alg, uint32_t type, uint32_t bits,
		       const struct cc_attr *key, size_t nkey, const struct cc_attr *params,
		       size_t nparams, const uint8_t *digest, size_t dlen, const struct bytes *sig)
{
	static const uint8_t none[1];
	enum outcome oc = OUT_WRONG;
	uint32_t op = 0;
	uint32_t k = 0;
	TEEC_Result res = cc_alloc_op(t->s, alg, TEE_MODE_VERIFY, bits, &op);

	if (res) {
		why(t, "TEE_AllocateOperation: 0x%08x", res);
		goto out;
	}
	res = cc_key(t->s, type, bits, key, nkey, &k);
	if (res) {
		why(t, "the public key: 0x%08x", res);
		goto out;
	}
	res = cc_set_key(t->s, op, k);
	if (res) {
		why(t, "TEE_SetOperationKey: 0x%08x", res);
		goto out;
	}
	res = cc_asym_verify(t->s, op, params, nparams, dlen ? digest : none, dlen,
			     sig->n ? sig->p : none, sig->n);
	if (res == TEEC_SUCCESS)
		oc = OUT_ACCEPTED;
	else if (res == TEE_ERROR_SIGNATURE_INVALID)
		oc = OUT_REFUSED;
	else
		why(t, "TEE_AsymmetricVerifyDigest: 0x%08x", res);
	if (res == TEE_ERROR_SIGNATURE_INVALID)
		res = TEEC_SUCCESS;
out:
	ta_release(t, res, op, k, 0);
	return oc;
}

/* ---- files ---- */

/* Runs one file; false when it cannot be run at all. */
static bool run_file(TEEC_Context *ctx, TEEC_Session *s, const char *dir, const char *file,
		     unsigned long *passed, unsigned long *failed)
{
	char path[4096];
	json_object *root = NULL;
	json_object *groups = NULL;
	struct test t = {.ctx = ctx, .s = s, .file = file};
	unsigned long ok = 0;
	unsigned long bad = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path)) {
		fprintf(stderr, "wycheproof: path too long: %s/%s\n", dir, file);
		return false;
	}
	root = json_object_from_file(path);
	if (!root || !json_object_object_get_ex(root, "testGroups", &groups) ||
	    !json_object_is_type(groups, json_type_array)) {
		fprintf(stderr, "wycheproof: cannot read %s\n", path);
		json_object_put(root);
		return false;
	}
	t.algorithm = get_str(root, "algorithm");
	for (size_t gi = 0; gi < json_object_array_length(groups); gi++) {
		json_object *go = json_object_array_get_idx(groups, gi);
		json_object *tests = NULL;
		const char *type = get_str(go, "type");
		wp_run_fn run = NULL;

		for (size_t i = 0; i < N(kinds); i++)
			if (!strcmp(kinds[i].type, type))
				run = kinds[i].run;
		if (!run) {
			fprintf(stderr, "wycheproof: %s: test type \"%s\" is not known\n", file,
				type);
			json_object_put(root);
			return false;
		}
		if (!json_object_object_get_ex(go, "tests", &tests))
			continue;
		for (size_t ti = 0; ti < json_object_array_length(tests); ti++) {
			json_object *tc = json_object_array_get_idx(tests, ti);
			const char *result = get_str(tc, "result");
			enum outcome oc = OUT_WRONG;
			bool pass = false;

			t.tc_id = get_int(tc, "tcId");
			t.why[0] = 0;
			oc = run(&t, go, tc);
			if (!strcmp(result, "valid"))
				pass = oc == OUT_ACCEPTED;
			else if (!strcmp(result, "invalid"))
				pass = oc == OUT_REFUSED;
			else if (!strcmp(result, "acceptable"))
				pass = oc != OUT_WRONG;
			if (!strcmp(result, "acceptable") && pass)
				printf("  %s tcId %ld (acceptable): %s%s%s\n", file, t.tc_id,
				       oc == OUT_ACCEPTED ? "accepted" : "refused",
				       t.why[0] ? ": " : "", t.why);
			if (pass) {
				ok++;
				continue;
			}
			bad++;
			printf("  %s tcId %ld: expected %s, got %s%s%s\n", file, t.tc_id, result,
			       oc == OUT_ACCEPTED  ? "accepted"
			       : oc == OUT_REFUSED ? "refused"
						   : "an error",
			       t.why[0] ? ": " : "", t.why);
		}
	}
	json_object_put(root);
	printf("%s: %lu passed, %lu failed\n", file, ok, bad);
	fflush(stdout);
	*passed += ok;
	*failed += bad;
	return true;
}

static bool listed(const char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* False when DIR has a vector file neither list knows. */
static bool all_known(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e = NULL;
	bool ok = true;

	if (!d) {
		fprintf(stderr, "wycheproof: cannot list %s\n", dir);
		return false;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		if (!listed(symmetric_files, N(symmetric_files), e->d_name) &&
		    !listed(asymmetric_files, N(asymmetric_files), e->d_name)) {
			fprintf(stderr, "wycheproof: %s/%s is not run by this runner\n", dir,
				e->d_name);
			ok = false;
		}
	}
	closedir(d);
	return ok;
}

int main(int argc, char **argv)
{
	TEEC_Context ctx;
	TEEC_Session s;
	unsigned long passed = 0;
	unsigned long failed = 0;
	bool broken = false;
	bool sym = true;
	bool asym = true;
	const char *dir = NULL;
	int first = 1;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	if (argc > 1 && !strcmp(argv[1], "--symmetric")) {
		asym = false;
		first++;
	} else if (argc > 1 && !strcmp(argv[1], "--asymmetric")) {
		sym = false;
		first++;
	}
	if (argc <= first) {
		fprintf(stderr, "usage: wycheproof [--symmetric | --asymmetric] DIR [FILE...]\n");
		return 2;
	}
	dir = argv[first];
	res = TEEC_InitializeContext(NULL, &ctx);
	if (res) {
		fprintf(stderr, "wycheproof: TEEC_InitializeContext: 0x%08x\n", res);
		return 2;
	}
	res = cc_open(&ctx, &s);
	if (res) {
		fprintf(stderr, "wycheproof: cannot open the crypt TA: 0x%08x\n", res);
		TEEC_FinalizeContext(&ctx);
		return 2;
	}
	if (argc > first + 1) {
		for (int i = first + 1; i < argc; i++)
			broken |= !run_file(&ctx, &s, dir, argv[i], &passed, &failed);
	} else {
		broken |= !all_known(dir);
		for (size_t i = 0; sym && i < N(symmetric_files); i++)
			broken |= !run_file(&ctx, &s, dir, symmetric_files[i], &passed, &failed);
		for (size_t i = 0; asym && i < N(asymmetric_files); i++)
			broken |= !run_file(&ctx, &s, dir, asymmetric_files[i], &passed, &failed);
	}
	TEEC_CloseSession(&s);
	TEEC_FinalizeContext(&ctx);
	printf("%lu passed, %lu failed\n", passed, failed);
	if (broken) {
		fprintf(stderr,
			"wycheproof: some test vector files could not be run (see above)\n");
		return 2;
	}
	return failed ? 1 : 0;
}
