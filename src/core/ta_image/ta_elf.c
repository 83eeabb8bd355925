#include "ta_image.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "buf.h"

/* What the parser needs of the ELF header, already checked. */
struct ta_elf {
	const uint8_t *p;
	size_t len;
	struct buf_reader shtab; /* the section header table */
	uint16_t shnum;
	uint16_t shstrndx;
};

struct ta_elf_section {
	uint32_t name;
	uint32_t type;
	uint64_t offset;
	uint64_t size;
	uint32_t link;
};

static int ident_check(const uint8_t ident[EI_NIDENT], char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_ELF;

	if (memcmp(ident, ELFMAG, SELFMAG) != 0) {
		ta_image_set_why(why, whylen, "not an ELF file");
		goto out;
	}
	if (ident[EI_CLASS] != ELFCLASS64) {
		ta_image_set_why(why, whylen, "not a 64-bit ELF (class %u)", ident[EI_CLASS]);
		goto out;
	}
	if (ident[EI_DATA] != ELFDATA2LSB) {
		ta_image_set_why(why, whylen, "not a little-endian ELF (data %u)", ident[EI_DATA]);
		goto out;
	}
	if (ident[EI_VERSION] != EV_CURRENT) {
		ta_image_set_why(why, whylen, "unknown ELF version %u", ident[EI_VERSION]);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

static int header_read(struct ta_elf *e, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_ELF;
	struct buf_reader r = {0};
	const uint8_t *ident = NULL;
	uint16_t type = 0, machine = 0, ehsize = 0, phentsize = 0, phnum = 0, shentsize = 0;
	uint32_t version = 0, flags = 0;
	uint64_t entry = 0, phoff = 0, shoff = 0;
	size_t tab_len = 0;
	uint64_t tab_end = 0;

	buf_reader_init(&r, e->p, e->len);
	buf_get_ptr(&r, &ident, EI_NIDENT);
	buf_get_u16(&r, &type);
	buf_get_u16(&r, &machine);
	buf_get_u32(&r, &version);
	buf_get_u64(&r, &entry);
	buf_get_u64(&r, &phoff);
	buf_get_u64(&r, &shoff);
	buf_get_u32(&r, &flags);
	buf_get_u16(&r, &ehsize);
	buf_get_u16(&r, &phentsize);
	buf_get_u16(&r, &phnum);
	buf_get_u16(&r, &shentsize);
	buf_get_u16(&r, &e->shnum);
	buf_get_u16(&r, &e->shstrndx);
	if (!buf_ok(&r)) {
		ta_image_set_why(why, whylen, "ELF shorter than its header");
		goto out;
	}
	rc = ident_check(ident, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_ELF;
	if (type != ET_DYN) {
		ta_image_set_why(why, whylen, "ELF type %u is not a shared object", type);
		goto out;
	}
	if (machine != TA_ELF_MACHINE) {
		ta_image_set_why(why, whylen, "ELF machine %u, this host runs %u", machine,
				 TA_ELF_MACHINE);
		goto out;
	}
	if (version != EV_CURRENT || ehsize != sizeof(Elf64_Ehdr) ||
	    shentsize != sizeof(Elf64_Shdr)) {
		ta_image_set_why(why, whylen,
				 "unexpected ELF version %" PRIu32 ", header size %u or section "
				 "header size %u",
				 version, ehsize, shentsize);
		goto out;
	}
	if (e->shnum == 0) {
		ta_image_set_why(why, whylen, "ELF has no section header table");
		goto out;
	}
	if (e->shstrndx == SHN_UNDEF || e->shstrndx >= e->shnum) {
		ta_image_set_why(why, whylen,
				 "section name table index %u out of range (%u sections)",
				 e->shstrndx, e->shnum);
		goto out;
	}
	if (__builtin_mul_overflow((size_t)e->shnum, (size_t)shentsize, &tab_len) ||
	    __builtin_add_overflow(shoff, (uint64_t)tab_len, &tab_end) || tab_end > e->len) {
		ta_image_set_why(why, whylen,
				 "section header table (offset %" PRIu64
				 ", %u entries) lies outside "
				 "the %zu-byte ELF",
				 shoff, e->shnum, e->len);
		goto out;
	}
	buf_reader_init(&r, e->p, e->len);
	buf_skip(&r, (size_t)shoff);
	buf_get_sub(&r, &e->shtab, tab_len);
	if (!buf_ok(&r)) {
		ta_image_set_why(why, whylen, "section header table out of bounds");
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

static bool section_read(const struct ta_elf *e, uint16_t idx, struct ta_elf_section *s)
{
	struct buf_reader r = e->shtab;

	buf_skip(&r, (size_t)idx * sizeof(Elf64_Shdr));
	buf_get_u32(&r, &s->name);
	buf_get_u32(&r, &s->type);
	buf_skip(&r, sizeof(Elf64_Xword) + sizeof(Elf64_Addr)); /* sh_flags, sh_addr */
	buf_get_u64(&r, &s->offset);
	buf_get_u64(&r, &s->size);
	buf_get_u32(&r, &s->link);
	return buf_ok(&r);
}

/* A reader over the section's bytes in the file, or false if they lie outside it. */
static bool section_bytes(const struct ta_elf *e, const struct ta_elf_section *s,
			  struct buf_reader *out)
{
	struct buf_reader r = {0};
	uint64_t end = 0;

	buf_reader_init(out, NULL, 0);
	if (__builtin_add_overflow(s->offset, s->size, &end) || end > e->len)
		return false;
	buf_reader_init(&r, e->p, e->len);
	buf_skip(&r, (size_t)s->offset);
	return buf_get_sub(&r, out, (size_t)s->size);
}

static bool name_is(const struct buf_reader *strtab, uint32_t name, const char *want)
{
	size_t n = strlen(want) + 1; /* with its NUL */
	struct buf_reader r = *strtab;
	const uint8_t *p = NULL;

	buf_skip(&r, name);
	return buf_get_ptr(&r, &p, n) && memcmp(p, want, n) == 0;
}

/* The one section called want: 1 and *out, 0 if there is none, or an error. */
static int section_find(const struct ta_elf *e, const char *want, struct ta_elf_section *out,
			char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_ELF;
	struct ta_elf_section s = {0};
	struct buf_reader strtab = {0};
	bool found = false;

	if (!section_read(e, e->shstrndx, &s) || s.type != SHT_STRTAB ||
	    !section_bytes(e, &s, &strtab)) {
		ta_image_set_why(why, whylen, "bad section name table");
		goto out;
	}
	/* Section 0 is the reserved null section. */
	for (uint16_t i = 1; i < e->shnum; i++) {
		if (!section_read(e, i, &s)) {
			ta_image_set_why(why, whylen, "section header %u out of bounds", i);
			goto out;
		}
		if (!name_is(&strtab, s.name, want))
			continue;
		if (found) {
			ta_image_set_why(why, whylen, "more than one %s section", want);
			goto out;
		}
		found = true;
		*out = s;
	}
	rc = found ? 1 : 0;
out:
	return rc;
}

static int ta_head_find(const struct ta_elf *e, struct ta_elf_section *head, char *why,
			size_t whylen)
{
	int rc = section_find(e, TA_HEAD_SECTION, head, why, whylen);

	if (rc == 0) {
		ta_image_set_why(why, whylen, "no " TA_HEAD_SECTION " section");
		rc = TA_IMAGE_E_ELF;
	}
	return rc < 0 ? rc : TA_IMAGE_OK;
}

int ta_elf_read_data_size(const uint8_t *elf, size_t len, uint32_t *data_size, char *why,
			  size_t whylen)
{
	struct ta_elf e = {.p = elf, .len = len};
	struct ta_elf_section s = {0};
	struct buf_reader r = {0};
	int rc = TA_IMAGE_E_ELF;

	*data_size = 0;
	rc = header_read(&e, why, whylen);
	if (rc)
		return rc;
	rc = section_find(&e, TA_DATA_SIZE_SECTION, &s, why, whylen);
	if (rc <= 0)
		return rc;
	if (s.type != SHT_PROGBITS || s.size != sizeof(uint32_t) || !section_bytes(&e, &s, &r) ||
	    !buf_get_u32(&r, data_size)) {
		ta_image_set_why(why, whylen,
				 TA_DATA_SIZE_SECTION
				 " is not one u32 inside the ELF (type %" PRIu32 ", %" PRIu64
				 " bytes)",
				 s.type, s.size);
		return TA_IMAGE_E_ELF;
	}
	return TA_IMAGE_OK;
}

int ta_elf_read_head(const uint8_t *elf, size_t len, struct swtee_uuid *uuid, uint32_t *stack_size,
		     uint32_t *flags, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	struct ta_elf e = {.p = elf, .len = len};
	struct ta_elf_section s = {0};
	struct buf_reader r = {0};
	uint32_t time_low = 0;
	uint16_t time_mid = 0, time_hi = 0;
	uint8_t clock_seq[8] = {0};
	uint32_t stack = 0, fl = 0;

	if (why && whylen)
		why[0] = '\0';
	if (uuid)
		memset(uuid, 0, sizeof(*uuid));
	if (stack_size)
		*stack_size = 0;
	if (flags)
		*flags = 0;
	if (!elf || !uuid || !stack_size || !flags) {
		ta_image_set_why(why, whylen, "invalid arguments");
		goto out;
	}
	rc = header_read(&e, why, whylen);
	if (rc)
		goto out;
	rc = ta_head_find(&e, &s, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_ELF;
	if (s.type != SHT_PROGBITS || s.size < TA_HEAD_SIZE) {
		ta_image_set_why(why, whylen,
				 TA_HEAD_SECTION " has type %" PRIu32 " and %" PRIu64
						 " bytes, expected PROGBITS of at least %u",
				 s.type, s.size, TA_HEAD_SIZE);
		goto out;
	}
	if (!section_bytes(&e, &s, &r)) {
		ta_image_set_why(why, whylen, TA_HEAD_SECTION " lies outside the ELF");
		goto out;
	}
	/* The ELF is little-endian, so TEE_UUID's native fields are too. */
	buf_get_u32(&r, &time_low);
	buf_get_u16(&r, &time_mid);
	buf_get_u16(&r, &time_hi);
	buf_get_bytes(&r, clock_seq, sizeof(clock_seq));
	buf_get_u32(&r, &stack);
	buf_get_u32(&r, &fl);
	if (!buf_ok(&r)) {
		ta_image_set_why(why, whylen, TA_HEAD_SECTION " truncated");
		goto out;
	}
	uuid_from_fields(uuid, time_low, time_mid, time_hi, clock_seq);
	*stack_size = stack;
	*flags = fl;
	rc = TA_IMAGE_OK;
out:
	return rc;
}

/* The DT_SONAME of the SHT_DYNAMIC section dyn, NUL-terminated, or NULL. */
static const char *soname_of(const struct ta_elf *e, const struct ta_elf_section *dyn)
{
	struct ta_elf_section strs = {0};
	struct buf_reader d = {0};
	struct buf_reader strtab = {0};

	if (!section_bytes(e, dyn, &d) || dyn->link == 0 || dyn->link >= e->shnum ||
	    !section_read(e, (uint16_t)dyn->link, &strs) || strs.type != SHT_STRTAB ||
	    !section_bytes(e, &strs, &strtab))
		return NULL;
	while (buf_left(&d) >= sizeof(Elf64_Dyn)) {
		uint64_t tag = 0;
		uint64_t val = 0;
		struct buf_reader r = strtab;
		const uint8_t *p = NULL;

		buf_get_u64(&d, &tag);
		buf_get_u64(&d, &val);
		if (tag == DT_NULL)
			break;
		if (tag != DT_SONAME)
			continue;
		if (val >= buf_left(&r))
			return NULL;
		buf_skip(&r, (size_t)val);
		buf_get_ptr(&r, &p, buf_left(&r));
		return p && memchr(p, '\0', buf_left(&strtab) - (size_t)val) ? (const char *)p
									     : NULL;
	}
	return NULL;
}

int ta_elf_check_lib(const uint8_t *elf, size_t len, const struct swtee_uuid *uuid, char *why,
		     size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	struct ta_elf e = {.p = elf, .len = len};
	struct ta_elf_section s = {0};
	char want[SWTEE_UUID_STR_LEN] = "";
	const char *soname = NULL;

	if (why && whylen)
		why[0] = '\0';
	if (!elf || !uuid) {
		ta_image_set_why(why, whylen, "invalid arguments");
		goto out;
	}
	rc = header_read(&e, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_ELF;
	if (ta_head_find(&e, &s, NULL, 0) == TA_IMAGE_OK) {
		ta_image_set_why(why, whylen, "a TA (it has " TA_HEAD_SECTION "), not a library");
		goto out;
	}
	for (uint16_t i = 1; i < e.shnum && !soname; i++) {
		if (!section_read(&e, i, &s)) {
			ta_image_set_why(why, whylen, "section header %u out of bounds", i);
			goto out;
		}
		if (s.type == SHT_DYNAMIC)
			soname = soname_of(&e, &s);
	}
	uuid_format(uuid, want);
	if (!soname || strcmp(soname, want) != 0) {
		ta_image_set_why(why, whylen, "the library's soname is %s%s%s, not its UUID %s",
				 soname ? "'" : "", soname ? soname : "missing", soname ? "'" : "",
				 want);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}
