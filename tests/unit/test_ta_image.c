/*
 * Tests of the TA image verifier (src/core/ta_image/ta_image.c, ta_elf.c) and signer
 * (src/tools/ta_sign.c). Every refusal checks its specific error code, and
 * every image handed to the verifier sits in a heap buffer of exactly its
 * length, so that a sanitizer build catches any read past the end.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "buf.h"
#include "ta_image.h"
#include "ta_image_format.h"
#include "ta_sign.h"
#include "uuid.h"

/*
 * The test ELF: header, .ta_head, .shstrtab, then the section header table
 * (null section, .ta_head, .shstrtab, and .rodata over the same bytes as
 * .ta_head, so that a renamed .rodata makes a second, valid .ta_head).
 */
#define T_HEAD_OFF 64u
#define T_STR_OFF 96u
#define T_STR_LEN 28u
#define T_SHT_OFF 128u
#define T_SHNUM 4u
#define T_ELF_LEN (T_SHT_OFF + T_SHNUM * 64u)
#define T_SH(i) (T_SHT_OFF + 64u * (i)) /* offset of section header i */
#define T_NAME_TA_HEAD 1u
#define T_NAME_SHSTRTAB 10u
#define T_NAME_RODATA 20u

/* Offsets in a signed image made with a 3072-bit key. */
#define T_SIG_SIZE 384u
#define T_SIG_OFF (SHDR_SIZE + SHDR_HASH_SIZE)
#define T_BOOT_OFF (T_SIG_OFF + T_SIG_SIZE)
#define T_ELF_OFF (T_BOOT_OFF + SHDR_BOOTSTRAP_TA_SIZE)
#define T_IMG_LEN (T_ELF_OFF + T_ELF_LEN)

#define T_STACK 0x4800u
#define T_FLAGS 0x0cu

#if TA_ELF_MACHINE == EM_X86_64
#define T_FOREIGN_MACHINE EM_AARCH64
#else
#define T_FOREIGN_MACHINE EM_X86_64
#endif

static int passed;
static int failed;
static char why[256];

static EVP_PKEY *key_a;	   /* RSA-3072, the signing key */
static EVP_PKEY *key_b;	   /* RSA-3072, another key */
static EVP_PKEY *key_2048; /* RSA-2048 */
static EVP_PKEY *key_1024; /* too small */
static EVP_PKEY *key_ec;   /* not RSA */
static struct swtee_uuid uuid_x;
static struct swtee_uuid uuid_y;

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return;
	}
	failed++;
	fputs("FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" [why: %s]\n", why);
}

