/* Producing signed TA images (format in ta_image_format.h). */
#ifndef SWTEE_TA_SIGN_H
#define SWTEE_TA_SIGN_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

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

#endif
