/* Producing signed TA images (format in ta_image_format.h). */
#ifndef SWTEE_TA_SIGN_H
#define SWTEE_TA_SIGN_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "ta_image.h"
#include "uuid.h"

/*
 * Wraps elf[0..len) into a bootstrap TA image for uuid and version, signed
 * with the RSA private key (at least SHDR_MIN_RSA_BITS, at most
 * SHDR_MAX_SIG_SIZE bytes of modulus) using algo (SHDR_ALGO_*).
 * The ELF is not inspected: checking its .ta_head against uuid is the
 * caller's policy (swtee sign does it), so tests can sign malformed TAs.
 * On success returns TA_IMAGE_OK and *out (malloc'd, the caller frees it) of
 * *outlen bytes. On failure returns a negative enum ta_image_error, writes a
 * reason into why, and leaves *out NULL and *outlen 0.
 */
int ta_image_sign(const uint8_t *elf, size_t len, const struct swtee_uuid *uuid, uint32_t version,
		  uint32_t algo, EVP_PKEY *key, uint8_t **out, size_t *outlen, char *why,
		  size_t whylen);

/*
 * ta_image_sign under the subkey chain chain[0..chain_len) (a file that
 * ta_subkey_sign wrote), key being the last subkey's private key: writes the
 * chain, name NUL-padded to the last subkey's name_size, then the signed TA
 * image. uuid must be the last subkey's namespace UUID for that name
 * (ta_subkey_next_uuid). With chain NULL, the same as ta_image_sign.
 */
int ta_image_sign_chain(const uint8_t *chain, size_t chain_len, const char *name,
			const uint8_t *elf, size_t len, const struct swtee_uuid *uuid,
			uint32_t version, uint32_t algo, EVP_PKEY *key, uint8_t **out,
			size_t *outlen, char *why, size_t whylen);

/*
 * Makes a subkey image, as OP-TEE's sign_encrypt.py sign-subkey: the subkey
 * header for the RSA public key pub with the fields of *sub, signed with key
 * (a root key, or the private key of the parent chain's last subkey) using
 * algo. With a parent chain, the output starts with it and name, the UUID
 * must lie in the parent's namespace and max_depth below the parent's.
 * Returns and fills *out as ta_image_sign.
 */
int ta_subkey_sign(const uint8_t *parent, size_t parent_len, const char *name,
		   const struct ta_subkey_info *sub, EVP_PKEY *pub, uint32_t algo, EVP_PKEY *key,
		   uint8_t **out, size_t *outlen, char *why, size_t whylen);

#endif