static void check_rc(int got, int want, const char *name)
{
	check(got == want && (want == TA_IMAGE_OK || why[0] != '\0'), "%s: got %d, want %d", name,
	      got, want);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fputs("out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
	uint8_t *q = xmalloc(n);

	if (n)
		memcpy(q, p, n);
	return q;
}

static void put16(uint8_t *p, uint16_t v)
{
	for (size_t i = 0; i < 2; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v)
{
	for (size_t i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (size_t i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_le(uint8_t *p, unsigned int width, uint64_t v)
{
	if (width == 1)
		p[0] = (uint8_t)v;
	else if (width == 2)
		put16(p, (uint16_t)v);
	else if (width == 4)
		put32(p, (uint32_t)v);
	else
		put64(p, v);
}

static void put_section(struct buf_writer *w, uint32_t name, uint32_t type, uint64_t flags,
			uint64_t off, uint64_t size, uint64_t align)
{
	buf_put_u32(w, name);
	buf_put_u32(w, type);
	buf_put_u64(w, flags);
	buf_put_u64(w, off); /* sh_addr */
	buf_put_u64(w, off);
	buf_put_u64(w, size);
	buf_put_u32(w, 0); /* sh_link */
	buf_put_u32(w, 0); /* sh_info */
	buf_put_u64(w, align);
	buf_put_u64(w, 0); /* sh_entsize */
}

/* A minimal ELF64 shared object whose .ta_head carries uuid, T_STACK and T_FLAGS. */
static void elf_build(uint8_t elf[T_ELF_LEN], const struct swtee_uuid *uuid)
{
	static const uint8_t ident[EI_NIDENT] = {
	    ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT, ELFOSABI_NONE};
	static const char strtab[T_STR_LEN] = "\0.ta_head\0.shstrtab\0.rodata";
	static const uint8_t pad[T_SHT_OFF - T_STR_OFF - T_STR_LEN] = {0};
	struct buf_writer w;
	uint32_t time_low = 0;
	uint16_t time_mid = 0, time_hi = 0;
	uint8_t clock_seq[8];

	buf_writer_init(&w, elf, T_ELF_LEN);
	buf_put_bytes(&w, ident, sizeof(ident));
	buf_put_u16(&w, ET_DYN);
	buf_put_u16(&w, TA_ELF_MACHINE);
	buf_put_u32(&w, EV_CURRENT);
	buf_put_u64(&w, 0);	    /* e_entry */
	buf_put_u64(&w, 0);	    /* e_phoff */
	buf_put_u64(&w, T_SHT_OFF); /* e_shoff */
	buf_put_u32(&w, 0);	    /* e_flags */
	buf_put_u16(&w, sizeof(Elf64_Ehdr));
	buf_put_u16(&w, sizeof(Elf64_Phdr));
	buf_put_u16(&w, 0); /* e_phnum */
	buf_put_u16(&w, sizeof(Elf64_Shdr));
	buf_put_u16(&w, T_SHNUM);
	buf_put_u16(&w, 2); /* e_shstrndx */

	uuid_to_fields(uuid, &time_low, &time_mid, &time_hi, clock_seq);
	buf_put_u32(&w, time_low);
	buf_put_u16(&w, time_mid);
	buf_put_u16(&w, time_hi);
	buf_put_bytes(&w, clock_seq, sizeof(clock_seq));
	buf_put_u32(&w, T_STACK);
	buf_put_u32(&w, T_FLAGS);
	buf_put_u64(&w, UINT64_MAX); /* depr_entry */

	buf_put_bytes(&w, strtab, sizeof(strtab));
	buf_put_bytes(&w, pad, sizeof(pad));

	put_section(&w, 0, SHT_NULL, 0, 0, 0, 0);
	put_section(&w, T_NAME_TA_HEAD, SHT_PROGBITS, SHF_ALLOC, T_HEAD_OFF, TA_HEAD_SIZE, 8);
	put_section(&w, T_NAME_SHSTRTAB, SHT_STRTAB, 0, T_STR_OFF, T_STR_LEN, 1);
	put_section(&w, T_NAME_RODATA, SHT_PROGBITS, SHF_ALLOC, T_HEAD_OFF, TA_HEAD_SIZE, 8);
	if (buf_written(&w) != T_ELF_LEN) {
		fputs("elf_build: layout error\n", stderr);
		exit(2);
	}
}

static int elf_read(const uint8_t *elf, size_t len, struct swtee_uuid *u, uint32_t *stack,
		    uint32_t *flags)
{
	uint8_t *copy = dup_exact(elf, len);
	int rc = ta_elf_read_head(copy, len, u, stack, flags, why, sizeof(why));

	free(copy);
	return rc;
}

static int verify_keys(const uint8_t *img, size_t len, const struct swtee_uuid *expected,
		       EVP_PKEY *const *keys, size_t nkeys, struct ta_image_info *info)
{
	uint8_t *copy = dup_exact(img, len);
	struct ta_image_info local;
	int rc = ta_image_verify(copy, len, expected, keys, nkeys, info ? info : &local, why,
				 sizeof(why));

	free(copy);
	return rc;
}

static int verify1(const uint8_t *img, size_t len, EVP_PKEY *key)
{
	return verify_keys(img, len, NULL, &key, 1, NULL);
}

/* Signs with the code under test; any failure here is fatal for the run. */
static uint8_t *sign_or_die(const uint8_t *elf, size_t len, const struct swtee_uuid *uuid,
			    uint32_t algo, EVP_PKEY *key, size_t *outlen)
{
	uint8_t *img = NULL;
	int rc = ta_image_sign(elf, len, uuid, 7, algo, key, &img, outlen, why, sizeof(why));

	if (rc) {
		fprintf(stderr, "ta_image_sign failed: %d %s\n", rc, why);
		exit(2);
	}
	return img;
}

/* An independent SHA-256 of shdr || bootstrap header || ELF, written into the image. */
static void rehash(uint8_t *img, size_t len)
{
	uint32_t sig_size = img[18] | (uint32_t)img[19] << 8;
	size_t boot = SHDR_SIZE + SHDR_HASH_SIZE + sig_size;
	uint8_t *msg = xmalloc(len);
	unsigned int n = 0;

	memcpy(msg, img, SHDR_SIZE);
	memcpy(msg + SHDR_SIZE, img + boot, len - boot);
	if (EVP_Digest(msg, SHDR_SIZE + len - boot, img + SHDR_SIZE, &n, EVP_sha256(), NULL) != 1) {
		fputs("EVP_Digest failed\n", stderr);
		exit(2);
	}
	free(msg);
}

/* An independent RSASSA over the message (not the stored hash), as openssl(1) would. */
static bool pkey_ctx_params(EVP_PKEY_CTX *pctx, uint32_t algo, int saltlen)
{
	if (algo == SHDR_ALGO_RSASSA_PSS_SHA256)
		return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) > 0 &&
		       EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, EVP_sha256()) > 0 &&
		       EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, saltlen) > 0;
	return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0;
}

static uint8_t *message_of(const uint8_t *img, size_t len, size_t *mlen)
{
	size_t boot = T_BOOT_OFF;
	uint8_t *msg = xmalloc(len);

	memcpy(msg, img, SHDR_SIZE);
	memcpy(msg + SHDR_SIZE, img + boot, len - boot);
	*mlen = SHDR_SIZE + len - boot;
	return msg;
}

static bool independent_verify(const uint8_t *img, size_t len, uint32_t algo, EVP_PKEY *key,
			       int saltlen)
{
	size_t mlen = 0;
	uint8_t *msg = message_of(img, len, &mlen);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = NULL;
	bool ok = md && EVP_DigestVerifyInit(md, &pctx, EVP_sha256(), NULL, key) == 1 &&
		  pkey_ctx_params(pctx, algo, saltlen) &&
		  EVP_DigestVerify(md, img + T_SIG_OFF, T_SIG_SIZE, msg, mlen) == 1;

	EVP_MD_CTX_free(md);
	free(msg);
	ERR_clear_error();
	return ok;
}

/* A whole image built and signed here, with libcrypto only, for any key size. */
static uint8_t *independent_image(const uint8_t *elf, const struct swtee_uuid *uuid,
				  uint32_t img_type, uint32_t algo, EVP_PKEY *key, size_t *len)
{
	size_t sig_size = (size_t)EVP_PKEY_get_size(key);
	size_t boot = SHDR_SIZE + SHDR_HASH_SIZE + sig_size;
	size_t n = boot + SHDR_BOOTSTRAP_TA_SIZE + T_ELF_LEN;
	uint8_t *img = xmalloc(n);
	uint8_t *msg = xmalloc(n);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pctx = NULL;
	size_t siglen = sig_size;

	memset(img, 0, n);
	put32(img, SHDR_MAGIC);
	put32(img + 4, img_type);
	put32(img + 8, T_ELF_LEN);
	put32(img + 12, algo);
	put16(img + 16, SHDR_HASH_SIZE);
	put16(img + 18, (uint16_t)sig_size);
	memcpy(img + boot, uuid->b, 16);
	put32(img + boot + 16, 7);
	memcpy(img + boot + SHDR_BOOTSTRAP_TA_SIZE, elf, T_ELF_LEN);
	rehash(img, n);
	memcpy(msg, img, SHDR_SIZE);
	memcpy(msg + SHDR_SIZE, img + boot, n - boot);
	if (!md || EVP_DigestSignInit(md, &pctx, EVP_sha256(), NULL, key) != 1 ||
	    !pkey_ctx_params(pctx, algo, 32) ||
	    EVP_DigestSign(md, img + boot - sig_size, &siglen, msg, SHDR_SIZE + n - boot) != 1 ||
	    siglen != sig_size) {
		fputs("independent signing failed\n", stderr);
		exit(2);
	}
	EVP_MD_CTX_free(md);
	free(msg);
	*len = n;
	return img;
}

static void test_elf_head(void)
{
	uint8_t elf[T_ELF_LEN];
	struct swtee_uuid u;
	uint32_t stack = 0, flags = 0;
	static const uint8_t time_low_le[4] = {0x78, 0x56, 0x34, 0x12};

	elf_build(elf, &uuid_y);
	check(memcmp(elf + T_HEAD_OFF, time_low_le, 4) == 0, "ta_head timeLow is little-endian");
	check_rc(elf_read(elf, T_ELF_LEN, &u, &stack, &flags), TA_IMAGE_OK, "elf: valid");
	check(uuid_equal(&u, &uuid_y), "elf: canonical UUID from the native fields");
	check(stack == T_STACK && flags == T_FLAGS, "elf: stack %#x flags %#x", stack, flags);

	put64(elf + T_SH(1) + 32, TA_HEAD_SIZE + 1);
	check_rc(elf_read(elf, T_ELF_LEN, &u, &stack, &flags), TA_IMAGE_OK,
		 "elf: .ta_head larger than the struct");

	check(ta_elf_read_head(NULL, 10, &u, &stack, &flags, why, sizeof(why)) ==
		  TA_IMAGE_E_GENERIC,
	      "elf: NULL input");
	check(ta_elf_read_head(elf, T_ELF_LEN, NULL, &stack, &flags, why, sizeof(why)) ==
		  TA_IMAGE_E_GENERIC,
	      "elf: NULL uuid");
	check(ta_elf_read_head(elf, T_ELF_LEN, &u, &stack, &flags, NULL, 0) == TA_IMAGE_OK,
	      "elf: why may be NULL");
}

/*
 * The test ELF with its .rodata turned into TA_DATA_SIZE_SECTION: value in a
 * section of type and size, after a section name table moved to the end.
 */
#define T_DATA_ELF_MAX (T_ELF_LEN + T_STR_LEN + sizeof(TA_DATA_SIZE_SECTION) + 8)
static size_t elf_with_data_size(uint8_t out[T_DATA_ELF_MAX], uint32_t value, uint32_t type,
				 uint64_t size)
{
	static const char name[] = TA_DATA_SIZE_SECTION;
	size_t str = T_ELF_LEN;
	size_t data = str + T_STR_LEN + sizeof(name);

	elf_build(out, &uuid_y);
	memcpy(out + str, out + T_STR_OFF, T_STR_LEN);
	memcpy(out + str + T_STR_LEN, name, sizeof(name));
	put64(out + T_SH(2) + 24, str);
	put64(out + T_SH(2) + 32, T_STR_LEN + sizeof(name));
	put32(out + T_SH(3), T_STR_LEN);
	put32(out + T_SH(3) + 4, type);
	put64(out + T_SH(3) + 24, data);
	put64(out + T_SH(3) + 32, size);
	put32(out + data, value);
	return data + 4;
}

static void test_elf_data_size(void)
{
	uint8_t elf[T_DATA_ELF_MAX];
	uint32_t ds = 7;
	size_t len = 0;

	elf_build(elf, &uuid_y);
	check_rc(ta_elf_read_data_size(elf, T_ELF_LEN, &ds, why, sizeof(why)), TA_IMAGE_OK,
		 "data size: none recorded");
	check(ds == 0, "data size: none recorded reads as 0, got %u", ds);
	len = elf_with_data_size(elf, 0x100000, SHT_PROGBITS, 4);
	check_rc(ta_elf_read_data_size(elf, len, &ds, why, sizeof(why)), TA_IMAGE_OK,
		 "data size: recorded");
	check(ds == 0x100000, "data size: 1 MiB read, got %u", ds);
	len = elf_with_data_size(elf, 0x100000, SHT_PROGBITS, 2);
	check_rc(ta_elf_read_data_size(elf, len, &ds, why, sizeof(why)), TA_IMAGE_E_ELF,
		 "data size: a 2-byte section");
	len = elf_with_data_size(elf, 0x100000, SHT_NOBITS, 4);
	check_rc(ta_elf_read_data_size(elf, len, &ds, why, sizeof(why)), TA_IMAGE_E_ELF,
		 "data size: NOBITS");
	len = elf_with_data_size(elf, 0x100000, SHT_PROGBITS, 4);
	check_rc(ta_elf_read_data_size(elf, len - 2, &ds, why, sizeof(why)), TA_IMAGE_E_ELF,
		 "data size: past the end of the ELF");
	put64(elf + T_SH(3) + 24, UINT64_MAX - 1);
	check_rc(ta_elf_read_data_size(elf, len, &ds, why, sizeof(why)), TA_IMAGE_E_ELF,
		 "data size: offset + size overflows");
}

struct patch {
	const char *name;
	size_t off;
	unsigned int width;
	uint64_t value;
};

static const struct patch elf_bad[] = {
    {"bad magic", 1, 1, 'X'},
    {"ELFCLASS32", EI_CLASS, 1, ELFCLASS32},
    {"big-endian", EI_DATA, 1, ELFDATA2MSB},
    {"EI_VERSION 0", EI_VERSION, 1, 0},
    {"ET_EXEC", 16, 2, ET_EXEC},
    {"ET_REL", 16, 2, ET_REL},
    {"foreign e_machine", 18, 2, T_FOREIGN_MACHINE},
    {"e_version 0", 20, 4, 0},
    {"e_ehsize 52", 52, 2, 52},
    {"e_shentsize 40", 58, 2, 40},
    {"e_shentsize 128", 58, 2, 128},
    {"e_shnum 0", 60, 2, 0},
    {"e_shnum one too many", 60, 2, T_SHNUM + 1},
    {"e_shnum huge", 60, 2, 0xffff},
    {"e_shoff at the end", 40, 8, T_ELF_LEN},
    {"section table straddles the end", 40, 8, T_ELF_LEN - 100},
    {"e_shoff + table overflows", 40, 8, UINT64_MAX - 63},
    {"e_shoff huge", 40, 8, UINT64_C(1) << 62},
    {"e_shstrndx == e_shnum", 62, 2, T_SHNUM},
    {"e_shstrndx SHN_XINDEX", 62, 2, SHN_XINDEX},
    {"e_shstrndx SHN_UNDEF", 62, 2, SHN_UNDEF},
    {"e_shstrndx not a STRTAB", 62, 2, 1},
    {"section name table typed PROGBITS", T_SH(2) + 4, 4, SHT_PROGBITS},
    {"strtab offset out of bounds", T_SH(2) + 24, 8, T_ELF_LEN},
    {"strtab size out of bounds", T_SH(2) + 32, 8, 1000},
    {"strtab offset + size overflows", T_SH(2) + 24, 8, UINT64_MAX - 4},
    {"no .ta_head (renamed)", T_STR_OFF + 4, 1, 'X'},
    {".ta_head name past strtab", T_SH(1), 4, 1000},
    {".ta_head name UINT32_MAX", T_SH(1), 4, UINT32_MAX},
    {".ta_head name unterminated in strtab", T_SH(2) + 32, 8, 9},
    {".ta_head NOBITS", T_SH(1) + 4, 4, SHT_NOBITS},
    {".ta_head NOTE", T_SH(1) + 4, 4, SHT_NOTE},
    {".ta_head size 31", T_SH(1) + 32, 8, TA_HEAD_SIZE - 1},
    {".ta_head size 0", T_SH(1) + 32, 8, 0},
    {".ta_head size huge", T_SH(1) + 32, 8, UINT64_MAX},
    {".ta_head straddles the end", T_SH(1) + 24, 8, T_ELF_LEN - 16},
    {".ta_head offset + size overflows", T_SH(1) + 24, 8, UINT64_MAX - 8},
    {"two .ta_head sections", T_SH(3), 4, T_NAME_TA_HEAD},
    {"strtab also named .ta_head", T_SH(2), 4, T_NAME_TA_HEAD},
};

static void test_elf_refusals(void)
{
	uint8_t elf[T_ELF_LEN];
	struct swtee_uuid u;
	uint32_t stack = 0, flags = 0;
	size_t bad = 0, odd = 0;

	for (size_t i = 0; i < sizeof(elf_bad) / sizeof(elf_bad[0]); i++) {
		const struct patch *p = &elf_bad[i];

		elf_build(elf, &uuid_x);
		put_le(elf + p->off, p->width, p->value);
		check_rc(elf_read(elf, T_ELF_LEN, &u, &stack, &flags), TA_IMAGE_E_ELF, p->name);
		check(uuid_is_nil(&u) && stack == 0 && flags == 0, "%s: outputs cleared", p->name);
	}

	/* .ta_head only in the reserved null section. */
	elf_build(elf, &uuid_x);
	memcpy(elf + T_SH(0), elf + T_SH(1), 64);
	put32(elf + T_SH(1), T_NAME_RODATA);
	check_rc(elf_read(elf, T_ELF_LEN, &u, &stack, &flags), TA_IMAGE_E_ELF,
		 ".ta_head only in section 0");

	elf_build(elf, &uuid_x);
	for (size_t n = 0; n < T_ELF_LEN; n++) {
		if (elf_read(elf, n, &u, &stack, &flags) != TA_IMAGE_E_ELF)
			bad++;
	}
	check(bad == 0, "elf: truncated at every length (%zu accepted)", bad);

	/* Any single bit flip: accepted or refused as bad ELF, never anything else. */
	for (size_t off = 0; off < T_ELF_LEN; off++) {
		for (unsigned int bit = 0; bit < 8; bit++) {
			int rc = 0;

			elf_build(elf, &uuid_x);
			elf[off] ^= (uint8_t)(1u << bit);
			rc = elf_read(elf, T_ELF_LEN, &u, &stack, &flags);
			if (rc != TA_IMAGE_OK && rc != TA_IMAGE_E_ELF)
				odd++;
		}
	}
	check(odd == 0, "elf: bit flips give only OK or E_ELF (%zu others)", odd);
}

static void test_roundtrip(uint32_t algo, const char *name)
{
	uint8_t elf[T_ELF_LEN];
	uint8_t *img = NULL;
	size_t len = 0;
	struct ta_image_info info;
	EVP_PKEY *ba[2] = {key_b, key_a};
	EVP_PKEY *na[2] = {NULL, key_a};
	EVP_PKEY *small[2] = {key_2048, key_ec};

	elf_build(elf, &uuid_x);
	img = sign_or_die(elf, T_ELF_LEN, &uuid_x, algo, key_a, &len);
	check(len == T_IMG_LEN, "%s: image length %zu", name, len);

	check_rc(verify_keys(img, len, NULL, &key_a, 1, &info), TA_IMAGE_OK, name);
	check(uuid_equal(&info.uuid, &uuid_x) && info.ta_version == 7 && info.flags == T_FLAGS &&
		  info.stack_size == T_STACK,
	      "%s: info fields", name);
	check(info.elf_offset == T_ELF_OFF && info.elf_len == T_ELF_LEN &&
		  memcmp(img + info.elf_offset, elf, T_ELF_LEN) == 0,
	      "%s: ELF location", name);

	check_rc(verify_keys(img, len, &uuid_x, &key_a, 1, &info), TA_IMAGE_OK, "expected UUID");
	check_rc(verify_keys(img, len, NULL, ba, 2, &info), TA_IMAGE_OK, "second trusted key");
	check_rc(verify_keys(img, len, NULL, na, 2, &info), TA_IMAGE_OK, "NULL key skipped");
	check_rc(verify_keys(img, len, NULL, &key_b, 1, &info), TA_IMAGE_E_SIGNATURE, "wrong key");
	check(info.elf_len == 0 && uuid_is_nil(&info.uuid), "%s: info cleared on failure", name);
	check_rc(verify_keys(img, len, NULL, small, 2, &info), TA_IMAGE_E_SIGNATURE,
		 "keys of another size or type");
	check_rc(verify_keys(img, len, &uuid_y, &key_a, 1, &info), TA_IMAGE_E_UUID,
		 "expected UUID mismatch");

	/* The format, checked without the code under test. */
	check(img[0] == 'H' && img[1] == 'S' && img[2] == 'T' && img[3] == 'O', "%s: magic", name);
	check(img[4] == SHDR_BOOTSTRAP_TA && img[8] == (T_ELF_LEN & 0xff) &&
		  img[9] == (T_ELF_LEN >> 8) && img[16] == SHDR_HASH_SIZE &&
		  img[18] == (T_SIG_SIZE & 0xff) && img[19] == (T_SIG_SIZE >> 8),
	      "%s: shdr fields", name);
	check(memcmp(img + T_BOOT_OFF, uuid_x.b, 16) == 0 && img[T_BOOT_OFF + 16] == 7,
	      "%s: bootstrap header", name);
	check(independent_verify(img, len, algo, key_a, 32), "%s: standard RSASSA over the message",
	      name);
	if (algo == SHDR_ALGO_RSASSA_PSS_SHA256)
		check(!independent_verify(img, len, algo, key_a, 20), "%s: PSS salt is 32", name);

	free(img);

	/* An image built and signed by another implementation verifies too. */
	img = independent_image(elf, &uuid_x, SHDR_BOOTSTRAP_TA, algo, key_a, &len);
	check_rc(verify1(img, len, key_a), TA_IMAGE_OK, "independently signed image");
	free(img);
}

struct region {
	const char *name;
	size_t start;
	size_t end;
	int want;
};

static const struct region regions[] = {
    {"shdr.magic", 0, 4, TA_IMAGE_E_MAGIC},
    {"shdr.img_type", 4, 8, TA_IMAGE_E_TYPE},
    {"shdr.img_size", 8, 12, TA_IMAGE_E_SIZE},
    {"shdr.algo", 12, 16, TA_IMAGE_E_ALGO},
    {"shdr.hash_size", 16, 18, TA_IMAGE_E_SIZE},
    {"shdr.sig_size", 18, 20, TA_IMAGE_E_SIZE},
    {"hash", SHDR_SIZE, T_SIG_OFF, TA_IMAGE_E_HASH},
    {"signature", T_SIG_OFF, T_BOOT_OFF, TA_IMAGE_E_SIGNATURE},
    {"bootstrap.uuid", T_BOOT_OFF, T_BOOT_OFF + 16, TA_IMAGE_E_HASH},
    {"bootstrap.ta_version", T_BOOT_OFF + 16, T_ELF_OFF, TA_IMAGE_E_HASH},
    {"ELF", T_ELF_OFF, T_IMG_LEN, TA_IMAGE_E_HASH},
};

static void test_bitflips(uint32_t algo)
{
	uint8_t elf[T_ELF_LEN];
	size_t len = 0;
	uint8_t *img = NULL;

	elf_build(elf, &uuid_x);
	img = sign_or_die(elf, T_ELF_LEN, &uuid_x, algo, key_a, &len);
	for (size_t r = 0; r < sizeof(regions) / sizeof(regions[0]); r++) {
		const struct region *g = &regions[r];
		size_t bad = 0, first = 0;
		int first_rc = 0;

		for (size_t off = g->start; off < g->end; off++) {
			for (unsigned int bit = 0; bit < 8; bit++) {
				int rc = 0;

				int want = g->want;

				img[off] ^= (uint8_t)(1u << bit);
				/* img_type 1 -> 3: a subkey header, whose hash then fails. */
				if (off == 4 && img[4] == SHDR_SUBKEY)
					want = TA_IMAGE_E_HASH;
				rc = verify1(img, len, key_a);
				img[off] ^= (uint8_t)(1u << bit);
				if (rc != want && !bad++) {
					first = off * 8 + bit;
					first_rc = rc;
				}
			}
		}
		check(bad == 0, "flip in %s: %zu wrong results, first at bit %zu gave %d", g->name,
		      bad, first, first_rc);
	}
	check_rc(verify1(img, len, key_a), TA_IMAGE_OK, "image intact after flips");
	free(img);
}

static void test_lengths(void)
{
	uint8_t elf[T_ELF_LEN];
	size_t len = 0;
	uint8_t *img = NULL;
	uint8_t *longer = NULL;
	size_t bad = 0;

	elf_build(elf, &uuid_x);
	img = sign_or_die(elf, T_ELF_LEN, &uuid_x, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len);
	for (size_t n = 0; n < len; n++) {
		if (verify1(img, n, key_a) != TA_IMAGE_E_SIZE)
			bad++;
	}
	check(bad == 0, "truncated at every length: %zu not refused as E_SIZE", bad);

	longer = xmalloc(2 * len);
	memcpy(longer, img, len);
	memcpy(longer + len, img, len);
	check_rc(verify1(longer, len + 1, key_a), TA_IMAGE_E_SIZE, "one trailing byte");
	check_rc(verify1(longer, 2 * len, key_a), TA_IMAGE_E_SIZE, "image repeated");
	free(longer);
	free(img);
}

static void test_size_lies(void)
{
	static const struct patch lies[] = {
	    {"img_size + 1", 8, 4, T_ELF_LEN + 1},
	    {"img_size - 1", 8, 4, T_ELF_LEN - 1},
	    {"img_size 0", 8, 4, 0},
	    {"img_size over the cap", 8, 4, SHDR_MAX_IMG_SIZE + 1},
	    {"img_size UINT32_MAX", 8, 4, UINT32_MAX},
	    {"sig_size 0", 18, 2, 0},
	    {"sig_size - 1", 18, 2, T_SIG_SIZE - 1},
	    {"sig_size + 1", 18, 2, T_SIG_SIZE + 1},
	    {"sig_size over the cap", 18, 2, SHDR_MAX_SIG_SIZE + 1},
	    {"sig_size 0xffff", 18, 2, 0xffff},
	    {"hash_size 0", 16, 2, 0},
	    {"hash_size 31", 16, 2, 31},
	    {"hash_size 33", 16, 2, 33},
	    {"hash_size 64", 16, 2, 64},
	    {"hash_size 0xffff", 16, 2, 0xffff},
	};
	uint8_t elf[T_ELF_LEN];
	size_t len = 0;
	uint8_t *img = NULL;
	uint8_t *copy = NULL;

	elf_build(elf, &uuid_x);
	img = sign_or_die(elf, T_ELF_LEN, &uuid_x, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len);
	for (size_t i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		copy = dup_exact(img, len);
		put_le(copy + lies[i].off, lies[i].width, lies[i].value);
		check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SIZE, lies[i].name);
		free(copy);
	}

	/* Lies that add up to the right length: caught by the hash, then by the key size. */
	copy = dup_exact(img, len);
	put16(copy + 18, T_SIG_SIZE - 16);
	put32(copy + 8, T_ELF_LEN + 16);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_HASH, "sig_size and img_size shifted");
	rehash(copy, len);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SIGNATURE,
		 "sig_size and img_size shifted, rehashed");
	free(copy);

	copy = dup_exact(img, len);
	put16(copy + 18, 0);
	put32(copy + 8, T_ELF_LEN + T_SIG_SIZE);
	rehash(copy, len);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SIZE, "sig_size 0, img_size compensates");
	free(copy);

	copy = dup_exact(img, len);
	put16(copy + 16, SHDR_HASH_SIZE + 16);
	put16(copy + 18, T_SIG_SIZE - 16);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SIZE, "hash_size and sig_size shifted");
	free(copy);
	free(img);
}

