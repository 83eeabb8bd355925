/*
 * regression 4008, 4009, 4014, 4015 and 4019: shared secrets with
 * TEE_DeriveKey (DH, ECDH, SM2 key exchange, X25519) and ECDH's refusal
 * of points off the curve.
 *
 * Known answers: NIST CAVS ECC CDH (SP 800-56A, P-256, COUNT = 0),
 * RFC 5903 8.1 (P-256), GM/T 0003.5 annex B.2 (SM2 key exchange on the
 * recommended curve), RFC 7748 5.2 and 6.1 (X25519). DH has no vector
 * here: both sides agree and the host computes g^xy mod p again.
 *
 * A peer key the TEE refuses panics TEE_DeriveKey, which GP gives no
 * error code: the case sees TEEC_ERROR_TARGET_DEAD.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>

#include "crypt_test.h"

/* Derives with op into a new generic secret of max_bits; the secret into out. */
static TEEC_Result derive(TEEC_Session *s, uint32_t op, struct cc_attr *params, size_t n,
			  uint32_t max_bits, uint8_t *out, size_t *out_len)
{
	return ct_derive(s, op, params, n, max_bits, out, out_len, NULL);
}

/* ---- 4008: DH ---- */

struct dh_side {
	uint32_t key;
	uint8_t x[512], y[512];
	size_t xl, yl;
};

static bool dh_side_make(ADBG_Case_t *c, TEEC_Session *s, const struct ct_ffc *f, bool with_q,
			 uint32_t bits, struct dh_side *d)
{
	struct cc_attr p[3] = {
	    CC_REF(TEE_ATTR_DH_PRIME, f->p, f->p_len),
	    CC_REF(TEE_ATTR_DH_BASE, f->g, f->g_len),
	    CC_REF(TEE_ATTR_DH_SUBPRIME, f->q, f->q_len),
	};

	d->xl = sizeof(d->x);
	d->yl = sizeof(d->y);
	d->key = ct_genkey(c, s, TEE_TYPE_DH_KEYPAIR, bits, p, with_q && f->q_len ? 3 : 2);
	return d->key && ct_attr(c, s, d->key, TEE_ATTR_DH_PRIVATE_VALUE, d->x, &d->xl) &&
	       ct_attr(c, s, d->key, TEE_ATTR_DH_PUBLIC_VALUE, d->y, &d->yl);
}

/* y^x mod p without leading zeros, by the host. */
static size_t host_dh(const struct ct_ffc *f, const struct dh_side *own, const struct dh_side *peer,
		      uint8_t *out)
{
	BN_CTX *bc = BN_CTX_new();
	BIGNUM *p = BN_bin2bn(f->p, (int)f->p_len, NULL);
	BIGNUM *x = BN_bin2bn(own->x, (int)own->xl, NULL);
	BIGNUM *y = BN_bin2bn(peer->y, (int)peer->yl, NULL);
	BIGNUM *z = BN_new();
	size_t n = 0;

	if (bc && p && x && y && z && BN_mod_exp(z, y, x, p, bc))
		n = (size_t)BN_bn2bin(z, out);
	BN_free(z);
	BN_free(y);
	BN_clear_free(x);
	BN_free(p);
	BN_CTX_free(bc);
	return n;
}

static void dh_group(ADBG_Case_t *c, TEEC_Session *s, const char *name, uint32_t bits, bool with_q)
{
	struct ct_ffc f;
	struct dh_side a, b;
	uint8_t za[512], zb[512], want[512];
	size_t zal = sizeof(za);
	size_t zbl = sizeof(zb);
	size_t wl = 0;
	uint32_t opa = 0;
	uint32_t opb = 0;

	Do_ADBG_Log("    DH in %s%s", name, with_q ? " with q" : "");
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (!ADBG_EXPECT_TRUE(c, ct_host_group(name, &f)) ||
	    !dh_side_make(c, s, &f, with_q, bits, &a) || !dh_side_make(c, s, &f, with_q, bits, &b))
		goto out;
	opa = ct_op(c, s, TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, bits, a.key);
	opb = ct_op(c, s, TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, bits, b.key);
	if (!opa || !opb)
		goto out;
	{
		struct cc_attr pa = CC_REF(TEE_ATTR_DH_PUBLIC_VALUE, b.y, b.yl);
		struct cc_attr pb = CC_REF(TEE_ATTR_DH_PUBLIC_VALUE, a.y, a.yl);

		if (!ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, opa, &pa, 1, bits, za, &zal)) ||
		    !ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, opb, &pb, 1, bits, zb, &zbl)))
			goto out;
	}
	ADBG_EXPECT_BUFFER(c, za, zal, zb, zbl);
	wl = host_dh(&f, &a, &b, want);
	ADBG_EXPECT_BUFFER(c, want, wl, za, zal);
	/* The GP 1.1 form */
	{
		struct cc_attr pa = CC_REF(TEE_ATTR_DH_PUBLIC_VALUE, b.y, b.yl);
		uint32_t secret = 0;

		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_alloc_obj(s, TEE_TYPE_GENERIC_SECRET, bits, &secret))) {
			ADBG_EXPECT_TEEC_SUCCESS(c, cc_gp11_derive_key(s, opa, secret, &pa, 1));
			zbl = sizeof(zb);
			if (ct_attr(c, s, secret, TEE_ATTR_SECRET_VALUE, zb, &zbl))
				ADBG_EXPECT_BUFFER(c, za, zal, zb, zbl);
			cc_free_obj(s, secret);
		}
	}
