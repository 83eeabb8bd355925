/*
 * The OpenSSL 3 backend: the SM2 key exchange protocol (GM/T 0003.3-2012
 * section 6.1; GB/T 32918.3-2016), which OpenSSL has no interface for. The
 * protocol is written here over OpenSSL's SM2 group, SM3 and integers:
 *
 *	x' = 2^w + (x mod 2^w), w = 127 for SM2's 256-bit order
 *	t  = d + x'(R_own) * r mod n
 *	U  = [t](P_peer + [x'(R_peer)] R_peer), not the point at infinity
 *	K  = KDF(xU || yU || Z_A || Z_B, klen)
 *	S  = SM3(tag || yU || SM3(xU || Z_A || Z_B || x1 || y1 || x2 || y2))
 *
 * with A the initiator, (x1, y1) its ephemeral point and (x2, y2) the
 * responder's, and S tagged 0x02 for the responder's confirmation (S_B,
 * S_1) and 0x03 for the initiator's (S_A, S_2). The scalar multiplication
 * by the secret t is OpenSSL's constant-time ladder; d and r are flagged
 * constant-time for the arithmetic mod n.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>

#include <tee_api_defines.h>

#include "backend_openssl.h"
#include "secure.h"

#define F 32 /* bytes of SM2's field and order */
#define SM2_W 127

struct kep {
	EC_GROUP *g;
	BN_CTX *bc;
	EVP_MD_CTX *md;
};

static bool sm3_start(struct kep *c)
{
	return EVP_DigestInit_ex2(c->md, bo_md(TEE_ALG_SM3), NULL) == 1;
}

static bool sm3_add(struct kep *c, const void *p, size_t len)
{
	return EVP_DigestUpdate(c->md, p, len) == 1;
}

static bool sm3_end(struct kep *c, uint8_t out[F])
{
	unsigned int n = 0;

	return EVP_DigestFinal_ex(c->md, out, &n) == 1 && n == F;
}

/* Z = SM3(ENTL || ID || a || b || xG || yG || x || y) (GM/T 0003.2 5.5). */
static bool z_value(struct kep *c, const uint8_t *id, size_t id_len, const uint8_t xy[2 * F],
		    uint8_t z[F])
{
	uint8_t curve[6 * F];
	uint8_t entl[2];
	BIGNUM *a = BN_CTX_get(c->bc);
	BIGNUM *b = BN_CTX_get(c->bc);
	BIGNUM *gx = BN_CTX_get(c->bc);
	BIGNUM *gy = BN_CTX_get(c->bc);

	if (id_len > 0x1fff || !gy || !EC_GROUP_get_curve(c->g, NULL, a, b, c->bc) ||
	    !EC_POINT_get_affine_coordinates(c->g, EC_GROUP_get0_generator(c->g), gx, gy, c->bc) ||
	    BN_bn2binpad(a, curve, F) != F || BN_bn2binpad(b, curve + F, F) != F ||
	    BN_bn2binpad(gx, curve + 2 * F, F) != F || BN_bn2binpad(gy, curve + 3 * F, F) != F)
		return false;
	memcpy(curve + 4 * F, xy, 2 * F);
	entl[0] = (uint8_t)((id_len * 8) >> 8);
	entl[1] = (uint8_t)(id_len * 8);
	return sm3_start(c) && sm3_add(c, entl, 2) && sm3_add(c, id, id_len) &&
	       sm3_add(c, curve, sizeof(curve)) && sm3_end(c, z);
}