static void test_algo_and_type(void)
{
	static const uint32_t algos[] = {0,	     0x70414931, 0x70212930, 0x70002830,
					 0x70006830, 0x70313930, UINT32_MAX};
	static const uint32_t types[] = {SHDR_TA, SHDR_ENCRYPTED_TA, 4, UINT32_MAX};
	uint8_t elf[T_ELF_LEN];
	size_t len = 0, len2 = 0;
	uint8_t *pss = NULL;
	uint8_t *v15 = NULL;
	uint8_t *copy = NULL;

	elf_build(elf, &uuid_x);
	pss = sign_or_die(elf, T_ELF_LEN, &uuid_x, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len);
	v15 =
	    sign_or_die(elf, T_ELF_LEN, &uuid_x, SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256, key_a, &len2);
	for (size_t i = 0; i < sizeof(algos) / sizeof(algos[0]); i++) {
		copy = dup_exact(pss, len);
		put32(copy + 12, algos[i]);
		rehash(copy, len);
		check_rc(verify1(copy, len, key_a), TA_IMAGE_E_ALGO, "unknown algo");
		free(copy);
	}
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		copy = independent_image(elf, &uuid_x, types[i], SHDR_ALGO_RSASSA_PSS_SHA256, key_a,
					 &len2);
		check_rc(verify1(copy, len2, key_a), TA_IMAGE_E_TYPE, "img_type refused");
		free(copy);
	}
	/* A TA image labelled a subkey is read as a subkey header, whose hash fails. */
	copy =
	    independent_image(elf, &uuid_x, SHDR_SUBKEY, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len2);
	check_rc(verify1(copy, len2, key_a), TA_IMAGE_E_HASH, "TA labelled a subkey");
	free(copy);

	/* The algo field is authenticated: a signature is never tried as the other scheme. */
	copy = dup_exact(pss, len);
	put32(copy + 12, SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_HASH, "PSS relabelled PKCS#1");
	rehash(copy, len);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SIGNATURE, "PSS relabelled, rehashed");
	free(copy);
	copy = dup_exact(v15, len2);
	put32(copy + 12, SHDR_ALGO_RSASSA_PSS_SHA256);
	rehash(copy, len2);
	check_rc(verify1(copy, len2, key_a), TA_IMAGE_E_SIGNATURE, "PKCS#1 relabelled, rehashed");
	free(copy);

	/* rehash() itself leaves a good image good. */
	copy = dup_exact(pss, len);
	rehash(copy, len);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_OK, "rehash of an intact image");
	free(copy);
	free(v15);
	free(pss);
}

