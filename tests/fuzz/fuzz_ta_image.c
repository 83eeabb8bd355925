/*
 * libFuzzer harness for the TA image verifier and the .ta_head parser.
 * of the build; by hand, from the repository root:
 *
 *   clang -std=c17 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -Isrc/common -Isrc/core/ta_image tests/unit/fuzz_ta_image.c src/core/ta_image/ta_image.c \
 *       src/core/ta_image/ta_elf.c src/common/buf.c src/common/uuid.c src/common/secure.c \
 *       -lcrypto -o fuzz_ta_image
 *   mkdir -p /tmp/ta_image_work
 *   ./fuzz_ta_image /tmp/ta_image_work tests/fuzz/corpus/ta_image
 *
 * (libFuzzer writes new inputs into the first directory: keep it out of the tree.)
 *
 * The harness is built by tests/fuzz/CMakeLists.txt (see docs/fuzzing.md). The image seeds are
 * signed with the key whose public half is below, so an unmutated seed passes the signature check
 * and reaches the ELF parser inside ta_image_verify. Mutated images reach the ELF parser directly:
 * the bytes after an image-shaped header go to ta_elf_read_head as well.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ta_image.h"
#include "ta_image_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fuzz_pub_pem[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MIIBojANBgkqhkiG9w0BAQEFAAOCAY8AMIIBigKCAYEArlLQr8ChoHdrkOMP0vKt\n"
    "jUBuBEopmnOroo8Zy8LvwBxg25r3j5XIctw0TGNLhH668hH7W1hLIHBuLhha7zXi\n"
    "FWMlSk/316PWqj6hO35FjZQgMzyyWZe/oQ0uemPLKU3j/NRlCEU+saPfcw4zJvj3\n"
    "obYlKbEdjorzIewRaLL63s1rOgr6X6OWFpV1YGRBGq1OYx0is9cW0pzOEOfNO4EA\n"
    "ZB1GP/jm2Rvox8nA55FRVu+iGgnTU2t6IlWNkIgM9aHlTF9aFksvggizLDfUj6UV\n"
    "1LgbbwI52QMUWB/Ohn0m9uwknwHL9D8KWOEQmlO8segeaasRBihtiulDA+PzGHpI\n"
    "hrpUvfkOe/8ftkeSiST5jY5HAeJpnPRxRkuHxC3paLmNsxKGseioteapo4WNq8G1\n"
    "QDf4a9RAK90FZQkFdILh7RcC7xxGEx8EfZGA1+Mm5iRzkAXrlBRRTn988XpCYXLj\n"
    "yScJK2iMs5jgB1ifJ1evNGlrz/rvspn0HKlTd2CrMY77AgMBAAE=\n"
    "-----END PUBLIC KEY-----\n";

static EVP_PKEY *fuzz_key(void)
{
	static EVP_PKEY *key;

	if (!key) {
		key = ta_image_load_pubkey_pem(fuzz_pub_pem, sizeof(fuzz_pub_pem) - 1);
		if (!key)
			abort();
	}
	return key;
}

static void fuzz_elf(const uint8_t *elf, size_t len)
{
	struct swtee_uuid uuid;
	uint32_t stack_size = 0, flags = 0;
	char why[128] = "";
	int rc = ta_elf_read_head(elf, len, &uuid, &stack_size, &flags, why, sizeof(why));

	if ((rc != TA_IMAGE_OK && rc != TA_IMAGE_E_ELF) || !memchr(why, 0, sizeof(why)))
		abort();
}

static void fuzz_verify(const uint8_t *data, size_t size)
{
	EVP_PKEY *key = fuzz_key();
	struct ta_image_info info = {0};
	char why[128] = "";
	int rc = ta_image_verify(data, size, NULL, &key, 1, &info, why, sizeof(why));

	if (rc > TA_IMAGE_OK || rc < TA_IMAGE_E_ELF || !memchr(why, 0, sizeof(why)))
		abort();
	if (rc == TA_IMAGE_OK && (info.elf_offset > size || info.elf_len != size - info.elf_offset))
		abort();
}

/* The bytes after an image-shaped header, located with bounds checks only. */
static void fuzz_embedded_elf(const uint8_t *data, size_t size)
{
	struct buf_reader r = {0};
	uint32_t magic = 0;
	uint16_t hash_size = 0, sig_size = 0;
	const uint8_t *elf = NULL;
	size_t left = 0;

	buf_reader_init(&r, data, size);
	buf_get_u32(&r, &magic);
	buf_skip(&r, 12); /* img_type, img_size, algo */
	buf_get_u16(&r, &hash_size);
	buf_get_u16(&r, &sig_size);
	buf_skip(&r, (size_t)hash_size + sig_size + SHDR_BOOTSTRAP_TA_SIZE);
	left = buf_left(&r);
	if (!buf_get_ptr(&r, &elf, left) || magic != SHDR_MAGIC)
		return;
	fuzz_elf(elf, left);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_verify(data, size);
	fuzz_elf(data, size);
	fuzz_embedded_elf(data, size);
	return 0;
}