out:
	cc_free_op(s, opa);
	cc_free_op(s, opb);
	cc_free_obj(s, a.key);
	cc_free_obj(s, b.key);
}

/* A DH peer value TEE_DeriveKey must refuse (it panics). */
static void dh_bad_peer(ADBG_Case_t *c, TEEC_Session *s, const struct ct_ffc *f, bool with_q,
			const uint8_t *peer, size_t len, const char *what)
{
	struct dh_side a;
	uint8_t z[512];
	size_t zl = sizeof(z);
	uint32_t op = 0;
	struct cc_attr p = CC_REF(TEE_ATTR_DH_PUBLIC_VALUE, peer, len);

	Do_ADBG_Log("    peer %s", what);
	if (!dh_side_make(c, s, f, with_q, 2048, &a))
		return;
	op = ct_op(c, s, TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, 2048, a.key);
	if (op)
		ct_expect_panic(c, s, derive(s, op, &p, 1, 2048, z, &zl));
}

static void dh_refusals(ADBG_Case_t *c, TEEC_Session *s)
{
	struct ct_ffc f;
	uint8_t v[512];
	struct dh_side a;
	uint32_t op = 0;
	uint32_t obj = 0;

	if (!ADBG_EXPECT_TRUE(c, ct_host_group("dh_2048_256", &f)))
		return;
	v[0] = 0;
	dh_bad_peer(c, s, &f, true, v, 1, "0");
	v[0] = 1;
	dh_bad_peer(c, s, &f, true, v, 1, "1");
	memcpy(v, f.p, f.p_len);
	dh_bad_peer(c, s, &f, true, v, f.p_len, "p");
	v[f.p_len - 1] -= 1;
	dh_bad_peer(c, s, &f, true, v, f.p_len, "p - 1");
	/* 2 is not in the subgroup of order q (RFC 5114's generators are not 2) */
	v[0] = 2;
	dh_bad_peer(c, s, &f, true, v, 1, "2, out of the subgroup");
	/* The peer value missing; the derived key not a generic secret */
	if (dh_side_make(c, s, &f, true, 2048, &a)) {
		op = ct_op(c, s, TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, 2048, a.key);
		if (op && ADBG_EXPECT_TEEC_SUCCESS(
			      c, cc_alloc_obj(s, TEE_TYPE_GENERIC_SECRET, 2048, &obj)))
			ct_expect_panic(c, s, cc_derive_key(s, op, obj, NULL, 0));
	}
	/* A derived key smaller than the secret takes it, as in OP-TEE (4215) */
	if (dh_side_make(c, s, &f, true, 2048, &a)) {
		struct cc_attr p = CC_REF(TEE_ATTR_DH_PUBLIC_VALUE, a.y, a.yl);

		op = ct_op(c, s, TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, 2048, a.key);
		if (op && ADBG_EXPECT_TEEC_SUCCESS(
			      c, cc_alloc_obj(s, TEE_TYPE_GENERIC_SECRET, 1024, &obj)))
			ADBG_EXPECT_TEEC_SUCCESS(c, cc_derive_key(s, op, obj, &p, 1));
		cc_free_obj(s, obj);
		cc_free_op(s, op);
		cc_free_obj(s, a.key);
	}
	if (dh_side_make(c, s, &f, true, 2048, &a)) {
		struct cc_attr p = CC_REF(TEE_ATTR_DH_PUBLIC_VALUE, a.y, a.yl);

		op = ct_op(c, s, TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, 2048, a.key);
		if (op && ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 256, &obj)))
			ct_expect_panic(c, s, cc_derive_key(s, op, obj, &p, 1));
	}
	/* TEE_DeriveKey on an operation of another class; before a key is set */
	op = ct_op(c, s, TEE_ALG_SHA256, TEE_MODE_DIGEST, 0, 0);
	if (op && ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_GENERIC_SECRET, 256, &obj)))
		ct_expect_panic(c, s, cc_derive_key(s, op, obj, NULL, 0));
	op = ct_op(c, s, TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, 2048, 0);
	if (op && ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_GENERIC_SECRET, 256, &obj)))
		ct_expect_panic(c, s, cc_derive_key(s, op, obj, NULL, 0));
}

