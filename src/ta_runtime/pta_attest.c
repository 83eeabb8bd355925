/*
 * The attestation pseudo-TA (pta_attestation.h), at OP-TEE's UUID and
 * command ids. Its instance holds the device's attestation key: an RSA key
 * of ATTEST_KEY_BITS, made on first use and kept in this pseudo-TA's own
 * trusted storage (no TA file can take its UUID, so no TA reaches the key).
 * The core measures (src/core/pta_attest.c); this signs:
 *
 *   out = digest[32] || RSASSA-PSS-MGF1-SHA256 (salt 32) of SHA-256(nonce || digest)
 *
 * GET_PUBKEY           exponent, modulus (big-endian) and the algorithm
 * GET_TA_SHDR_DIGEST   a TA's or TA library's signed header digest, by UUID
 * HASH_TA_MEMORY       the calling TA instance's measure (its TA's and
 *                      libraries' signed digests, in load order); a client
 *                      application gets TEE_ERROR_ACCESS_DENIED
 * HASH_TEE_MEMORY      the core's code and constants as mapped now
 */
#include <string.h>

#include <pta_attestation.h>
#include <tee_internal_api.h>

#include "buf.h"
#include "proto.h"
#include "pta_client.h"
#include "runtime.h"
#include "uuid.h"

#define ATTEST_KEY_BITS 3072
#define ATTEST_SALT_LEN 32
#define ATTEST_MOD_MAX (4096 / 8)

#define PT_GET(t, i) TEE_PARAM_TYPE_GET(t, i)

static const char key_id[] = "attestation-rsa-key";
static TEE_ObjectHandle key = TEE_HANDLE_NULL;

/* The key, made and stored the first time any instance of this pseudo-TA needs it. */
static TEE_Result key_get(void)
{
	const uint32_t flags = TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_SHARE_READ;
	TEE_ObjectHandle made = TEE_HANDLE_NULL;
	TEE_Result res = TEE_SUCCESS;

	if (key != TEE_HANDLE_NULL)
		return TEE_SUCCESS;
	res =
	    TEE_OpenPersistentObject(TEE_STORAGE_PRIVATE, key_id, sizeof(key_id) - 1, flags, &key);
	if (res != TEE_ERROR_ITEM_NOT_FOUND)
		return res;
	res = TEE_AllocateTransientObject(TEE_TYPE_RSA_KEYPAIR, ATTEST_KEY_BITS, &made);
	if (!res)
		res = TEE_GenerateKey(made, ATTEST_KEY_BITS, NULL, 0);
	if (!res)
		res = TEE_CreatePersistentObject(TEE_STORAGE_PRIVATE, key_id, sizeof(key_id) - 1,
						 flags, made, NULL, 0, &key);
	/* Another instance stored one meanwhile: that one is the device's. */
	if (res == TEE_ERROR_ACCESS_CONFLICT)
		res = TEE_OpenPersistentObject(TEE_STORAGE_PRIVATE, key_id, sizeof(key_id) - 1,
					       flags, &key);
	TEE_FreeTransientObject(made);
	if (res)
		key = TEE_HANDLE_NULL;
	return res;
}

static size_t modulus_len(void)
{
	TEE_ObjectInfo info;

	TEE_GetObjectInfo1(key, &info);
	return (info.objectSize + 7) / 8;
}

static TEE_Result get_pubkey(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	uint8_t e[16];
	uint8_t n[ATTEST_MOD_MAX];
	size_t e_len = sizeof(e);
	size_t n_len = sizeof(n);
	TEE_Result res = TEE_SUCCESS;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_OUTPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	res = key_get();
	if (!res)
		res = TEE_GetObjectBufferAttribute(key, TEE_ATTR_RSA_PUBLIC_EXPONENT, e, &e_len);
	if (!res)
		res = TEE_GetObjectBufferAttribute(key, TEE_ATTR_RSA_MODULUS, n, &n_len);
	if (res)
		return TEE_ERROR_GENERIC;
	if (p[0].memref.size < e_len || p[1].memref.size < n_len || !p[0].memref.buffer ||
	    !p[1].memref.buffer) {
		p[0].memref.size = e_len;
		p[1].memref.size = n_len;
		return TEE_ERROR_SHORT_BUFFER;
	}
	memcpy(p[0].memref.buffer, e, e_len);
	memcpy(p[1].memref.buffer, n, n_len);
	p[0].memref.size = e_len;
	p[1].memref.size = n_len;
	p[2].value.a = TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256;
	p[2].value.b = 0;
	return TEE_SUCCESS;
}

