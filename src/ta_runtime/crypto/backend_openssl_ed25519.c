/*
 * The OpenSSL 3 backend: Ed25519ctx and Ed25519ph (RFC 8032 5.1), which
 * OpenSSL 3.0 does not have (it signs pure Ed25519, which
 * backend_openssl_asym.c uses).
 *
 * The group operations run in OpenSSL on Wei25519, the short Weierstrass
 * curve birationally equivalent to edwards25519 (through curve25519,
 * RFC 7748 4.1): a generic prime curve there, whose scalar multiplication
 * by a secret (r * B) is OpenSSL's constant-time ladder. Points cross
 * between the two forms with field arithmetic on public values only (the
 * R of a signature, the public key). Hashing, clamping, the scalar
 * arithmetic mod L and the encodings are RFC 8032's, written here.
 *
 * Verification is OpenSSL's for pure Ed25519: S < L, and [S]B - [k]A must
 * encode to R byte for byte (not the cofactored equation).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>

#include <tee_api_defines.h>

#include "backend_openssl.h"
#include "secure.h"

#define ED_LEN 32

static const char dom2_prefix[] = "SigEd25519 no Ed25519 collisions";

/* The curve, built once on first use. */
static struct {
	bool done;
	bool ok;
	BIGNUM *p;  /* 2^255 - 19 */
	BIGNUM *l;  /* the group order L */
	BIGNUM *d;  /* -121665 / 121666 */
	BIGNUM *a3; /* A / 3, A = 486662 */
	BIGNUM *c;  /* sqrt(-486664) */
	EC_GROUP *g;
} ed;

/* r = a / b mod p; false when b is 0. */
static bool fdiv(BIGNUM *r, const BIGNUM *a, const BIGNUM *b, BN_CTX *bc)
{
	BIGNUM *inv = BN_CTX_get(bc);

	return inv && !BN_is_zero(b) && BN_mod_inverse(inv, b, ed.p, bc) &&
	       BN_mod_mul(r, a, inv, ed.p, bc);
}

/* The x of an edwards25519 point from y and the sign bit; false if there is none. */
static bool recover_x(BIGNUM *x, const BIGNUM *y, int sign, BN_CTX *bc)
{
	BIGNUM *y2 = BN_CTX_get(bc);
	BIGNUM *u = BN_CTX_get(bc);
	BIGNUM *v = BN_CTX_get(bc);
	BIGNUM *x2 = BN_CTX_get(bc);

	if (!x2 || !BN_mod_sqr(y2, y, ed.p, bc) || !BN_mod_sub(u, y2, BN_value_one(), ed.p, bc) ||
	    !BN_mod_mul(v, ed.d, y2, ed.p, bc) || !BN_mod_add(v, v, BN_value_one(), ed.p, bc) ||
	    !fdiv(x2, u, v, bc))
		return false;
	if (BN_is_zero(x2)) {
		BN_zero(x);
		return !sign;
	}
	if (!BN_mod_sqrt(x, x2, ed.p, bc)) {
		ERR_clear_error();
		return false;
	}
	if (BN_is_odd(x) != sign && !BN_sub(x, ed.p, x))
		return false;
	return true;
}

/* An edwards25519 point (x, y) as a Wei25519 point. */
static bool to_weier(EC_POINT *w, const BIGNUM *x, const BIGNUM *y, BN_CTX *bc)
{
	BIGNUM *u = BN_CTX_get(bc);
	BIGNUM *t = BN_CTX_get(bc);
	BIGNUM *v = BN_CTX_get(bc);

	if (!v)
		return false;
	if (BN_is_zero(x)) {
		/* (0, 1) is the neutral element; (0, -1) the point of order 2, u = 0. */
		if (BN_is_one(y))
			return EC_POINT_set_to_infinity(ed.g, w);
		BN_zero(v);
		return EC_POINT_set_affine_coordinates(ed.g, w, ed.a3, v, bc);
	}
	/* u = (1 + y) / (1 - y), v = c * u / x; X = u + A / 3, Y = v */
	if (!BN_mod_add(u, BN_value_one(), y, ed.p, bc) ||
	    !BN_mod_sub(t, BN_value_one(), y, ed.p, bc) || !fdiv(u, u, t, bc) ||
	    !BN_mod_mul(v, ed.c, u, ed.p, bc) || !fdiv(v, v, x, bc) ||
	    !BN_mod_add(u, u, ed.a3, ed.p, bc))
		return false;
	return EC_POINT_set_affine_coordinates(ed.g, w, u, v, bc);
}