static void xtest_tee_test_4008(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "DH: both sides agree, and with the host");
	dh_group(c, &s, "ffdhe2048", 2048, false);
	dh_group(c, &s, "modp_1536", 1536, false);
	dh_group(c, &s, "dh_1024_160", 1024, true);
	dh_group(c, &s, "dh_2048_256", 2048, true);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "DH: peer values and misuse that panic");
	dh_refusals(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4008, xtest_tee_test_4008, "Test TEE Internal API Derive key (DH)");

/* ---- 4009: ECDH ---- */

struct ecdh_kat {
	const char *title;
	uint32_t curve, bits;
	const char *d, *qx, *qy, *peer_x, *peer_y, *z;
};

static const struct ecdh_kat ecdh_kats[] = {
    {"NIST CAVS ECC CDH P-256 COUNT = 0", TEE_ECC_CURVE_NIST_P256, 256,
     "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
     "ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230",
     "28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141",
     "700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287",
     "db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
     "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b"},
    /* RFC 5903 8.1: the initiator's side, then the responder's */
    {"RFC 5903 8.1 (initiator)", TEE_ECC_CURVE_NIST_P256, 256,
     "C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433",
     "DAD0B65394221CF9B051E1FECA5787D098DFE637FC90B9EF945D0C3772581180",
     "5271A0461CDB8252D61F1C456FA3E59AB1F45B33ACCF5F58389E0577B8990BB3",
     "D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63",
     "56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB",
     "D6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE"},
    {"RFC 5903 8.1 (responder)", TEE_ECC_CURVE_NIST_P256, 256,
     "C6EF9C5D78AE012A011164ACB397CE2088685D8F06BF9BE0B283AB46476BEE53",
     "D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63",
     "56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB",
     "DAD0B65394221CF9B051E1FECA5787D098DFE637FC90B9EF945D0C3772581180",
     "5271A0461CDB8252D61F1C456FA3E59AB1F45B33ACCF5F58389E0577B8990BB3",
     "D6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE"},
};

static void ecdh_kat(ADBG_Case_t *c, TEEC_Session *s, const struct ecdh_kat *k, uint32_t alg)
{
	uint8_t d[66], qx[66], qy[66], px[66], py[66], want[66], z[66];
	size_t zl = sizeof(z);
	size_t wl = ct_unhex(k->z, want, sizeof(want));
	struct cc_attr key[] = {
	    CC_VALUE(TEE_ATTR_ECC_CURVE, k->curve, 0),
	    CC_REF(TEE_ATTR_ECC_PRIVATE_VALUE, d, ct_unhex(k->d, d, sizeof(d))),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, qx, ct_unhex(k->qx, qx, sizeof(qx))),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, qy, ct_unhex(k->qy, qy, sizeof(qy))),
	};
	struct cc_attr peer[] = {
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, px, ct_unhex(k->peer_x, px, sizeof(px))),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, py, ct_unhex(k->peer_y, py, sizeof(py))),
	};
	uint32_t pair = ct_key(c, s, TEE_TYPE_ECDH_KEYPAIR, k->bits, key, 4);
	uint32_t op = ct_op(c, s, alg, TEE_MODE_DERIVE, k->bits, pair);

	Do_ADBG_Log("    %s", k->title);
	if (op && ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, op, peer, 2, 528, z, &zl)))
		ADBG_EXPECT_BUFFER(c, want, wl, z, zl);
	cc_free_op(s, op);
	cc_free_obj(s, pair);
}