/* out = digest || the signature of SHA-256(nonce || digest). */
static TEE_Result sign_into(const TEE_Param *nonce, const uint8_t digest[PROTO_ATTEST_DIGEST_LEN],
			    TEE_Param *out)
{
	TEE_OperationHandle hash = TEE_HANDLE_NULL;
	TEE_OperationHandle sign = TEE_HANDLE_NULL;
	TEE_Attribute salt;
	uint8_t h[PROTO_ATTEST_DIGEST_LEN];
	size_t h_len = sizeof(h);
	size_t sig_len = 0;
	size_t need = 0;
	TEE_Result res = key_get();

	if (res)
		return TEE_ERROR_GENERIC;
	sig_len = modulus_len();
	need = PROTO_ATTEST_DIGEST_LEN + sig_len;
	if (!out->memref.buffer || out->memref.size < need) {
		out->memref.size = need;
		return TEE_ERROR_SHORT_BUFFER;
	}
	res = TEE_AllocateOperation(&hash, TEE_ALG_SHA256, TEE_MODE_DIGEST, 0);
	if (!res) {
		TEE_DigestUpdate(hash, nonce->memref.buffer, nonce->memref.size);
		res = TEE_DigestDoFinal(hash, digest, PROTO_ATTEST_DIGEST_LEN, h, &h_len);
	}
	if (!res)
		res = TEE_AllocateOperation(&sign, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256,
					    TEE_MODE_SIGN, (uint32_t)(sig_len * 8));
	if (!res)
		res = TEE_SetOperationKey(sign, key);
	if (!res) {
		uint8_t *o = out->memref.buffer;

		TEE_InitValueAttribute(&salt, TEE_ATTR_RSA_PSS_SALT_LENGTH, ATTEST_SALT_LEN, 0);
		res = TEE_AsymmetricSignDigest(sign, &salt, 1, h, h_len,
					       o + PROTO_ATTEST_DIGEST_LEN, &sig_len);
		if (!res) {
			memcpy(o, digest, PROTO_ATTEST_DIGEST_LEN);
			out->memref.size = PROTO_ATTEST_DIGEST_LEN + sig_len;
		}
	}
	if (hash != TEE_HANDLE_NULL)
		TEE_FreeOperation(hash);
	if (sign != TEE_HANDLE_NULL)
		TEE_FreeOperation(sign);
	return res ? TEE_ERROR_GENERIC : TEE_SUCCESS;
}

/* Asks the core to measure what (PROTO_ATTEST_*: of uuid, of session sid, or the TEE). */
static TEE_Result measure(uint32_t what, const struct swtee_uuid *uuid, uint32_t sid,
			  uint8_t digest[PROTO_ATTEST_DIGEST_LEN])
{
	uint8_t out[24];
	uint8_t in[8 + PROTO_ATTEST_DIGEST_LEN];
	struct buf_writer w;
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t res = TEE_ERROR_COMMUNICATION;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_ATTEST);
	buf_put_u32(&w, what);
	if (what == PROTO_ATTEST_TA_IMAGE)
		buf_put_bytes(&w, uuid->b, sizeof(uuid->b));
	else if (what == PROTO_ATTEST_TA_MEMORY)
		buf_put_u32(&w, sid);
	res =
	    rt_ctl_request(out, buf_written(&w), -1, MSG_CTL_ATTEST_RSP, in, sizeof(in), &fds, &r);
	msg_fds_close(&fds);
	if (res)
		return res;
	buf_get_bytes(&r, digest, PROTO_ATTEST_DIGEST_LEN);
	return buf_done(&r) ? TEE_SUCCESS : TEE_ERROR_COMMUNICATION;
}

static bool nonce_ok(const TEE_Param *p)
{
	return p->memref.buffer && p->memref.size;
}

static TEE_Result ta_shdr_digest(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	uint8_t digest[PROTO_ATTEST_DIGEST_LEN];
	struct swtee_uuid uuid;
	TEE_UUID u;
	TEE_Result res = TEE_SUCCESS;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_INPUT,
				     TEE_PARAM_TYPE_MEMREF_OUTPUT, TEE_PARAM_TYPE_NONE) ||
	    !p[0].memref.buffer || p[0].memref.size != sizeof(u) || !nonce_ok(&p[1]))
		return TEE_ERROR_BAD_PARAMETERS;
	memcpy(&u, p[0].memref.buffer, sizeof(u));
	uuid_from_fields(&uuid, u.timeLow, u.timeMid, u.timeHiAndVersion, u.clockSeqAndNode);
	res = measure(PROTO_ATTEST_TA_IMAGE, &uuid, 0, digest);
	return res ? res : sign_into(&p[1], digest, &p[2]);
}

static TEE_Result hash_memory(uint32_t what, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	uint8_t digest[PROTO_ATTEST_DIGEST_LEN];
	TEE_Result res = TEE_SUCCESS;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE) ||
	    !nonce_ok(&p[0]))
		return TEE_ERROR_BAD_PARAMETERS;
	if (what == PROTO_ATTEST_TA_MEMORY &&
	    (!rt.current || rt.current->login != TEE_LOGIN_TRUSTED_APP))
		return TEE_ERROR_ACCESS_DENIED;
	res = measure(what, NULL, rt.current ? rt.current->id : 0, digest);
	return res ? res : sign_into(&p[0], digest, &p[1]);
}

TEE_Result rt_pta_attest_invoke(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	switch (cmd) {
	case PTA_ATTESTATION_GET_PUBKEY:
		return get_pubkey(types, p);
	case PTA_ATTESTATION_GET_TA_SHDR_DIGEST:
		return ta_shdr_digest(types, p);
	case PTA_ATTESTATION_HASH_TA_MEMORY:
		return hash_memory(PROTO_ATTEST_TA_MEMORY, types, p);
	case PTA_ATTESTATION_HASH_TEE_MEMORY:
		return hash_memory(PROTO_ATTEST_TEE, types, p);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
