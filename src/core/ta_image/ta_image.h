/*
 * Verification of signed TA images (format in ta_image_format.h) and the
 * bounded parser of a TA ELF's .ta_head section. Nothing here executes or
 * maps the image; the bytes are read only through a bounded reader. The
 * library swtee_ta_image, linked by swteed and by the swtee tool, so it
 * depends on libcrypto and src/common only.
 */
#ifndef SWTEE_TA_IMAGE_H
#define SWTEE_TA_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "ta_image_format.h"
#include "uuid.h"

enum ta_image_error {
	TA_IMAGE_OK = 0,
	TA_IMAGE_E_GENERIC = -1,   /* bad arguments, out of memory, libcrypto failure */
	TA_IMAGE_E_SIZE = -2,	   /* truncated, trailing bytes, or a size field out of range */
	TA_IMAGE_E_MAGIC = -3,	   /* not a signed TA image */
	TA_IMAGE_E_TYPE = -4,	   /* legacy, encrypted or unknown img_type */
	TA_IMAGE_E_ALGO = -5,	   /* unknown signature algorithm */
	TA_IMAGE_E_HASH = -6,	   /* stored hash differs from the image's hash */
	TA_IMAGE_E_SIGNATURE = -7, /* no trusted key accepts the signature */
	TA_IMAGE_E_UUID = -8,	   /* header vs .ta_head, or header vs expected */
	TA_IMAGE_E_ELF = -9,	   /* ELF malformed, or no usable .ta_head */
	TA_IMAGE_E_SUBKEY = -10,   /* subkey: depth exceeded, bad attribute or key */
};

struct ta_image_info {
	struct swtee_uuid uuid; /* from the signed header, equal to .ta_head's */
	uint32_t ta_version;
	uint32_t flags;			/* TA_FLAG_* from .ta_head */
	uint32_t stack_size;		/* from .ta_head */
	uint32_t data_size;		/* TA_DATA_SIZE_SECTION's, 0 if the ELF has none */
	size_t elf_offset, elf_len;	/* where the ELF lies inside the image */
	uint32_t subkeys;		/* subkey headers the image is signed through */
	uint8_t digest[SHDR_HASH_SIZE]; /* the signed header's hash, checked (verify only) */
};

/* One subkey header of a chain (format in ta_image_format.h). */
struct ta_subkey_info {
	struct swtee_uuid uuid;
	uint32_t name_size;
	uint32_t version;
	uint32_t max_depth;
	uint32_t algo;
};

/*
 * Verifies the image img[0..len) and fills *info.
 * keys: the trusted RSA public keys, nkeys >= 1; the signature is tried with
 * each key whose modulus size equals sig_size, in order, until one accepts.
 * Keys that are not RSA or are shorter than SHDR_MIN_RSA_BITS never accept.
 * expected: the UUID the caller asked for, or NULL.
 * Order: header sizes and caps, exact length, hash (constant-time compare),
 * signature, expected UUID, then .ta_head; nothing of the ELF is parsed
 * before the signature is accepted.
 * An image may begin with up to SHDR_MAX_SUBKEYS subkey headers, as OP-TEE's:
 * the first is signed by a trusted key, each next one by the subkey before
 * it, with a max_depth below the previous one's and a UUID in its namespace;
 * then the TA's image is verified as above with the last subkey only, and its
 * UUID must be the last subkey's namespace UUID. Each subkey header is
 * authenticated before its fields are used.
 * Returns TA_IMAGE_OK, or a negative enum ta_image_error and a one-line reason
 * in why (truncated to whylen; why may be NULL). *info is zeroed on entry and
 * filled on success only.
 */
int ta_image_verify(const uint8_t *img, size_t len, const struct swtee_uuid *expected,
		    EVP_PKEY *const *keys, size_t nkeys, struct ta_image_info *info, char *why,
		    size_t whylen);

/*
 * ta_image_verify for a TA library: the same checks up to the expected UUID
 * (required here), then ta_elf_check_lib instead of .ta_head. info->flags
 * and info->stack_size are 0.
 */
int ta_image_verify_lib(const uint8_t *img, size_t len, const struct swtee_uuid *expected,
			EVP_PKEY *const *keys, size_t nkeys, struct ta_image_info *info, char *why,
			size_t whylen);