/* Two generated pairs on a curve agree, and the host agrees with them. */
static void ecdh_curve(ADBG_Case_t *c, TEEC_Session *s, uint32_t curve, uint32_t bits,
		       const char *name)
{
	struct cc_attr cv = CC_VALUE(TEE_ATTR_ECC_CURVE, curve, 0);
	uint32_t a = ct_genkey(c, s, TEE_TYPE_ECDH_KEYPAIR, bits, &cv, 1);
	uint32_t b = ct_genkey(c, s, TEE_TYPE_ECDH_KEYPAIR, bits, &cv, 1);
	uint32_t opa = ct_op(c, s, TEE_ALG_ECDH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, bits, a);
	uint32_t opb = ct_op(c, s, TEE_ALG_ECDH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, bits, b);
	size_t len = (bits + 7) / 8;
	uint8_t ax[66], ay[66], ad[66], bx[66], by[66], za[66], zb[66], want[66], pt[133];
	size_t axl = sizeof(ax), ayl = sizeof(ay), adl = sizeof(ad);
	size_t bxl = sizeof(bx), byl = sizeof(by), zal = sizeof(za), zbl = sizeof(zb);
	size_t wl = sizeof(want);

	Do_ADBG_Log("    ECDH on %s", name);
	if (!opa || !opb || !ct_attr(c, s, a, TEE_ATTR_ECC_PUBLIC_VALUE_X, ax, &axl) ||
	    !ct_attr(c, s, a, TEE_ATTR_ECC_PUBLIC_VALUE_Y, ay, &ayl) ||
	    !ct_attr(c, s, a, TEE_ATTR_ECC_PRIVATE_VALUE, ad, &adl) ||
	    !ct_attr(c, s, b, TEE_ATTR_ECC_PUBLIC_VALUE_X, bx, &bxl) ||
	    !ct_attr(c, s, b, TEE_ATTR_ECC_PUBLIC_VALUE_Y, by, &byl))
		goto out;
	{
		struct cc_attr pa[] = {CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, bx, bxl),
				       CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, by, byl)};
		struct cc_attr pb[] = {CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, ax, axl),
				       CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, ay, ayl)};

		if (!ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, opa, pa, 2, 528, za, &zal)) ||
		    !ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, opb, pb, 2, 528, zb, &zbl)))
			goto out;
	}
	ADBG_EXPECT(c, len, zal);
	ADBG_EXPECT_BUFFER(c, za, zal, zb, zbl);
	/* The host: a's private key with b's public point */
	{
		const char *const names[] = {OSSL_PKEY_PARAM_PRIV_KEY};
		const uint8_t *const values[] = {ad};
		EVP_PKEY *hk = NULL;
		EVP_PKEY *hp = NULL;
		EVP_PKEY_CTX *ctx = NULL;

		pt[0] = 0x04;
		memcpy(pt + 1, ax, len);
		memcpy(pt + 1 + len, ay, len);
		hk = ct_host_key("EC", name, pt, 1 + 2 * len, names, values, &adl, 1);
		memcpy(pt + 1, bx, len);
		memcpy(pt + 1 + len, by, len);
		hp = ct_host_key("EC", name, pt, 1 + 2 * len, NULL, NULL, NULL, 0);
		ctx = hk ? EVP_PKEY_CTX_new(hk, NULL) : NULL;
		if (ADBG_EXPECT_NOT_NULL(c, ctx) && ADBG_EXPECT_NOT_NULL(c, hp) &&
		    ADBG_EXPECT(c, 1, EVP_PKEY_derive_init(ctx)) &&
		    ADBG_EXPECT(c, 1, EVP_PKEY_derive_set_peer(ctx, hp)) &&
		    ADBG_EXPECT(c, 1, EVP_PKEY_derive(ctx, want, &wl)))
			ADBG_EXPECT_BUFFER(c, want, wl, za, zal);
		EVP_PKEY_CTX_free(ctx);
		EVP_PKEY_free(hk);
		EVP_PKEY_free(hp);
	}
out:
	cc_free_op(s, opa);
	cc_free_op(s, opb);
	cc_free_obj(s, a);
	cc_free_obj(s, b);
}

static void xtest_tee_test_4009(ADBG_Case_t *c)
{
	static const struct {
		uint32_t curve, bits;
		const char *name;
	} curves[] = {
	    {TEE_ECC_CURVE_NIST_P192, 192, "prime192v1"},
	    {TEE_ECC_CURVE_NIST_P224, 224, "secp224r1"},
	    {TEE_ECC_CURVE_NIST_P256, 256, "prime256v1"},
	    {TEE_ECC_CURVE_NIST_P384, 384, "secp384r1"},
	    {TEE_ECC_CURVE_NIST_P521, 521, "secp521r1"},
	};
	TEEC_Session s = {0};
	uint32_t key = 0;
	uint32_t op = 0;

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "ECDH known answers");
	for (size_t i = 0; i < sizeof(ecdh_kats) / sizeof(ecdh_kats[0]); i++)
		ecdh_kat(c, &s, &ecdh_kats[i], TEE_ALG_ECDH_DERIVE_SHARED_SECRET);
	/* OP-TEE's own ID for P-256 */
	ecdh_kat(c, &s, &ecdh_kats[0], __OPTEE_ALG_ECDH_P256);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "ECDH on every NIST curve, both sides and the host");
	for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++)
		ecdh_curve(c, &s, curves[i].curve, curves[i].bits, curves[i].name);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "ECDH misuse");
	/* OP-TEE's P-384 ID with a P-256 key; an ECDSA key */
	{
		struct cc_attr cv = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0);

		key = ct_genkey(c, &s, TEE_TYPE_ECDH_KEYPAIR, 256, &cv, 1);
		op = ct_op(c, &s, __OPTEE_ALG_ECDH_P384, TEE_MODE_DERIVE, 384, 0);
		if (key && op)
			ct_expect_panic(c, &s, cc_set_key(&s, op, key));
		key = ct_genkey(c, &s, TEE_TYPE_ECDSA_KEYPAIR, 256, &cv, 1);
		op = ct_op(c, &s, TEE_ALG_ECDH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, 256, 0);
		if (key && op)
			ct_expect_panic(c, &s, cc_set_key(&s, op, key));
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4009, xtest_tee_test_4009,
		 "Test TEE Internal API Derive key ECDH (known answers, every curve)");