/* A point given as GP coordinates, on the curve (the library checks); xy gets them padded. */
static bool point_in(struct kep *c, EC_POINT *pt, const uint8_t *x, size_t x_len, const uint8_t *y,
		     size_t y_len, uint8_t xy[2 * F])
{
	BIGNUM *bx = BN_CTX_get(c->bc);
	BIGNUM *by = BN_CTX_get(c->bc);

	bo_strip(&x, &x_len);
	bo_strip(&y, &y_len);
	if (!by || x_len > F || y_len > F)
		return false;
	memset(xy, 0, 2 * F);
	memcpy(xy + F - x_len, x, x_len);
	memcpy(xy + 2 * F - y_len, y, y_len);
	if (!BN_bin2bn(xy, F, bx) || !BN_bin2bn(xy + F, F, by))
		return false;
	return EC_POINT_set_affine_coordinates(c->g, pt, bx, by, c->bc) == 1;
}

/* x' = 2^w + (x mod 2^w) of a padded x. */
static bool x_bar(BIGNUM *r, const uint8_t x[F])
{
	return BN_bin2bn(x, F, r) && BN_mask_bits(r, SM2_W) && BN_set_bit(r, SM2_W);
}

/* The own key's public point and private value as GP attributes. */
static bool own_key(struct kep *c, struct be_pkey *k, EC_POINT *pt, uint8_t xy[2 * F], BIGNUM *d)
{
	const uint8_t *x = NULL, *y = NULL, *p = NULL;
	size_t x_len = 0, y_len = 0, p_len = 0;

	bo_attr(k->obj, TEE_ATTR_ECC_PUBLIC_VALUE_X, &x, &x_len);
	bo_attr(k->obj, TEE_ATTR_ECC_PUBLIC_VALUE_Y, &y, &y_len);
	if (!bo_attr(k->obj, TEE_ATTR_ECC_PRIVATE_VALUE, &p, &p_len) ||
	    !BN_bin2bn(p, (int)p_len, d))
		return false;
	return point_in(c, pt, x, x_len, y, y_len, xy);
}

/* KDF(Z, klen) = SM3(Z || 1) || SM3(Z || 2) || ... (GM/T 0003.3 5.4.3). */
static bool kdf(struct kep *c, const uint8_t *z, size_t z_len, uint8_t *out, size_t len)
{
	uint8_t h[F];
	bool ok = true;

	for (uint32_t ct = 1; len && ok; ct++) {
		uint8_t be[4] = {(uint8_t)(ct >> 24), (uint8_t)(ct >> 16), (uint8_t)(ct >> 8),
				 (uint8_t)ct};
		size_t n = len < F ? len : F;

		ok = sm3_start(c) && sm3_add(c, z, z_len) && sm3_add(c, be, 4) && sm3_end(c, h);
		memcpy(out, h, n);
		out += n;
		len -= n;
	}
	SECURE_WIPE_VAR(h);
	return ok;
}

/* The integers and points of one exchange, taken from c. */
struct kep_vars {
	BIGNUM *d, *r, *t, *xb, *n, *ux, *uy;
	EC_POINT *own, *own_eph, *peer, *peer_eph, *u;
	uint8_t own_xy[2 * F], eph_xy[2 * F], peer_xy[2 * F], peer_eph_xy[2 * F];
};

/* Takes v's integers from c's frame and allocates its points; false when out of memory. */
static bool kep_vars_new(struct kep *c, struct kep_vars *v)
{
	v->d = BN_CTX_get(c->bc);
	v->r = BN_CTX_get(c->bc);
	v->t = BN_CTX_get(c->bc);
	v->xb = BN_CTX_get(c->bc);
	v->n = BN_CTX_get(c->bc);
	v->ux = BN_CTX_get(c->bc);
	v->uy = BN_CTX_get(c->bc);
	v->own = EC_POINT_new(c->g);
	v->own_eph = EC_POINT_new(c->g);
	v->peer = EC_POINT_new(c->g);
	v->peer_eph = EC_POINT_new(c->g);
	v->u = EC_POINT_new(c->g);
	if (!v->uy || !v->own || !v->own_eph || !v->peer || !v->peer_eph || !v->u)
		return false;
	BN_set_flags(v->d, BN_FLG_CONSTTIME);
	BN_set_flags(v->r, BN_FLG_CONSTTIME);
	BN_set_flags(v->t, BN_FLG_CONSTTIME);
	return true;
}