/*
 * What the image img[0..len), hostile input, states of its TA, for display
 * only (swtee status --properties): NEITHER ITS HASH NOR ANY SIGNATURE IS
 * CHECKED, so nothing read here may be trusted; ta_image_verify does that.
 * Subkey headers are walked as ta_subkey_chain_parse walks them, then the
 * TA's header gets ta_image_verify's checks of sizes and fields, then the
 * bootstrap header and .ta_head are read, their UUIDs equal. Returns
 * TA_IMAGE_OK or a negative enum ta_image_error with a reason in why;
 * *info is zeroed on entry and filled on success only.
 */
int ta_image_inspect(const uint8_t *img, size_t len, struct ta_image_info *info, char *why,
		     size_t whylen);

/*
 * Walks the subkey chain chain[0..len) that swtee sign --sign-subkey writes:
 * subkey headers, each but the last followed by its name, with nothing after
 * the last. Only the structure is checked, not signatures: that is the
 * verifier's job with the trusted keys. On success fills *last with the last
 * subkey, *count with the number of subkeys, *key (if key is not NULL; the
 * caller frees it with EVP_PKEY_free) with the last subkey's public key.
 * Returns TA_IMAGE_OK or a negative enum ta_image_error with
 * a reason in why.
 */
int ta_subkey_chain_parse(const uint8_t *chain, size_t len, struct ta_subkey_info *last,
			  uint32_t *count, EVP_PKEY **key, char *why, size_t whylen);

/*
 * The UUID that follows a subkey of UUID ns and name name[0..name_size): the
 * UUIDv5 built with SHA-512 over ns's bytes and the name up to its first NUL,
 * as OP-TEE computes it, or ns itself when name_size is 0. Returns 0 or -1.
 */
int ta_subkey_next_uuid(const struct swtee_uuid *ns, const uint8_t *name, size_t name_size,
			struct swtee_uuid *out);

/*
 * Checks that the ELF64 elf[0..len), hostile input, is a TA library for
 * uuid: a shared object of this host's machine, without a .ta_head section,
 * whose DT_SONAME is uuid's string form (what a TA linked with it names in
 * its DT_NEEDED). Returns TA_IMAGE_OK or TA_IMAGE_E_ELF with a reason in why.
 */
int ta_elf_check_lib(const uint8_t *elf, size_t len, const struct swtee_uuid *uuid, char *why,
		     size_t whylen);

/*
 * The TA_DATA_SIZE the kit recorded in TA_DATA_SIZE_SECTION of elf[0..len):
 * TA_IMAGE_OK with *data_size, 0 when there is no such section; an error
 * when the ELF or that section is malformed.
 */
int ta_elf_read_data_size(const uint8_t *elf, size_t len, uint32_t *data_size, char *why,
			  size_t whylen);

/*
 * Reads the .ta_head section of the ELF64 shared object elf[0..len), which is
 * hostile input: little-endian, ET_DYN, e_machine TA_ELF_MACHINE, exactly one
 * section named .ta_head, of type PROGBITS and at least TA_HEAD_SIZE bytes.
 * Out-params are zeroed on entry. Returns TA_IMAGE_OK or TA_IMAGE_E_ELF (or
 * TA_IMAGE_E_GENERIC for bad arguments), with a reason in why.
 */
int ta_elf_read_head(const uint8_t *elf, size_t len, struct swtee_uuid *uuid, uint32_t *stack_size,
		     uint32_t *flags, char *why, size_t whylen);

/*
 * Loads an RSA public key from PEM bytes: a PUBLIC KEY block, or a private key
 * (unencrypted; never prompts) of which only the public half is kept.
 * Returns NULL if no such key is found, if it is not RSA, or if it is shorter
 * than SHDR_MIN_RSA_BITS. The caller frees the key with EVP_PKEY_free.
 */
EVP_PKEY *ta_image_load_pubkey_pem(const char *pem, size_t len);

/*
 * The format's crypto profile, shared by the verifier and the signer.
 * ta_image_hash: SHA-256 of shdr[0..SHDR_SIZE) || rest[0..rest_len), where
 * rest is the bootstrap header followed by the ELF. Returns 0 or -1.
 * ta_image_sig_params: sets padding, digest, MGF1 digest and salt length for
 * algo on a context already set up by EVP_PKEY_sign_init or
 * EVP_PKEY_verify_init. Returns 0, or -1 for an unknown algo or a libcrypto
 * failure.
 */
int ta_image_hash(const uint8_t *shdr, const uint8_t *rest, size_t rest_len,
		  uint8_t hash[SHDR_HASH_SIZE]);
int ta_image_sig_params(EVP_PKEY_CTX *ctx, uint32_t algo);

/* Writes a one-line reason into why (printf-style); a long reason is cut. */
void ta_image_set_why(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