/* ---- 4014: SM2 key exchange, GM/T 0003.5 annex B.2 ---- */

static const char kep_da[] = "81EB26E941BB5AF16DF116495F90695272AE2CD63D6C4AE1678418BE48230029";
static const char kep_xa[] = "160E12897DF4EDB61DD812FEB96748FBD3CCF4FFE26AA6F6DB9540AF49C94232";
static const char kep_ya[] = "4A7DAD08BB9A459531694BEB20AA489D6649975E1BFCF8C4741B78B4B223007F";
static const char kep_ra[] = "D4DE15474DB74D06491C440D305E012400990F3E390C7E87153C12DB2EA60BB3";
static const char kep_x1[] = "64CED1BDBC99D590049B434D0FD73428CF608A5DB8FE5CE07F15026940BAE40E";
static const char kep_y1[] = "376629C7AB21E7DB260922499DDB118F07CE8EAAE3E7720AFEF6A5CC062070C0";
static const char kep_db[] = "785129917D45A9EA5437A59356B82338EAADDA6CEB199088F14AE10DEFA229B5";
static const char kep_xb[] = "6AE848C57C53C7B1B5FA99EB2286AF078BA64C64591B8B566F7357D576F16DFB";
static const char kep_yb[] = "EE489D771621A27B36C5C7992062E9CD09A9264386F3FBEA54DFF69305621C4D";
static const char kep_rb[] = "7E07124814B309489125EAED101113164EBF0F3458C5BD88335C1F9D596243D6";
static const char kep_x2[] = "ACC27688A6F7B706098BC91FF3AD1BFF7DC2802CDB14CCCCDB0A90471F9BD707";
static const char kep_y2[] = "2FEDAC0494B2FFC4D6853876C79B8F301C6573AD0AA50F39FC87181E1A1B46FE";
static const char kep_id[] = "1234567812345678";
static const char kep_k[] = "6C89347354DE2484C60B4AB1FDE4C6E5";
static const char kep_sb[] = "D3A0FE15DEE185CEAE907A6B595CC32A266ED7B3367E9983A896DC32FA20F8EB";
static const char kep_sa[] = "18C7894B3816DF16CF07B05C5EC0BEF5D655D58F779CC1B400A4F3884644DB88";

struct kep_pt {
	uint8_t d[32], x[32], y[32];
};

static uint32_t kep_key(ADBG_Case_t *c, TEEC_Session *s, const char *d, const char *x,
			const char *y, struct kep_pt *p)
{
	struct cc_attr a[] = {
	    CC_REF(TEE_ATTR_ECC_PRIVATE_VALUE, p->d, ct_unhex(d, p->d, 32)),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, p->x, ct_unhex(x, p->x, 32)),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, p->y, ct_unhex(y, p->y, 32)),
	    CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_SM2, 0),
	};

	return ct_key(c, s, TEE_TYPE_SM2_KEP_KEYPAIR, 256, a, 4);
}

/*
 * One side of the exchange: initiator (A) or responder (B). conf_in is the
 * other side's confirmation (NULL: none); old_ids uses OP-TEE's former
 * attribute IDs for the peer's ephemeral point.
 */