static void test_uuids(void)
{
	uint8_t elf[T_ELF_LEN];
	size_t len = 0;
	uint8_t *img = NULL;
	struct ta_image_info info;

	/* Properly signed, but the header names another TA than .ta_head. */
	elf_build(elf, &uuid_x);
	img = sign_or_die(elf, T_ELF_LEN, &uuid_y, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len);
	check_rc(verify_keys(img, len, NULL, &key_a, 1, &info), TA_IMAGE_E_UUID,
		 "header UUID != .ta_head UUID");
	check_rc(verify_keys(img, len, &uuid_y, &key_a, 1, &info), TA_IMAGE_E_UUID,
		 "header UUID != .ta_head UUID, header as expected");
	check_rc(verify_keys(img, len, &uuid_x, &key_a, 1, &info), TA_IMAGE_E_UUID,
		 "header UUID != expected");
	free(img);
}

static void test_signed_bad_elf(void)
{
	static const struct patch bad[] = {
	    {"signed: no .ta_head", T_STR_OFF + 4, 1, 'X'},
	    {"signed: section table out of bounds", 40, 8, T_ELF_LEN},
	    {"signed: e_shstrndx out of range", 62, 2, T_SHNUM},
	    {"signed: huge e_shnum", 60, 2, 0xffff},
	    {"signed: foreign machine", 18, 2, T_FOREIGN_MACHINE},
	};
	uint8_t elf[T_ELF_LEN];
	uint8_t junk[100];
	size_t len = 0;
	uint8_t *img = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		elf_build(elf, &uuid_x);
		put_le(elf + bad[i].off, bad[i].width, bad[i].value);
		img =
		    sign_or_die(elf, T_ELF_LEN, &uuid_x, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len);
		check_rc(verify1(img, len, key_a), TA_IMAGE_E_ELF, bad[i].name);
		free(img);
	}
	memset(junk, 0x41, sizeof(junk));
	img = sign_or_die(junk, sizeof(junk), &uuid_x, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len);
	check_rc(verify1(img, len, key_a), TA_IMAGE_E_ELF, "signed: not an ELF");
	free(img);
}

