/*
 * The signed header at the front of a TA image, under OP-TEE's names
 * (struct shdr and its subheaders), for code that reads or takes images
 * apart: xtest 1008 corrupts each field in turn.
 *
 * swtee's <uuid>.ta uses OP-TEE's bootstrap TA layout
 * (src/common/ta_image_format.h in swtee's sources):
 *
 *   struct shdr || hash[hash_size] || sig[sig_size] || struct shdr_bootstrap_ta || ELF[img_size]
 *
 * with hash = SHA-256 over shdr, the bootstrap header and the ELF, and sig
 * an RSA signature of hash (algo TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256 or
 * TEE_ALG_RSASSA_PKCS1_V1_5_SHA256). Integers are little-endian, which is
 * the byte order of every host swtee runs on, so these structures overlay
 * an image read into memory. Where swtee differs from OP-TEE:
 *   - img_type must be SHDR_BOOTSTRAP_TA: legacy (SHDR_TA), encrypted
 *     (SHDR_ENCRYPTED_TA) and subkey-signed (SHDR_SUBKEY) images are
 *     refused; their layouts are described here for reading OP-TEE's;
 *   - the ELF is a shared object for the host, not an Arm TA;
 *   - the core verifies images when it loads them from the TA directories;
 *     it has no functions of OP-TEE's core for this header
 *     (shdr_verify_signature() and the like), and no pseudo TA that
 *     installs images (pta_secstor_ta_mgmt.h).
 */
#ifndef SIGNED_HDR_H
#define SIGNED_HDR_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <tee_api_types.h>

/* "HSTO" read as a little-endian u32: the first four bytes of an image. */
#define SHDR_MAGIC 0x4f545348

enum shdr_img_type {
	SHDR_TA = 0,
	SHDR_BOOTSTRAP_TA = 1,
	SHDR_ENCRYPTED_TA = 2,
	SHDR_SUBKEY = 3,
};

/*
 * The fixed part of the header. algo is a GP TEE_ALG_* signature
 * algorithm; img_size the size of the ELF; hash_size and sig_size the
 * sizes of the two fields that follow the structure (SHDR_GET_HASH,
 * SHDR_GET_SIG).
 */
struct shdr {
	uint32_t magic;
	uint32_t img_type;
	uint32_t img_size;
	uint32_t algo;
	uint16_t hash_size;
	uint16_t sig_size;
};

/* Size of shdr with its hash and signature; 0 if that overflows size_t. */
static inline size_t shdr_get_size(const struct shdr *shdr)
{
	size_t size = sizeof(*shdr);

	if (__builtin_add_overflow(size, shdr->hash_size, &size) ||
	    __builtin_add_overflow(size, shdr->sig_size, &size))
		return 0;
	return size;
}

#define SHDR_GET_SIZE(x) shdr_get_size((x))
#define SHDR_GET_HASH(x) ((uint8_t *)(((struct shdr *)(x)) + 1))
#define SHDR_GET_SIG(x) (SHDR_GET_HASH(x) + (x)->hash_size)

/* Follows the signature in a bootstrap image; covered by the hash. */
struct shdr_bootstrap_ta {
	uint8_t uuid[sizeof(TEE_UUID)]; /* big-endian, as in RFC 4122 */
	uint32_t ta_version;
};

/*
 * OP-TEE's encrypted image: follows struct shdr_bootstrap_ta, with iv and
 * tag after it. enc_algo is TEE_ALG_AES_GCM (or CCM); the key type is
 * flags & SHDR_ENC_KEY_TYPE_MASK.
 */
struct shdr_encrypted_ta {
	uint32_t enc_algo;
	uint32_t flags;
	uint16_t iv_size;
	uint16_t tag_size;
};

#define SHDR_ENC_KEY_TYPE_MASK 0x1

enum shdr_enc_key_type {
	SHDR_ENC_KEY_DEV_SPECIFIC = 0,
	SHDR_ENC_KEY_CLASS_WIDE = 1,
};

/* Size of shdr_encrypted_ta with its iv and tag; 0 on overflow. */
static inline size_t shdr_enc_get_size(const struct shdr_encrypted_ta *ehdr)
{
	size_t size = sizeof(*ehdr);

	if (__builtin_add_overflow(size, ehdr->iv_size, &size) ||
	    __builtin_add_overflow(size, ehdr->tag_size, &size))
		return 0;
	return size;
}

#define SHDR_ENC_GET_SIZE(x) shdr_enc_get_size((x))
#define SHDR_ENC_GET_IV(x) ((uint8_t *)(((struct shdr_encrypted_ta *)(x)) + 1))
#define SHDR_ENC_GET_TAG(x) (SHDR_ENC_GET_IV(x) + (x)->iv_size)

/*
 * OP-TEE's subkey: the payload of an SHDR_SUBKEY header, a public key
 * (attrs[] point into it, offs counted from the start of this structure)
 * that signs the next header in the chain. name_size bytes of name follow
 * when the next UUID is derived from it.
 */
struct shdr_subkey_attr {
	uint32_t id; /* TEE_ATTR_* */
	uint32_t offs;
	uint32_t size;
};

struct shdr_subkey {
	uint8_t uuid[sizeof(TEE_UUID)];
	uint32_t name_size;
	uint32_t subkey_version;
	uint32_t max_depth;
	uint32_t algo;
	uint32_t attr_count;
	struct shdr_subkey_attr attrs[];
};

#endif /* SIGNED_HDR_H */
