/*
 * The on-disk format of a signed TA image (<uuid>.ta), compatible with
 * OP-TEE's bootstrap TA layout. All integers are little-endian.
 *
 *   shdr                 magic, img_type, img_size, algo (u32 each),
 *                        hash_size, sig_size (u16 each)
 *   hash[hash_size]      SHA-256 over shdr || bootstrap header || ELF
 *   sig[sig_size]        RSA signature over hash; sig_size is the modulus size
 *   shdr_bootstrap_ta    uuid[16] (canonical big-endian bytes), ta_version (u32)
 *   elf[img_size]        a host-architecture ELF64 shared object
 *
 * An image may instead begin with a chain of subkey images, each
 *
 *   shdr                 img_type SHDR_SUBKEY, img_size the subkey body's size
 *   hash[hash_size]      SHA-256 over shdr || subkey body
 *   sig[sig_size]        signed by the trusted key (first) or the previous subkey
 *   subkey body          shdr_subkey: uuid[16], name_size, subkey_version,
 *                        max_depth, algo, attr_count (u32 each), then
 *                        attr_count attributes {id, offs, size} (u32 each);
 *                        offs counts from the body's start; the attributes are
 *                        the RSA public key (modulus, public exponent)
 *   name[name_size]      not signed; the next image's UUID is the UUIDv5 (with
 *                        SHA-512) of uuid and the name up to its first NUL, or
 *                        uuid itself when name_size is 0
 *
 * followed by the next subkey or the TA's image, signed with this subkey.
 *
 * The ELF carries a section named ".ta_head" whose first TA_HEAD_SIZE bytes
 * are: TEE_UUID (u32 timeLow, u16 timeMid, u16 timeHiAndVersion,
 * u8 clockSeqAndNode[8]), u32 stack_size, u32 flags, u64 depr_entry.
 */
#ifndef SWTEE_TA_IMAGE_FORMAT_H
#define SWTEE_TA_IMAGE_FORMAT_H

#include <elf.h>

#define SHDR_MAGIC 0x4f545348u /* "HSTO" */

/* img_type values; SHDR_BOOTSTRAP_TA is accepted, after SHDR_SUBKEY headers or none. */
#define SHDR_TA 0u /* legacy, unsigned UUID */
#define SHDR_BOOTSTRAP_TA 1u
#define SHDR_ENCRYPTED_TA 2u
#define SHDR_SUBKEY 3u

/* algo values (the GP algorithm identifiers). */
#define SHDR_ALGO_RSASSA_PSS_SHA256 0x70414930u /* MGF1-SHA256, salt length 32 */
#define SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256 0x70004830u

#define SHDR_SIZE 20u		   /* struct shdr */
#define SHDR_BOOTSTRAP_TA_SIZE 20u /* struct shdr_bootstrap_ta */
#define SHDR_HASH_SIZE 32u	   /* SHA-256 */
#define SHDR_PSS_SALT_LEN 32u
#define SHDR_SUBKEY_SIZE 36u	  /* struct shdr_subkey without its attributes */
#define SHDR_SUBKEY_ATTR_SIZE 12u /* struct shdr_subkey_attr */

/* The attributes of a subkey's RSA public key (GP TEE_ATTR_*). */
#define SHDR_ATTR_RSA_MODULUS 0xd0000130u
#define SHDR_ATTR_RSA_PUBLIC_EXPONENT 0xd0000230u

/* Caps applied before any other use of the header's sizes. */
#define SHDR_MAX_SIG_SIZE 1024u			 /* RSA-8192 */
#define SHDR_MAX_IMG_SIZE (256u * 1024u * 1024u) /* 256 MiB of ELF */
#define SHDR_MAX_SUBKEYS 8u			 /* subkey headers in one chain */
#define SHDR_MAX_SUBKEY_BODY 4096u		 /* img_size of a subkey header */
#define SHDR_MAX_SUBKEY_NAME 256u		 /* name_size of a subkey */
/* Smallest RSA modulus the signer produces and the verifier accepts. */
#define SHDR_MIN_RSA_BITS 2048

#define TA_HEAD_SECTION ".ta_head"
#define TA_HEAD_SIZE 32u
/*
 * TA_DATA_SIZE as a plain u32 (gpd.ta.dataSize without relocations), which
 * the core reads to size the instance's memory cgroup. Optional: an image
 * without it gets the most a TA may declare.
 */
#define TA_DATA_SIZE_SECTION ".swtee.data_size"

/* e_machine of a TA ELF: the host's own. */
#if defined(__x86_64__)
#define TA_ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define TA_ELF_MACHINE EM_AARCH64
#else
#error "swtee: TA images are not defined for this host architecture"
#endif

#endif