static void test_other_key_sizes(void)
{
	uint8_t elf[T_ELF_LEN];
	size_t len = 0;
	uint8_t *img = NULL;
	EVP_PKEY *both[2] = {key_a, key_2048};

	elf_build(elf, &uuid_x);
	img = sign_or_die(elf, T_ELF_LEN, &uuid_x, SHDR_ALGO_RSASSA_PSS_SHA256, key_2048, &len);
	check(len == T_IMG_LEN - 128, "RSA-2048 image length %zu", len);
	check_rc(verify1(img, len, key_2048), TA_IMAGE_OK, "RSA-2048 image");
	check_rc(verify_keys(img, len, NULL, both, 2, NULL), TA_IMAGE_OK,
		 "RSA-2048 image, keys of two sizes");
	check_rc(verify1(img, len, key_a), TA_IMAGE_E_SIGNATURE, "RSA-2048 image, RSA-3072 key");
	free(img);

	/* A signature by a key below SHDR_MIN_RSA_BITS is never accepted, even if trusted. */
	img = independent_image(elf, &uuid_x, SHDR_BOOTSTRAP_TA, SHDR_ALGO_RSASSA_PSS_SHA256,
				key_1024, &len);
	check_rc(verify1(img, len, key_1024), TA_IMAGE_E_SIGNATURE, "RSA-1024 image and key");
	free(img);
}

static void test_bad_arguments(void)
{
	uint8_t elf[T_ELF_LEN];
	size_t len = 0;
	uint8_t *img = NULL;
	struct ta_image_info info;

	elf_build(elf, &uuid_x);
	img = sign_or_die(elf, T_ELF_LEN, &uuid_x, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len);
	check(ta_image_verify(img, len, NULL, NULL, 1, &info, why, sizeof(why)) ==
		  TA_IMAGE_E_GENERIC,
	      "verify: NULL keys");
	check(ta_image_verify(img, len, NULL, &key_a, 0, &info, why, sizeof(why)) ==
		  TA_IMAGE_E_GENERIC,
	      "verify: no keys");
	check(ta_image_verify(NULL, len, NULL, &key_a, 1, &info, why, sizeof(why)) ==
		  TA_IMAGE_E_GENERIC,
	      "verify: NULL image");
	check(ta_image_verify(img, len, NULL, &key_a, 1, NULL, why, sizeof(why)) ==
		  TA_IMAGE_E_GENERIC,
	      "verify: NULL info");
	check(ta_image_verify(img, len, NULL, &key_a, 1, &info, NULL, 0) == TA_IMAGE_OK,
	      "verify: why may be NULL");
	check(ta_image_verify(img, len, NULL, &key_a, 1, &info, why, 8) == TA_IMAGE_OK,
	      "verify: short why");
	free(img);
}