/* A Wei25519 point as an edwards25519 point (x, y). */
static bool from_weier(BIGNUM *x, BIGNUM *y, const EC_POINT *w, BN_CTX *bc)
{
	BIGNUM *u = BN_CTX_get(bc);
	BIGNUM *v = BN_CTX_get(bc);
	BIGNUM *t = BN_CTX_get(bc);

	if (!t)
		return false;
	if (EC_POINT_is_at_infinity(ed.g, w)) {
		BN_zero(x);
		return BN_one(y);
	}
	if (!EC_POINT_get_affine_coordinates(ed.g, w, u, v, bc) ||
	    !BN_mod_sub(u, u, ed.a3, ed.p, bc))
		return false;
	if (BN_is_zero(v)) {
		BN_zero(x);
		return BN_sub(y, ed.p, BN_value_one());
	}
	/* y = (u - 1) / (u + 1), x = c * u / v */
	return BN_mod_sub(y, u, BN_value_one(), ed.p, bc) &&
	       BN_mod_add(t, u, BN_value_one(), ed.p, bc) && fdiv(y, y, t, bc) &&
	       BN_mod_mul(x, ed.c, u, ed.p, bc) && fdiv(x, x, v, bc);
}

static bool encode(uint8_t out[ED_LEN], const BIGNUM *x, const BIGNUM *y)
{
	if (BN_bn2lebinpad(y, out, ED_LEN) != ED_LEN)
		return false;
	out[31] |= (uint8_t)(BN_is_odd(x) << 7);
	return true;
}

/* A Wei25519 point from an encoded edwards25519 point; false if it is none. */
static bool decode(EC_POINT *w, const uint8_t in[ED_LEN], BN_CTX *bc)
{
	uint8_t buf[ED_LEN];
	BIGNUM *x = BN_CTX_get(bc);
	BIGNUM *y = BN_CTX_get(bc);

	memcpy(buf, in, ED_LEN);
	buf[31] &= 0x7f;
	if (!y || !BN_lebin2bn(buf, ED_LEN, y) || BN_cmp(y, ed.p) >= 0)
		return false;
	return recover_x(x, y, in[31] >> 7, bc) && to_weier(w, x, y, bc);
}

static bool curve_build(BN_CTX *bc)
{
	BIGNUM *a = BN_CTX_get(bc);
	BIGNUM *b = BN_CTX_get(bc);
	BIGNUM *t = BN_CTX_get(bc);
	BIGNUM *big_a = BN_CTX_get(bc);
	BIGNUM *x = BN_CTX_get(bc);
	BIGNUM *y = BN_CTX_get(bc);
	BIGNUM *cof = BN_CTX_get(bc);
	EC_POINT *base = NULL;
	bool ok = false;

	ed.p = BN_new();
	ed.l = BN_new();
	ed.d = BN_new();
	ed.a3 = BN_new();
	ed.c = BN_new();
	if (!cof || !ed.p || !ed.l || !ed.d || !ed.a3 || !ed.c)
		return false;
	/* p = 2^255 - 19, L = 2^252 + 27742317777372353535851937790883648493 */
	if (!BN_set_bit(ed.p, 255) || !BN_sub_word(ed.p, 19) || !BN_set_bit(t, 252) ||
	    !BN_dec2bn(&ed.l, "27742317777372353535851937790883648493") || !BN_add(ed.l, ed.l, t))
		return false;
	/* d = -121665 / 121666 */
	if (!BN_set_word(a, 121665) || !BN_sub(a, ed.p, a) || !BN_set_word(b, 121666) ||
	    !fdiv(ed.d, a, b, bc))
		return false;
	/* Wei25519: a = (3 - A^2) / 3, b = (2 A^3 - 9 A) / 27 */
	if (!BN_set_word(big_a, 486662) || !BN_set_word(t, 3) || !fdiv(ed.a3, big_a, t, bc) ||
	    !BN_mod_sqr(a, big_a, ed.p, bc) || !BN_mod_sub(a, t, a, ed.p, bc) || !fdiv(a, a, t, bc))
		return false;
	if (!BN_mod_sqr(b, big_a, ed.p, bc) || !BN_mod_mul(b, b, big_a, ed.p, bc) ||
	    !BN_mod_lshift1(b, b, ed.p, bc) || !BN_mul_word(big_a, 9) ||
	    !BN_mod_sub(b, b, big_a, ed.p, bc) || !BN_set_word(t, 27) || !fdiv(b, b, t, bc))
		return false;
	/* c = sqrt(-486664), either root (the maps use it both ways) */
	if (!BN_set_word(t, 486664) || !BN_sub(t, ed.p, t) || !BN_mod_sqrt(ed.c, t, ed.p, bc))
		return false;
	ed.g = EC_GROUP_new_curve_GFp(ed.p, a, b, bc);
	base = ed.g ? EC_POINT_new(ed.g) : NULL;
	/* B: y = 4 / 5, x even */
	if (!base || !BN_set_word(a, 4) || !BN_set_word(b, 5) || !fdiv(y, a, b, bc) ||
	    !recover_x(x, y, 0, bc) || !to_weier(base, x, y, bc) || !BN_set_word(cof, 8) ||
	    !EC_GROUP_set_generator(ed.g, base, ed.l, cof))
		goto out;
	ok = true;
out:
	EC_POINT_free(base);
	return ok;
}