/* Frees v's points, clearing those that derive from a secret; the integers go with c's frame. */
static void kep_vars_free(struct kep_vars *v)
{
	EC_POINT_clear_free(v->own);
	EC_POINT_clear_free(v->own_eph);
	EC_POINT_free(v->peer);
	EC_POINT_free(v->peer_eph);
	EC_POINT_clear_free(v->u);
}

/* The own key k, the own ephemeral eph and the peer's two points (which must be on the curve). */
static TEE_Result kep_load(struct kep *c, struct be_pkey *k, struct be_pkey *eph,
			   const struct be_sm2_kep_params *p, struct kep_vars *v)
{
	if (!own_key(c, k, v->own, v->own_xy, v->d) ||
	    !own_key(c, eph, v->own_eph, v->eph_xy, v->r))
		return TEE_ERROR_GENERIC;
	if (!point_in(c, v->peer, p->peer_x, p->peer_x_len, p->peer_y, p->peer_y_len, v->peer_xy) ||
	    !point_in(c, v->peer_eph, p->peer_eph_x, p->peer_eph_x_len, p->peer_eph_y,
		      p->peer_eph_y_len, v->peer_eph_xy)) {
		ERR_clear_error();
		return TEE_ERROR_BAD_PARAMETERS;
	}
	return TEE_SUCCESS;
}

/* The shared point U, padded into u_xy; TEE_ERROR_BAD_PARAMETERS at infinity. */
static TEE_Result kep_shared_point(struct kep *c, struct kep_vars *v, uint8_t u_xy[2 * F])
{
	/* t = d + x'(R_own) r mod n */
	if (!BN_copy(v->n, EC_GROUP_get0_order(c->g)) || !x_bar(v->xb, v->eph_xy) ||
	    !BN_mod_mul(v->t, v->xb, v->r, v->n, c->bc) ||
	    !BN_mod_add(v->t, v->t, v->d, v->n, c->bc))
		return TEE_ERROR_GENERIC;
	/* U = [t](P_peer + [x'(R_peer)] R_peer) */
	if (!x_bar(v->xb, v->peer_eph_xy) ||
	    !EC_POINT_mul(c->g, v->u, NULL, v->peer_eph, v->xb, c->bc) ||
	    !EC_POINT_add(c->g, v->u, v->u, v->peer, c->bc) ||
	    !EC_POINT_mul(c->g, v->u, NULL, v->u, v->t, c->bc))
		return TEE_ERROR_GENERIC;
	if (EC_POINT_is_at_infinity(c->g, v->u))
		return TEE_ERROR_BAD_PARAMETERS;
	if (!EC_POINT_get_affine_coordinates(c->g, v->u, v->ux, v->uy, c->bc) ||
	    BN_bn2binpad(v->ux, u_xy, F) != F || BN_bn2binpad(v->uy, u_xy + F, F) != F)
		return TEE_ERROR_GENERIC;
	return TEE_SUCCESS;
}

/* z = xU || yU || Z_A || Z_B (the initiator's first) and the key K = KDF(z, out_len) in out. */
static bool kep_key(struct kep *c, const struct be_sm2_kep_params *p, const struct kep_vars *v,
		    const uint8_t u_xy[2 * F], uint8_t z[4 * F], uint8_t *out, size_t out_len)
{
	memcpy(z, u_xy, 2 * F);
	return z_value(c, p->id_initiator, p->id_initiator_len,
		       p->initiator ? v->own_xy : v->peer_xy, z + 2 * F) &&
	       z_value(c, p->id_responder, p->id_responder_len,
		       p->initiator ? v->peer_xy : v->own_xy, z + 3 * F) &&
	       kdf(c, z, 4 * F, out, out_len);
}