static TEEC_Result kep_side(ADBG_Case_t *c, TEEC_Session *s, bool initiator, const uint8_t *conf_in,
			    bool old_ids, uint8_t *key, size_t *key_len, uint8_t conf_out[32])
{
	struct kep_pt own, eph, peer, peer_eph;
	uint8_t id[16];
	uint32_t k1 = initiator ? kep_key(c, s, kep_da, kep_xa, kep_ya, &own)
				: kep_key(c, s, kep_db, kep_xb, kep_yb, &own);
	uint32_t k2 = initiator ? kep_key(c, s, kep_ra, kep_x1, kep_y1, &eph)
				: kep_key(c, s, kep_rb, kep_x2, kep_y2, &eph);
	uint32_t op = 0;
	struct cc_attr p[9];
	size_t n = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	memcpy(id, kep_id, 16);
	ct_unhex(initiator ? kep_xb : kep_xa, peer.x, 32);
	ct_unhex(initiator ? kep_yb : kep_ya, peer.y, 32);
	ct_unhex(initiator ? kep_x2 : kep_x1, peer_eph.x, 32);
	ct_unhex(initiator ? kep_y2 : kep_y1, peer_eph.y, 32);
	p[n++] = CC_VALUE(TEE_ATTR_SM2_KEP_USER, initiator ? 0 : 1, 0);
	p[n++] = CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, peer.x, 32);
	p[n++] = CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, peer.y, 32);
	p[n++] = CC_REF(old_ids ? __OPTEE_SM2_KEP_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_X
				: TEE_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_X,
			peer_eph.x, 32);
	p[n++] = CC_REF(old_ids ? __OPTEE_SM2_KEP_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_Y
				: TEE_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_Y,
			peer_eph.y, 32);
	p[n++] = CC_REF(TEE_ATTR_SM2_ID_INITIATOR, id, 16);
	p[n++] = CC_REF(TEE_ATTR_SM2_ID_RESPONDER, id, 16);
	if (conf_in)
		p[n++] = CC_REF(TEE_ATTR_SM2_KEP_CONFIRMATION_IN, conf_in, 32);
	p[n++] = CC_REF(TEE_ATTR_SM2_KEP_CONFIRMATION_OUT, conf_out, 32);
	if (!k1 || !k2 ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c,
				      cc_alloc_op(s, TEE_ALG_SM2_KEP, TEE_MODE_DERIVE, 512, &op)))
		return TEEC_ERROR_GENERIC;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key2(s, op, k1, k2)))
		return TEEC_ERROR_GENERIC;
	cc_free_obj(s, k1);
	cc_free_obj(s, k2);
	/* The key is as many bytes long as maxObjectSize says bits (OP-TEE's 4014: 16) */
	res = derive(s, op, p, n, 16, key, key_len);
	if (res != TEEC_ERROR_TARGET_DEAD)
		cc_free_op(s, op);
	return res;
}

static void xtest_tee_test_4014(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint8_t k[32], want[16], sa[32], sb[32], conf[32];
	size_t kl = sizeof(k);
	size_t wl = ct_unhex(kep_k, want, sizeof(want));

	ct_unhex(kep_sa, sa, 32);
	ct_unhex(kep_sb, sb, 32);
	if (!ct_open(c, &s))
		return;
	if (cc_is_supported(&s, TEE_ALG_SM2_KEP, TEE_ECC_CURVE_SM2)) {
		Do_ADBG_Log("SM2 KEP not supported: skipped");
		goto out;
	}
	Do_ADBG_BeginSubCase(c, "Initiator side: K, S_B checked, S_A out");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, kep_side(c, &s, true, sb, false, k, &kl, conf))) {
		ADBG_EXPECT_BUFFER(c, want, wl, k, kl);
		ADBG_EXPECT_BUFFER(c, sa, 32, conf, 32);
	}
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Responder side: K, S_A checked, S_B out");
	kl = sizeof(k);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, kep_side(c, &s, false, sa, false, k, &kl, conf))) {
		ADBG_EXPECT_BUFFER(c, want, wl, k, kl);
		ADBG_EXPECT_BUFFER(c, sb, 32, conf, 32);
	}
	/* OP-TEE's former IDs of the peer's ephemeral point; no confirmation to check */
	kl = sizeof(k);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, kep_side(c, &s, false, NULL, true, k, &kl, conf)))
		ADBG_EXPECT_BUFFER(c, want, wl, k, kl);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "A confirmation that does not match panics");
	sb[0] ^= 1;
	kl = sizeof(k);
	ct_expect_panic(c, &s, kep_side(c, &s, true, sb, false, k, &kl, conf));
	Do_ADBG_EndSubCase(c, NULL);
out:
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4014, xtest_tee_test_4014, "Test SM2 KEP (key derivation)");

/* ---- 4015: X25519 ---- */

/* RFC 7748 6.1 */
static const char x_alice_d[] = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
static const char x_alice_q[] = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
static const char x_bob_d[] = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
static const char x_bob_q[] = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";
static const char x_shared[] = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";
/* RFC 7748 5.2, first vector */
static const char x52_k[] = "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4";
static const char x52_u[] = "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c";
static const char x52_out[] = "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552";