static void test_sign_refusals(void)
{
	uint8_t elf[T_ELF_LEN];
	static uint8_t dummy;
	uint8_t *img = &dummy;
	size_t len = 1;
	EVP_PKEY *pub = NULL;
	BIO *bio = BIO_new(BIO_s_mem());
	char *pem = NULL;
	long pem_len = 0;

	elf_build(elf, &uuid_x);
	check_rc(ta_image_sign(elf, T_ELF_LEN, &uuid_x, 0, 0, key_a, &img, &len, why, sizeof(why)),
		 TA_IMAGE_E_ALGO, "sign: unknown algo");
	check(img == NULL && len == 0, "sign: outputs cleared");
	check_rc(ta_image_sign(elf, 0, &uuid_x, 0, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &img, &len,
			       why, sizeof(why)),
		 TA_IMAGE_E_SIZE, "sign: empty ELF");
	check_rc(ta_image_sign(elf, T_ELF_LEN, &uuid_x, 0, SHDR_ALGO_RSASSA_PSS_SHA256, key_1024,
			       &img, &len, why, sizeof(why)),
		 TA_IMAGE_E_GENERIC, "sign: RSA-1024 key");
	check_rc(ta_image_sign(elf, T_ELF_LEN, &uuid_x, 0, SHDR_ALGO_RSASSA_PSS_SHA256, key_ec,
			       &img, &len, why, sizeof(why)),
		 TA_IMAGE_E_GENERIC, "sign: EC key");
	check_rc(ta_image_sign(NULL, T_ELF_LEN, &uuid_x, 0, SHDR_ALGO_RSASSA_PSS_SHA256, key_a,
			       &img, &len, why, sizeof(why)),
		 TA_IMAGE_E_GENERIC, "sign: NULL ELF");

	if (bio && PEM_write_bio_PUBKEY(bio, key_a) == 1)
		pem_len = BIO_get_mem_data(bio, &pem);
	pub = pem_len > 0 ? ta_image_load_pubkey_pem(pem, (size_t)pem_len) : NULL;
	check(pub != NULL, "sign: public key loads");
	check_rc(ta_image_sign(elf, T_ELF_LEN, &uuid_x, 0, SHDR_ALGO_RSASSA_PSS_SHA256, pub, &img,
			       &len, why, sizeof(why)),
		 TA_IMAGE_E_GENERIC, "sign: public key only");
	check(img == NULL && len == 0, "sign: outputs cleared after a crypto failure");
	ERR_clear_error();
	EVP_PKEY_free(pub);
	BIO_free(bio);
}

/* PEM text of key: its public half, or the private key (encrypted with pass if given). */
static char *pem_of(EVP_PKEY *key, bool priv, const char *pass, size_t *len)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *data = NULL;
	char *out = NULL;
	long n = 0;
	int ok = 0;

	if (!bio)
		exit(2);
	if (!priv)
		ok = PEM_write_bio_PUBKEY(bio, key);
	else if (pass)
		ok = PEM_write_bio_PrivateKey(bio, key, EVP_aes_256_cbc(), NULL, 0, NULL,
					      (void *)pass);
	else
		ok = PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL);
	n = BIO_get_mem_data(bio, &data);
	if (ok != 1 || n <= 0)
		exit(2);
	out = (char *)dup_exact((const uint8_t *)data, (size_t)n);
	*len = (size_t)n;
	BIO_free(bio);
	return out;
}

static bool has_private_part(EVP_PKEY *key)
{
	BIGNUM *d = NULL;
	bool has = EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_D, &d) == 1;

	BN_clear_free(d);
	ERR_clear_error();
	return has;
}

static void test_pem(void)
{
	uint8_t elf[T_ELF_LEN];
	size_t len = 0, plen = 0;
	uint8_t *img = NULL;
	char *pem = NULL;
	EVP_PKEY *k = NULL;
	static const char junk[] = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n";

	elf_build(elf, &uuid_x);
	img = sign_or_die(elf, T_ELF_LEN, &uuid_x, SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &len);

	pem = pem_of(key_a, false, NULL, &plen);
	k = ta_image_load_pubkey_pem(pem, plen);
	check(k != NULL && !has_private_part(k), "pem: public key");
	if (k)
		check_rc(verify1(img, len, k), TA_IMAGE_OK, "pem: public key verifies");
	EVP_PKEY_free(k);
	k = ta_image_load_pubkey_pem(pem, plen / 2);
	check(k == NULL, "pem: truncated public key");
	EVP_PKEY_free(k);
	free(pem);

	pem = pem_of(key_a, true, NULL, &plen);
	k = ta_image_load_pubkey_pem(pem, plen);
	check(k != NULL && !has_private_part(k), "pem: private key gives its public half only");
	if (k)
		check_rc(verify1(img, len, k), TA_IMAGE_OK, "pem: public half verifies");
	EVP_PKEY_free(k);
	free(pem);

	pem = pem_of(key_a, true, "secret", &plen);
	k = ta_image_load_pubkey_pem(pem, plen);
	check(k == NULL, "pem: encrypted private key refused without prompting");
	EVP_PKEY_free(k);
	free(pem);

	pem = pem_of(key_1024, false, NULL, &plen);
	k = ta_image_load_pubkey_pem(pem, plen);
	check(k == NULL, "pem: RSA-1024 refused");
	EVP_PKEY_free(k);
	free(pem);

	pem = pem_of(key_ec, false, NULL, &plen);
	k = ta_image_load_pubkey_pem(pem, plen);
	check(k == NULL, "pem: EC key refused");
	EVP_PKEY_free(k);
	free(pem);

	k = ta_image_load_pubkey_pem(junk, sizeof(junk) - 1);
	check(k == NULL, "pem: garbage");
	EVP_PKEY_free(k);
	k = ta_image_load_pubkey_pem("", 0);
	check(k == NULL, "pem: empty");
	EVP_PKEY_free(k);
	k = ta_image_load_pubkey_pem(NULL, 10);
	check(k == NULL, "pem: NULL");
	EVP_PKEY_free(k);
	check(ERR_peek_error() == 0, "pem: libcrypto error queue left clean");
	free(img);
}

/* Subkey chains (OP-TEE's SHDR_SUBKEY). */

static void sub_info(struct ta_subkey_info *sub, const struct swtee_uuid *uuid, uint32_t name_size,
		     uint32_t max_depth)
{
	memset(sub, 0, sizeof(*sub));
	sub->uuid = *uuid;
	sub->name_size = name_size;
	sub->version = 1;
	sub->max_depth = max_depth;
	sub->algo = SHDR_ALGO_RSASSA_PSS_SHA256;
}

/* A subkey image for pub signed with key, under parent (NULL for a root key's). */
static uint8_t *subkey_or_die(const uint8_t *parent, size_t parent_len, const char *name,
			      const struct ta_subkey_info *sub, EVP_PKEY *pub, EVP_PKEY *key,
			      size_t *outlen)
{
	uint8_t *img = NULL;
	int rc = ta_subkey_sign(parent, parent_len, name, sub, pub, SHDR_ALGO_RSASSA_PSS_SHA256,
				key, &img, outlen, why, sizeof(why));

	if (rc) {
		fprintf(stderr, "ta_subkey_sign failed: %d %s\n", rc, why);
		exit(2);
	}
	return img;
}

/* The UUID under ns for name, through the code under test. */
static struct swtee_uuid ns_uuid(const struct swtee_uuid *ns, const char *name, size_t name_size)
{
	struct swtee_uuid u = {0};
	uint8_t buf[64] = {0};

	memcpy(buf, name, strlen(name));
	if (ta_subkey_next_uuid(ns, buf, name_size, &u)) {
		fputs("ta_subkey_next_uuid failed\n", stderr);
		exit(2);
	}
	return u;
}

/* A TA image for uuid signed with key under chain, the ELF's .ta_head carrying uuid. */
static uint8_t *chain_ta_or_die(const uint8_t *chain, size_t chain_len, const char *name,
				const struct swtee_uuid *uuid, EVP_PKEY *key, size_t *outlen)
{
	uint8_t elf[T_ELF_LEN];
	uint8_t *img = NULL;
	int rc = 0;

	elf_build(elf, uuid);
	rc = ta_image_sign_chain(chain, chain_len, name, elf, T_ELF_LEN, uuid, 3,
				 SHDR_ALGO_RSASSA_PSS_SHA256, key, &img, outlen, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "ta_image_sign_chain failed: %d %s\n", rc, why);
		exit(2);
	}
	return img;
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Recomputes the hash and signature (PSS, with key) of the signed header at img + off. */
static void resign_at(uint8_t *img, size_t off, EVP_PKEY *key)
{
	uint8_t *h = img + off;
	uint32_t img_size = get32(h + 8);
	uint32_t sig_size = h[18] | (uint32_t)h[19] << 8;
	uint8_t *body = h + SHDR_SIZE + SHDR_HASH_SIZE + sig_size;
	size_t n = sig_size;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);

	if (ta_image_hash(h, body, img_size, h + SHDR_SIZE) || !ctx ||
	    EVP_PKEY_sign_init(ctx) != 1 || ta_image_sig_params(ctx, SHDR_ALGO_RSASSA_PSS_SHA256) ||
	    EVP_PKEY_sign(ctx, h + SHDR_SIZE + SHDR_HASH_SIZE, &n, h + SHDR_SIZE, SHDR_HASH_SIZE) !=
		1 ||
	    n != sig_size) {
		fprintf(stderr, "resign_at failed at %zu: %u %u\n", off, img_size, sig_size);
		exit(2);
	}
	EVP_PKEY_CTX_free(ctx);
}