/* S = SM3(tag || yU || inner). */
static bool kep_confirmation(struct kep *c, uint8_t tag, const uint8_t u_xy[2 * F],
			     const uint8_t inner[F], uint8_t s[F])
{
	return sm3_start(c) && sm3_add(c, &tag, 1) && sm3_add(c, u_xy + F, F) &&
	       sm3_add(c, inner, F) && sm3_end(c, s);
}

/* The own confirmation s_own and the one expected from the peer, s_peer. */
static bool kep_confirmations(struct kep *c, const struct be_sm2_kep_params *p,
			      const struct kep_vars *v, const uint8_t u_xy[2 * F],
			      const uint8_t z[4 * F], uint8_t s_own[F], uint8_t s_peer[F])
{
	uint8_t inner[F];
	bool ok = false;

	/* SM3(xU || Z_A || Z_B || x1 || y1 || x2 || y2) */
	ok = sm3_start(c) && sm3_add(c, u_xy, F) && sm3_add(c, z + 2 * F, 2 * F) &&
	     sm3_add(c, p->initiator ? v->eph_xy : v->peer_eph_xy, 2 * F) &&
	     sm3_add(c, p->initiator ? v->peer_eph_xy : v->eph_xy, 2 * F) && sm3_end(c, inner);
	/* S_B (0x02) is the responder's, S_A (0x03) the initiator's. */
	ok = ok && kep_confirmation(c, p->initiator ? 0x03 : 0x02, u_xy, inner, s_own) &&
	     kep_confirmation(c, p->initiator ? 0x02 : 0x03, u_xy, inner, s_peer);
	SECURE_WIPE_VAR(inner);
	return ok;
}

/* The exchange of the file's head: the key K in out, the confirmations checked and given. */
TEE_Result be_derive_sm2_kep(struct be_pkey *k, struct be_pkey *eph,
			     const struct be_sm2_kep_params *p, uint8_t *out, size_t out_len)
{
	struct kep c = {0};
	struct kep_vars v = {0};
	TEE_Result res = TEE_ERROR_GENERIC;
	uint8_t u_xy[2 * F];
	uint8_t z[4 * F]; /* xU || yU || Z_A || Z_B */
	uint8_t s_peer[F];
	uint8_t s_own[F];

	c.g = EC_GROUP_new_by_curve_name_ex(bo_libctx(), NULL, NID_sm2);
	c.bc = BN_CTX_secure_new_ex(bo_libctx());
	c.md = EVP_MD_CTX_new();
	if (!c.g || !c.bc || !c.md) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	BN_CTX_start(c.bc);
	if (!kep_vars_new(&c, &v)) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	res = kep_load(&c, k, eph, p, &v);
	if (!res)
		res = kep_shared_point(&c, &v, u_xy);
	if (res)
		goto out;
	if (!kep_key(&c, p, &v, u_xy, z, out, out_len) ||
	    !kep_confirmations(&c, p, &v, u_xy, z, s_own, s_peer)) {
		res = TEE_ERROR_GENERIC;
		goto out;
	}
	if (p->conf_in && (p->conf_in_len != F || !secure_equal(p->conf_in, s_peer, F))) {
		secure_wipe(out, out_len);
		res = TEE_ERROR_SIGNATURE_INVALID;
		goto out;
	}
	if (p->conf_out)
		memcpy(p->conf_out, s_own, p->conf_out_len < F ? p->conf_out_len : F);
	res = TEE_SUCCESS;
out:
	if (res == TEE_ERROR_GENERIC)
		res = bo_fail();
	ERR_clear_error();
	SECURE_WIPE_VAR(u_xy);
	SECURE_WIPE_VAR(z);
	kep_vars_free(&v);
	if (c.bc)
		BN_CTX_end(c.bc);
	BN_CTX_free(c.bc);
	EVP_MD_CTX_free(c.md);
	EC_GROUP_free(c.g);
	return res;
}