static bool curve(void)
{
	BN_CTX *bc = NULL;

	if (ed.done)
		return ed.ok;
	ed.done = true;
	bc = BN_CTX_new_ex(bo_libctx());
	if (bc) {
		BN_CTX_start(bc);
		ed.ok = curve_build(bc);
		BN_CTX_end(bc);
	}
	BN_CTX_free(bc);
	ERR_clear_error();
	return ed.ok;
}

/* SHA-512 of up to four pieces into out[64]. */
static bool sha512(uint8_t out[64], const void *a, size_t al, const void *b, size_t bl,
		   const void *c, size_t cl, const void *d, size_t dl)
{
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	unsigned int n = 0;
	bool ok = m && EVP_DigestInit_ex2(m, bo_md(TEE_ALG_SHA512), NULL) &&
		  EVP_DigestUpdate(m, a, al) && EVP_DigestUpdate(m, b, bl) &&
		  EVP_DigestUpdate(m, c, cl) && EVP_DigestUpdate(m, d, dl) &&
		  EVP_DigestFinal_ex(m, out, &n) && n == 64;

	EVP_MD_CTX_free(m);
	return ok;
}

/* dom2(F, C) into out (at most 34 + 255 bytes); returns its length, 0 if C is too long. */
static size_t dom2(uint8_t *out, bool ph, const uint8_t *ctx, size_t ctx_len)
{
	size_t n = sizeof(dom2_prefix) - 1;

	if (ctx_len > 255)
		return 0;
	memcpy(out, dom2_prefix, n);
	out[n++] = ph ? 1 : 0;
	out[n++] = (uint8_t)ctx_len;
	if (ctx_len)
		memcpy(out + n, ctx, ctx_len);
	return n + ctx_len;
}

/* The message as signed: itself (Ed25519ctx) or its SHA-512 (Ed25519ph). */
static bool message(bool ph, const uint8_t *msg, size_t len, uint8_t hash[64], const uint8_t **m,
		    size_t *m_len)
{
	*m = msg;
	*m_len = len;
	if (!ph)
		return true;
	*m = hash;
	*m_len = 64;
	return sha512(hash, msg, len, NULL, 0, NULL, 0, NULL, 0);
}

/* A 64-byte little-endian hash reduced mod L. */
static bool hash_scalar(BIGNUM *r, const uint8_t h[64], BN_CTX *bc)
{
	return BN_lebin2bn(h, 64, r) && BN_nnmod(r, r, ed.l, bc);
}