/* Where subkey header number n (from 0) of img begins, and the size of its part. */
static size_t subkey_at(const uint8_t *img, unsigned int n, size_t *part)
{
	size_t off = 0;

	for (unsigned int i = 0;; i++) {
		uint32_t img_size = get32(img + off + 8);
		uint32_t sig_size = img[off + 18] | (uint32_t)img[off + 19] << 8;
		size_t body = off + SHDR_SIZE + SHDR_HASH_SIZE + sig_size;
		uint32_t name_size = get32(img + body + 16);

		if (i == n) {
			*part = body + img_size - off;
			return off;
		}
		off = body + img_size + name_size;
	}
}

/*
 * The chain of two: the root key_a signs subkey 1 (key_b, max_depth 1, name
 * "team"), which signs subkey 2 (key_2048, max_depth 0, name "app"), which
 * signs the TA *ta. Returns the TA image; *sk and *sk2 are the subkey files.
 */
static uint8_t *two_subkeys(uint8_t **sk, size_t *sk_len, uint8_t **sk2, size_t *sk2_len,
			    struct swtee_uuid *sk2_uuid, struct swtee_uuid *ta, size_t *len)
{
	struct ta_subkey_info sub;

	sub_info(&sub, &uuid_y, 8, 1);
	*sk = subkey_or_die(NULL, 0, NULL, &sub, key_b, key_a, sk_len);
	*sk2_uuid = ns_uuid(&uuid_y, "team", 8);
	sub_info(&sub, sk2_uuid, 12, 0);
	*sk2 = subkey_or_die(*sk, *sk_len, "team", &sub, key_2048, key_b, sk2_len);
	*ta = ns_uuid(sk2_uuid, "app", 12);
	return chain_ta_or_die(*sk2, *sk2_len, "app", ta, key_2048, len);
}

static void test_subkey_good(void)
{
	struct ta_subkey_info sub;
	struct ta_image_info info;
	struct swtee_uuid ta, sk2_uuid;
	uint8_t elf[T_ELF_LEN];
	size_t sk_len = 0, sk2_len = 0, len = 0;
	uint8_t *sk = NULL, *sk2 = NULL, *img = NULL;

	/* One subkey (RSA-2048) under the root key (RSA-3072). */
	sub_info(&sub, &uuid_y, 16, 0);
	sk = subkey_or_die(NULL, 0, NULL, &sub, key_2048, key_a, &sk_len);
	ta = ns_uuid(&uuid_y, "ta one", 16);
	check((ta.b[6] >> 4) == 5 && (ta.b[8] & 0xc0) == 0x80, "subkey: namespace UUID is a v5");
	img = chain_ta_or_die(sk, sk_len, "ta one", &ta, key_2048, &len);
	check_rc(verify_keys(img, len, &ta, &key_a, 1, &info), TA_IMAGE_OK, "subkey: chain of 1");
	elf_build(elf, &ta);
	check(info.subkeys == 1 && uuid_equal(&info.uuid, &ta) && info.ta_version == 3 &&
		  info.elf_len == T_ELF_LEN && info.elf_offset + T_ELF_LEN == len &&
		  memcmp(img + info.elf_offset, elf, T_ELF_LEN) == 0,
	      "subkey: chain of 1 info");
	check_rc(ta_image_verify_lib(img, len, &ta, &key_a, 1, &info, why, sizeof(why)),
		 TA_IMAGE_E_ELF, "subkey: a TA under a subkey is still no library");
	/*
	 * The name is NUL-padded to name_size; the UUID uses the name up to its NUL,
	 * as OP-TEE's sign_encrypt.py: UUID(bytes=SHA-512(ns || name)[:16], version=5).
	 */
	{
		struct swtee_uuid want = {0};
		struct swtee_uuid short_pad = ns_uuid(&uuid_y, "ta one", 7);
		struct swtee_uuid other = ns_uuid(&uuid_y, "ta on", 16);

		check(uuid_parse("2dbb88b9-96ff-5124-9bf4-f7ff3385005c", &want),
		      "subkey: UUID parses");
		check(uuid_equal(&ta, &want), "subkey: namespace UUID as sign_encrypt.py's");
		check(uuid_equal(&ta, &short_pad) && !uuid_equal(&ta, &other),
		      "subkey: namespace UUID ignores the padding only");
	}
	free(img);

	/* Two subkeys: root -> key_b (max_depth 1) -> key_2048 (max_depth 0) -> TA. */
	free(sk);
	img = two_subkeys(&sk, &sk_len, &sk2, &sk2_len, &sk2_uuid, &ta, &len);
	check_rc(verify_keys(img, len, &ta, &key_a, 1, &info), TA_IMAGE_OK, "subkey: chain of 2");
	check(info.subkeys == 2 && uuid_equal(&info.uuid, &ta), "subkey: chain of 2 info");
	check_rc(verify_keys(img, len, NULL, &key_b, 1, NULL), TA_IMAGE_E_SIGNATURE,
		 "subkey: chain of 2 with another trusted key");
	free(img);

	/* An identity subkey (name_size 0): the TA carries the subkey's own UUID. */
	sub_info(&sub, &uuid_x, 0, 0);
	free(sk);
	sk = subkey_or_die(NULL, 0, NULL, &sub, key_2048, key_a, &sk_len);
	img = chain_ta_or_die(sk, sk_len, NULL, &uuid_x, key_2048, &len);
	check_rc(verify_keys(img, len, &uuid_x, &key_a, 1, &info), TA_IMAGE_OK,
		 "subkey: identity subkey");
	free(img);
	free(sk2);
	free(sk);
}