/* X25519 of own key (d, its public q) with the peer's u; the secret into z. */
static TEEC_Result x25519(ADBG_Case_t *c, TEEC_Session *s, const uint8_t d[32], const uint8_t q[32],
			  const uint8_t *u, size_t u_len, uint8_t *z, size_t *zl)
{
	struct cc_attr key[] = {CC_REF(TEE_ATTR_X25519_PRIVATE_VALUE, d, 32),
				CC_REF(TEE_ATTR_X25519_PUBLIC_VALUE, q, 32)};
	struct cc_attr peer = CC_REF(TEE_ATTR_X25519_PUBLIC_VALUE, u, u_len);
	uint32_t pair = ct_key(c, s, TEE_TYPE_X25519_KEYPAIR, 256, key, 2);
	uint32_t op = ct_op(c, s, TEE_ALG_X25519, TEE_MODE_DERIVE, 256, pair);
	TEEC_Result res = TEEC_ERROR_GENERIC;

	if (!op)
		return res;
	res = derive(s, op, &peer, 1, 256, z, zl);
	if (res != TEEC_ERROR_TARGET_DEAD) {
		cc_free_op(s, op);
		cc_free_obj(s, pair);
	}
	return res;
}

static void xtest_tee_test_4015(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint8_t ad[32], aq[32], bd[32], bq[32], want[32], z[32], k[32], kq[32], u[32];
	size_t zl = sizeof(z);
	size_t kql = sizeof(kq);
	EVP_PKEY *host = NULL;

	ct_unhex(x_alice_d, ad, 32);
	ct_unhex(x_alice_q, aq, 32);
	ct_unhex(x_bob_d, bd, 32);
	ct_unhex(x_bob_q, bq, 32);
	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "RFC 7748 6.1: Alice and Bob agree");
	ct_unhex(x_shared, want, 32);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, x25519(c, &s, ad, aq, bq, 32, z, &zl)))
		ADBG_EXPECT_BUFFER(c, want, 32, z, zl);
	zl = sizeof(z);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, x25519(c, &s, bd, bq, aq, 32, z, &zl)))
		ADBG_EXPECT_BUFFER(c, want, 32, z, zl);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "RFC 7748 5.2: scalar and u-coordinate");
	ct_unhex(x52_k, k, 32);
	ct_unhex(x52_u, u, 32);
	ct_unhex(x52_out, want, 32);
	/* The key pair's public value, which GP requires, from the host */
	host = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k, 32);
	zl = sizeof(z);
	if (ADBG_EXPECT_NOT_NULL(c, host) &&
	    ADBG_EXPECT(c, 1, EVP_PKEY_get_raw_public_key(host, kq, &kql)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, x25519(c, &s, k, kq, u, 32, z, &zl)))
		ADBG_EXPECT_BUFFER(c, want, 32, z, zl);
	EVP_PKEY_free(host);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "A point of small order: an all-zero secret, as OP-TEE");
	memset(u, 0, sizeof(u));
	memset(want, 0, sizeof(want));
	zl = sizeof(z);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, x25519(c, &s, ad, aq, u, 32, z, &zl)))
		ADBG_EXPECT_BUFFER(c, want, 32, z, zl);
	u[0] = 1;
	zl = sizeof(z);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, x25519(c, &s, ad, aq, u, 32, z, &zl)))
		ADBG_EXPECT_BUFFER(c, want, 32, z, zl);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Generated pairs agree; a peer value of 31 bytes panics");
	{
		uint32_t a = ct_genkey(c, &s, TEE_TYPE_X25519_KEYPAIR, 256, NULL, 0);
		uint32_t b = ct_genkey(c, &s, TEE_TYPE_X25519_KEYPAIR, 256, NULL, 0);
		uint8_t pa[32], pb[32], za[32], zb[32];
		size_t pal = sizeof(pa), pbl = sizeof(pb), zal = sizeof(za), zbl = sizeof(zb);
		uint32_t opa = ct_op(c, &s, TEE_ALG_X25519, TEE_MODE_DERIVE, 256, a);
		uint32_t opb = ct_op(c, &s, TEE_ALG_X25519, TEE_MODE_DERIVE, 256, b);

		if (opa && opb && ct_attr(c, &s, a, TEE_ATTR_X25519_PUBLIC_VALUE, pa, &pal) &&
		    ct_attr(c, &s, b, TEE_ATTR_X25519_PUBLIC_VALUE, pb, &pbl)) {
			struct cc_attr qa = CC_REF(TEE_ATTR_X25519_PUBLIC_VALUE, pb, pbl);
			struct cc_attr qb = CC_REF(TEE_ATTR_X25519_PUBLIC_VALUE, pa, pal);

			if (ADBG_EXPECT_TEEC_SUCCESS(c, derive(&s, opa, &qa, 1, 256, za, &zal)) &&
			    ADBG_EXPECT_TEEC_SUCCESS(c, derive(&s, opb, &qb, 1, 256, zb, &zbl)))
				ADBG_EXPECT_BUFFER(c, za, zal, zb, zbl);
			qa.len = 31;
			ct_expect_panic(c, &s, derive(&s, opa, &qa, 1, 256, za, &zal));
		}
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4015, xtest_tee_test_4015, "Test TEE Internal API Derive key X25519");