TEE_Result bo_ed25519_dom_sign(const uint8_t priv[32], const uint8_t pub[32], bool ph,
			       const uint8_t *ctx, size_t ctx_len, const uint8_t *msg,
			       size_t msg_len, uint8_t sig[64])
{
	uint8_t dom[34 + 255];
	uint8_t h[64];
	uint8_t rh[64];
	uint8_t ph_hash[64];
	uint8_t s_le[ED_LEN];
	const uint8_t *m = NULL;
	size_t m_len = 0;
	size_t dl = dom2(dom, ph, ctx, ctx_len);
	BN_CTX *bc = NULL;
	BIGNUM *s = NULL, *r = NULL, *k = NULL, *x = NULL, *y = NULL;
	EC_POINT *rp = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!dl)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!curve())
		return TEE_ERROR_NOT_SUPPORTED;
	bc = BN_CTX_secure_new_ex(bo_libctx());
	rp = EC_POINT_new(ed.g);
	if (!bc || !rp) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	BN_CTX_start(bc);
	s = BN_CTX_get(bc);
	r = BN_CTX_get(bc);
	k = BN_CTX_get(bc);
	x = BN_CTX_get(bc);
	y = BN_CTX_get(bc);
	if (!y || !message(ph, msg, msg_len, ph_hash, &m, &m_len))
		goto out;
	BN_set_flags(s, BN_FLG_CONSTTIME);
	BN_set_flags(r, BN_FLG_CONSTTIME);
	/* s: the clamped first half of SHA-512(seed); the second half is the prefix */
	if (!sha512(h, priv, 32, NULL, 0, NULL, 0, NULL, 0))
		goto out;
	memcpy(s_le, h, ED_LEN);
	s_le[0] &= 248;
	s_le[31] &= 127;
	s_le[31] |= 64;
	if (!BN_lebin2bn(s_le, ED_LEN, s))
		goto out;
	/* r = SHA-512(dom2 || prefix || M) mod L; R = [r]B */
	if (!sha512(rh, dom, dl, h + 32, 32, m, m_len, NULL, 0) || !hash_scalar(r, rh, bc) ||
	    !EC_POINT_mul(ed.g, rp, r, NULL, NULL, bc) || !from_weier(x, y, rp, bc) ||
	    !encode(sig, x, y))
		goto out;
	/* k = SHA-512(dom2 || R || A || M) mod L; S = r + k s mod L */
	if (!sha512(rh, dom, dl, sig, ED_LEN, pub, 32, m, m_len) || !hash_scalar(k, rh, bc) ||
	    !BN_mod_mul(k, k, s, ed.l, bc) || !BN_mod_add(k, k, r, ed.l, bc) ||
	    BN_bn2lebinpad(k, sig + ED_LEN, ED_LEN) != ED_LEN)
		goto out;
	res = TEE_SUCCESS;
out:
	if (res)
		res = bo_fail();
	ERR_clear_error();
	SECURE_WIPE_VAR(h);
	SECURE_WIPE_VAR(rh);
	SECURE_WIPE_VAR(s_le);
	EC_POINT_clear_free(rp);
	if (bc)
		BN_CTX_end(bc);
	BN_CTX_free(bc);
	return res;
}

TEE_Result bo_ed25519_dom_verify(const uint8_t pub[32], bool ph, const uint8_t *ctx, size_t ctx_len,
				 const uint8_t *msg, size_t msg_len, const uint8_t *sig,
				 size_t sig_len)
{
	uint8_t dom[34 + 255];
	uint8_t kh[64];
	uint8_t ph_hash[64];
	uint8_t rr[ED_LEN];
	const uint8_t *m = NULL;
	size_t m_len = 0;
	size_t dl = dom2(dom, ph, ctx, ctx_len);
	BN_CTX *bc = NULL;
	BIGNUM *s = NULL, *k = NULL, *x = NULL, *y = NULL;
	EC_POINT *a = NULL;
	EC_POINT *t = NULL;
	TEE_Result res = TEE_ERROR_SIGNATURE_INVALID;

	if (!dl)
		return TEE_ERROR_BAD_PARAMETERS;
	if (sig_len != 64)
		return TEE_ERROR_SIGNATURE_INVALID;
	if (!curve())
		return TEE_ERROR_NOT_SUPPORTED;
	bc = BN_CTX_new_ex(bo_libctx());
	a = EC_POINT_new(ed.g);
	t = EC_POINT_new(ed.g);
	if (!bc || !a || !t) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	BN_CTX_start(bc);
	s = BN_CTX_get(bc);
	k = BN_CTX_get(bc);
	x = BN_CTX_get(bc);
	y = BN_CTX_get(bc);
	if (!y || !message(ph, msg, msg_len, ph_hash, &m, &m_len)) {
		res = TEE_ERROR_GENERIC;
		goto out;
	}
	/* S < L, A a point */
	if (!BN_lebin2bn(sig + ED_LEN, ED_LEN, s) || BN_cmp(s, ed.l) >= 0 || !decode(a, pub, bc))
		goto out;
	/* [S]B - [k]A must encode to R */
	if (!sha512(kh, dom, dl, sig, ED_LEN, pub, 32, m, m_len) || !hash_scalar(k, kh, bc) ||
	    !EC_POINT_invert(ed.g, a, bc) || !EC_POINT_mul(ed.g, t, s, a, k, bc) ||
	    !from_weier(x, y, t, bc) || !encode(rr, x, y))
		goto out;
	if (secure_equal(rr, sig, ED_LEN))
		res = TEE_SUCCESS;
out:
	ERR_clear_error();
	EC_POINT_free(a);
	EC_POINT_free(t);
	if (bc)
		BN_CTX_end(bc);
	BN_CTX_free(bc);
	return res;
}