static void test_subkey_refusals(void)
{
	struct ta_subkey_info sub;
	struct swtee_uuid ta, sk2_uuid, other;
	size_t sk_len = 0, sk2_len = 0, len = 0, part = 0, off = 0, olen = 0;
	uint8_t *sk = NULL, *sk2 = NULL, *img = NULL, *copy = NULL, *out = NULL;
	uint8_t elf[T_ELF_LEN];

	img = two_subkeys(&sk, &sk_len, &sk2, &sk2_len, &sk2_uuid, &ta, &len);

	/* Tampered subkey header: its hash, then (rehashed and resigned by another key) its signer.
	 */
	copy = dup_exact(img, len);
	off = subkey_at(copy, 0, &part);
	copy[off + part - 40] ^= 1; /* in the modulus */
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_HASH, "subkey: tampered header");
	resign_at(copy, off, key_b);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SIGNATURE, "subkey: resigned by a stranger");
	check(strstr(why, "subkey 1") != NULL, "subkey: the reason names subkey 1 [%s]", why);
	free(copy);
	copy = dup_exact(img, len);
	off = subkey_at(copy, 1, &part);
	copy[off + part - 8] ^= 0x80;
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_HASH, "subkey: tampered second header");
	resign_at(copy, off, key_a); /* the root key, not subkey 1 */
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SIGNATURE,
		 "subkey: second header signed by the root key");
	check(strstr(why, "wrong signer") != NULL, "subkey: wrong signer reason [%s]", why);
	free(copy);

	/* Wrong signer of the TA: the root key signs it in place of the last subkey. */
	elf_build(elf, &ta);
	check_rc(ta_image_sign_chain(sk2, sk2_len, "app", elf, T_ELF_LEN, &ta, 0,
				     SHDR_ALGO_RSASSA_PSS_SHA256, key_a, &out, &olen, why,
				     sizeof(why)),
		 TA_IMAGE_OK, "subkey: the signer does not check who signs");
	check_rc(verify1(out, olen, key_a), TA_IMAGE_E_SIGNATURE, "subkey: TA by the wrong signer");
	check(strstr(why, "subkey 2") != NULL, "subkey: names subkey 2 [%s]", why);
	free(out);
	out = NULL;

	/* UUID outside the namespace: the unsigned name changed, for the TA and for subkey 2. */
	copy = dup_exact(img, len);
	copy[sk2_len] ^= 0x20; /* "app" -> "App" */
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_UUID, "subkey: TA outside the namespace");
	check(strstr(why, "namespace") != NULL, "subkey: namespace reason [%s]", why);
	free(copy);
	copy = dup_exact(img, len);
	copy[sk_len] ^= 0x20; /* "team" -> "Team" */
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_UUID, "subkey 2 outside the namespace");
	free(copy);
	other = ns_uuid(&sk2_uuid, "other", 12);
	check_rc(ta_image_sign_chain(sk2, sk2_len, "app", elf, T_ELF_LEN, &other, 0,
				     SHDR_ALGO_RSASSA_PSS_SHA256, key_2048, &out, &olen, why,
				     sizeof(why)),
		 TA_IMAGE_E_UUID, "subkey: signer refuses a UUID outside the namespace");
	check_rc(ta_image_sign_chain(sk2, sk2_len, "a name longer than 12", elf, T_ELF_LEN, &other,
				     0, SHDR_ALGO_RSASSA_PSS_SHA256, key_2048, &out, &olen, why,
				     sizeof(why)),
		 TA_IMAGE_E_SIZE, "subkey: signer refuses a name longer than name_size");

	/* Depth exceeded: subkey 1 re-signed with max_depth 0 above subkey 2. */
	copy = dup_exact(img, len);
	off = subkey_at(copy, 0, &part);
	put32(copy + off + part - (get32(copy + off + 8)) + 24, 0); /* max_depth */
	resign_at(copy, off, key_a);
	check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SUBKEY, "subkey: depth exceeded");
	check(strstr(why, "depth") != NULL, "subkey: depth reason [%s]", why);
	free(copy);
	sub_info(&sub, &sk2_uuid, 12, 1);
	check_rc(ta_subkey_sign(sk, sk_len, "team", &sub, key_2048, SHDR_ALGO_RSASSA_PSS_SHA256,
				key_b, &out, &olen, why, sizeof(why)),
		 TA_IMAGE_E_SUBKEY, "subkey: signer refuses max_depth not below the parent's");
	free(img);
	free(sk2);
	free(sk);

	/* Unknown, doubled, missing or out-of-range attributes of a subkey's key. */
	sub_info(&sub, &uuid_y, 4, 0);
	sk = subkey_or_die(NULL, 0, NULL, &sub, key_2048, key_a, &sk_len);
	ta = ns_uuid(&uuid_y, "x", 4);
	img = chain_ta_or_die(sk, sk_len, "x", &ta, key_2048, &len);
	{
		static const struct {
			size_t at; /* in the subkey body */
			uint32_t value;
			const char *name;
		} bad[] = {
		    {36, 0xd0000330u, "unknown attribute"},
		    {48, SHDR_ATTR_RSA_MODULUS, "attribute twice"},
		    {32, 1, "one attribute only"},
		    {52, 4000, "attribute outside the header"},
		    {56, UINT32_MAX, "attribute size wraps"},
		    {28, 0x70006830u, "unknown key algorithm"},
		};
		size_t body = SHDR_SIZE + SHDR_HASH_SIZE + T_SIG_SIZE;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			copy = dup_exact(img, len);
			put32(copy + body + bad[i].at, bad[i].value);
			resign_at(copy, 0, key_a);
			check_rc(verify1(copy, len, key_a),
				 bad[i].at == 28 ? TA_IMAGE_E_ALGO : TA_IMAGE_E_SUBKEY,
				 bad[i].name);
			free(copy);
		}
		copy = dup_exact(img, len);
		put32(copy + body + 36, 0xd0000330u);
		resign_at(copy, 0, key_a);
		check_rc(verify1(copy, len, key_a), TA_IMAGE_E_SUBKEY, "unknown attribute (why)");
		check(strstr(why, "unknown attribute 0xd0000330") != NULL,
		      "subkey: unknown attribute reason [%s]", why);
		free(copy);
	}

	/* Every truncation of the chain is refused, none read past the end. */
	{
		size_t bad = 0;

		for (size_t n = 0; n < len; n += (n < sk_len + 64 ? 1 : 97))
			if (verify1(img, n, key_a) == TA_IMAGE_OK)
				bad++;
		check(bad == 0, "subkey: truncations refused (%zu accepted)", bad);
	}
	free(img);
	free(sk);

	/* More than SHDR_MAX_SUBKEYS subkeys, each allowed by the one before. */
	{
		uint8_t *chain = NULL;
		size_t chain_len = 0;
		struct swtee_uuid u = uuid_y;

		for (unsigned int i = 0; i <= SHDR_MAX_SUBKEYS; i++) {
			uint8_t *next = NULL;

			sub_info(&sub, &u, 4, SHDR_MAX_SUBKEYS - i);
			next = subkey_or_die(chain, chain_len, "s", &sub, key_2048,
					     i ? key_2048 : key_a, &chain_len);
			free(chain);
			chain = next;
			u = ns_uuid(&u, "s", 4);
		}
		/* The signer refuses the chain; put the TA behind it by hand. */
		elf_build(elf, &u);
		check_rc(ta_image_sign_chain(chain, chain_len, "s", elf, T_ELF_LEN, &u, 0,
					     SHDR_ALGO_RSASSA_PSS_SHA256, key_2048, &out, &olen,
					     why, sizeof(why)),
			 TA_IMAGE_E_SUBKEY, "subkey: signer refuses a chain too long");
		out = sign_or_die(elf, T_ELF_LEN, &u, SHDR_ALGO_RSASSA_PSS_SHA256, key_2048, &olen);
		len = chain_len + 4 + olen;
		img = xmalloc(len);
		memcpy(img, chain, chain_len);
		memcpy(img + chain_len, "s\0\0\0", 4);
		memcpy(img + chain_len + 4, out, olen);
		free(out);
		out = NULL;
		check_rc(verify1(img, len, key_a), TA_IMAGE_E_SUBKEY, "subkey: chain too long");
		check(strstr(why, "depth exceeded") != NULL, "subkey: chain too long reason [%s]",
		      why);
		free(img);
		free(chain);
	}

	/* The signer refuses a subkey too small to be accepted. */
	sub_info(&sub, &uuid_y, 4, 0);
	check_rc(ta_subkey_sign(NULL, 0, NULL, &sub, key_1024, SHDR_ALGO_RSASSA_PSS_SHA256, key_a,
				&out, &olen, why, sizeof(why)),
		 TA_IMAGE_E_SUBKEY, "subkey: signer refuses an RSA-1024 subkey");
	check(out == NULL, "subkey: no output on refusal");
}

int main(void)
{
	if (!uuid_parse("8aaaf200-2450-11e4-abe2-0002a5d5c51b", &uuid_x) ||
	    !uuid_parse("12345678-9abc-def0-1122-334455667788", &uuid_y))
		return 2;
	key_a = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)3072);
	key_b = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)3072);
	key_2048 = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	key_1024 = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)1024);
	key_ec = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	if (!key_a || !key_b || !key_2048 || !key_1024 || !key_ec) {
		fputs("key generation failed\n", stderr);
		return 2;
	}

	test_elf_head();
	test_elf_data_size();
	test_elf_refusals();
	test_roundtrip(SHDR_ALGO_RSASSA_PSS_SHA256, "PSS round trip");
	test_roundtrip(SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256, "PKCS#1 v1.5 round trip");
	test_bitflips(SHDR_ALGO_RSASSA_PSS_SHA256);
	test_bitflips(SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256);
	test_lengths();
	test_size_lies();
	test_algo_and_type();
	test_uuids();
	test_signed_bad_elf();
	test_other_key_sizes();
	test_bad_arguments();
	test_sign_refusals();
	test_pem();
	test_subkey_good();
	test_subkey_refusals();

	EVP_PKEY_free(key_a);
	EVP_PKEY_free(key_b);
	EVP_PKEY_free(key_2048);
	EVP_PKEY_free(key_1024);
	EVP_PKEY_free(key_ec);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