/* ---- 4019: ECDH refuses points off the curve ---- */

static void bad_point(ADBG_Case_t *c, TEEC_Session *s, uint32_t curve, uint32_t bits,
		      const uint8_t *x, size_t xl, const uint8_t *y, size_t yl, const char *what)
{
	struct cc_attr cv = CC_VALUE(TEE_ATTR_ECC_CURVE, curve, 0);
	struct cc_attr peer[] = {CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, x, xl),
				 CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, y, yl)};
	uint32_t key = ct_genkey(c, s, TEE_TYPE_ECDH_KEYPAIR, bits, &cv, 1);
	uint32_t op = ct_op(c, s, TEE_ALG_ECDH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, bits, key);
	uint8_t z[66];
	size_t zl = sizeof(z);

	Do_ADBG_Log("    curve 0x%x: %s", curve, what);
	if (op)
		ct_expect_panic(c, s, derive(s, op, peer, 2, 528, z, &zl));
}

static void xtest_tee_test_4019(ADBG_Case_t *c)
{
	static const struct {
		uint32_t curve, bits;
		int nid;
	} curves[] = {
	    {TEE_ECC_CURVE_NIST_P192, 192, NID_X9_62_prime192v1},
	    {TEE_ECC_CURVE_NIST_P224, 224, NID_secp224r1},
	    {TEE_ECC_CURVE_NIST_P256, 256, NID_X9_62_prime256v1},
	    {TEE_ECC_CURVE_NIST_P384, 384, NID_secp384r1},
	    {TEE_ECC_CURVE_NIST_P521, 521, NID_secp521r1},
	};
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "ECDH: peer points off the curve panic TEE_DeriveKey");
	for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++) {
		size_t len = (curves[i].bits + 7) / 8;
		EC_GROUP *g = EC_GROUP_new_by_curve_name(curves[i].nid);
		BIGNUM *p = BN_new();
		uint8_t gx[66] = {0}, gy[66] = {0}, pb[66] = {0}, zero[66] = {0}, big[67];

		/* The generator, moved off the curve; (0, 0); x = p; x longer than the field */
		if (!ADBG_EXPECT_TRUE(c, g && p && EC_GROUP_get_curve(g, p, NULL, NULL, NULL)))
			goto next;
		{
			BIGNUM *bx = BN_new();
			BIGNUM *by = BN_new();

			if (bx && by &&
			    EC_POINT_get_affine_coordinates(g, EC_GROUP_get0_generator(g), bx, by,
							    NULL)) {
				BN_bn2binpad(bx, gx, (int)len);
				BN_bn2binpad(by, gy, (int)len);
			}
			BN_free(bx);
			BN_free(by);
		}
		BN_bn2binpad(p, pb, (int)len);
		memset(big, 0x01, sizeof(big));
		gy[len - 1] ^= 1;
		bad_point(c, &s, curves[i].curve, curves[i].bits, gx, len, gy, len,
			  "the generator with y changed");
		gy[len - 1] ^= 1;
		bad_point(c, &s, curves[i].curve, curves[i].bits, zero, len, zero, len, "(0, 0)");
		bad_point(c, &s, curves[i].curve, curves[i].bits, pb, len, gy, len, "x = p");
		bad_point(c, &s, curves[i].curve, curves[i].bits, big, len + 1, gy, len,
			  "x longer than the field");
		/* The same key with the generator itself is fine */
		{
			struct cc_attr cv = CC_VALUE(TEE_ATTR_ECC_CURVE, curves[i].curve, 0);
			struct cc_attr peer[] = {CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, gx, len),
						 CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, gy, len)};
			uint32_t key =
			    ct_genkey(c, &s, TEE_TYPE_ECDH_KEYPAIR, curves[i].bits, &cv, 1);
			uint32_t op = ct_op(c, &s, TEE_ALG_ECDH_DERIVE_SHARED_SECRET,
					    TEE_MODE_DERIVE, curves[i].bits, key);
			uint8_t z[66];
			size_t zl = sizeof(z);

			if (op)
				ADBG_EXPECT_TEEC_SUCCESS(c, derive(&s, op, peer, 2, 528, z, &zl));
			cc_free_op(&s, op);
			cc_free_obj(&s, key);
		}
	next:
		BN_free(p);
		EC_GROUP_free(g);
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4019, xtest_tee_test_4019,
		 "Test TEE Internal API ECDH invalid curve attack rejection");
