/*
 * A TA written as OP-TEE TAs are: it includes every OP-TEE TA header the
 * kit has, before the glibc headers whose identifiers a careless
 * compiler.h breaks (<link.h>, <pthread.h>, <spawn.h>, <crypt.h>), checks
 * the macros against the values OP-TEE documents at compile time, and the
 * functions at run time. Each command returns TEE_ERROR_GENERIC, with an
 * EMSG naming the check, when one fails.
 */
#include <compiler.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>
#include <tee_api_types.h>
#include <tee_ta_api.h>
#include <user_ta_header.h>
#include <asan_test.h>
#include <atomic.h>
#include <bitstring.h>
#include <config.h>
#include <confine_array_index.h>
#include <elf32.h>
#include <elf64.h>
#include <elf_common.h>
#include <fault_mitigation.h>
#include <mempool.h>
#include <memtag.h>
#include <printk.h>
#include <pta_apdu.h>
#include <pta_device.h>
#include <pta_gprof.h>
#include <pta_qcom_pas.h>
#include <pta_rng.h>
#include <pta_rtc.h>
#include <pta_scp03.h>
#include <pta_socket.h>
#include <pta_veraison_attestation.h>
#include <pta_widevine.h>
#include <remoteproc_pta.h>
#include <rng_pta_client.h>
#include <string_ext.h>
#include <sys/queue.h>
#include <tee_syscall_numbers.h>
#include <trace.h>
#include <types_ext.h>
#include <utee_defines.h>
#include <utee_syscalls.h>
#include <utee_types.h>
#include <util.h>

#include <crypt.h>
#include <link.h>
#include <pthread.h>
#include <spawn.h>
#include <string.h>

#include <optee_headers_ta.h>

#define CFG_OH_ON 1
#define CFG_OH_OFF 0

/* File-scope checks: the constant macros and tee_api_types.h's <inttypes.h>. */
COMPILE_TIME_ASSERT(BIT(5) == 32);
COMPILE_TIME_ASSERT(BIT64(40) == UINT64_C(0x10000000000));
COMPILE_TIME_ASSERT(GENMASK_32(7, 4) == 0xf0);
COMPILE_TIME_ASSERT(GENMASK_64(39, 21) == UINT64_C(0x000000ffffe00000));
COMPILE_TIME_ASSERT(SHIFT_U32(3, 4) == 0x30 && SHIFT_U64(1, 63) == UINT64_C(1) << 63);
COMPILE_TIME_ASSERT(IS_POWER_OF_TWO(64u) && !IS_POWER_OF_TWO(96u));
COMPILE_TIME_ASSERT(ROUNDUP(13, 8) == 16 && ROUNDDOWN(13, 8) == 8);
COMPILE_TIME_ASSERT(ROUNDUP2(13, 6) == 18 && ROUNDDOWN2(13, 6) == 12);
COMPILE_TIME_ASSERT(MAX_UNSAFE(3, 9) == 9 && MIN_UNSAFE(3, 9) == 3);
COMPILE_TIME_ASSERT(sizeof(U(1)) == 4 && sizeof(ULL(1)) == 8 && sizeof(UL(1)) == sizeof(long));
COMPILE_TIME_ASSERT(IS_ENABLED(CFG_OH_ON) && !IS_ENABLED(CFG_OH_OFF) && !IS_ENABLED(CFG_OH_NONE));
COMPILE_TIME_ASSERT(SIZE_4K == 4096 && SIZE_2M == 2 * 1024 * 1024);
COMPILE_TIME_ASSERT(sizeof(vaddr_t) == sizeof(void *) && sizeof(paddr_t) == sizeof(void *));
COMPILE_TIME_ASSERT(MEMTAG_IS_ENABLED == 0 && MEMTAG_GRANULE_SIZE == 1);
COMPILE_TIME_ASSERT(FTMN_STEP_COUNT2(1, 1) == FTMN_INCR0 + FTMN_INCR1);
COMPILE_TIME_ASSERT(bitstr_size(17) == 3);
COMPILE_TIME_ASSERT(TEE_USER_MEM_HINT_NO_FILL_ZERO == 0x80000000);
COMPILE_TIME_ASSERT(TA_FLAG_CACHE_MAINTENANCE == BIT(7));
COMPILE_TIME_ASSERT(sizeof(Elf32_Size) == 4 && sizeof(Elf64_Size) == 8 && sizeof(Elf_Note) == 12);
COMPILE_TIME_ASSERT(ELF64_R_TYPE_ID(ELF64_R_TYPE_INFO(0x123456, 0x7f)) == 0x7f);
COMPILE_TIME_ASSERT(ELF64_R_TYPE_DATA(ELF64_R_TYPE_INFO(0x123456, 0x7f)) == 0x123456);
COMPILE_TIME_ASSERT(PTA_RPROC_FIRMWARE_LOAD == 2 && PTA_REMOTEPROC_RELEASE == 9);
COMPILE_TIME_ASSERT(PTA_QCOM_PAS_IS_SUPPORTED == 1 && PTA_QCOM_PAS_VERIFY_IMAGE == 9);
COMPILE_TIME_ASSERT(PTA_CMD_GET_DEVICES == 0 && PTA_CMD_GET_DEVICES_SUPP == 1 &&
		    PTA_CMD_GET_DEVICES_RPMB == 2);
COMPILE_TIME_ASSERT(PTA_CMD_GET_ENTROPY == 0 && PTA_CMD_GET_RNG_INFO == 1 &&
		    TEE_ERROR_HEALTH_TEST_FAIL == 1);
COMPILE_TIME_ASSERT(PTA_CMD_ENABLE_SCP03 == 0 && PTA_SCP03_SESSION_ROTATE_KEYS == 1);
COMPILE_TIME_ASSERT(PTA_CMD_TXRX_APDU_RAW_FRAME == 0 && PTA_APDU_TXRX_CASE_2E == 3 &&
		    PTA_APDU_TXRX_CASE_4E == 7);
COMPILE_TIME_ASSERT(PTA_CMD_RTC_GET_INFO == 0 && PTA_CMD_RTC_SET_WAKE_ALARM_STATUS == 0xA &&
		    PTA_RTC_FEATURE_WAKEUP_ALARM == 4 && PTA_RTC_INFO_VERSION == 1);
COMPILE_TIME_ASSERT(sizeof(struct pta_rtc_time) == 28 && sizeof(struct pta_rtc_alarm) == 32 &&
		    sizeof(struct pta_rtc_info) == 72);
COMPILE_TIME_ASSERT(PTA_SOCKET_OPEN == 1 && PTA_SOCKET_IOCTL == 5 &&
		    PTA_SOCKET_TIMEOUT_BLOCKING == 0xffffffff);
COMPILE_TIME_ASSERT(PTA_GPROF_SEND == 0 && PTA_GPROF_STOP_PC_SAMPLING == 2);
COMPILE_TIME_ASSERT(PTA_WIDEVINE_GET_WIDEVINE_PRIVKEY == 1 &&
		    PTA_VERAISON_ATTESTATION_GET_CBOR_EVIDENCE == 0);
COMPILE_TIME_ASSERT(TEE_SCN_RETURN == 0 && TEE_SCN_WAIT == 12 && TEE_SCN_HASH_INIT == 18 &&
		    TEE_SCN_ASYMM_VERIFY == 40 && TEE_SCN_CRYP_OBJ_GENERATE_KEY == 54 &&
		    TEE_SCN_SE_SERVICE_OPEN__DEPRECATED == 55 &&
		    TEE_SCN_SE_CHANNEL_CLOSE__DEPRECATED == 69 && TEE_SCN_CACHE_OPERATION == 70 &&
		    TEE_SCN_MAX == 70 && TEE_SVC_MAX_ARGS == 8);
COMPILE_TIME_ASSERT(UTEE_ENTRY_FUNC_INVOKE_COMMAND == 2 && UTEE_ENTRY_FUNC_DUMP_MEMSTATS == 3);
COMPILE_TIME_ASSERT(UTEE_TIME_CAT_REE == 2 && TEE_CACHEINVALIDATE == 2);
COMPILE_TIME_ASSERT(sizeof(struct utee_params) == 72 && sizeof(struct utee_attribute) == 24);
COMPILE_TIME_ASSERT(sizeof(struct utee_object_info) == 28);
static const char uuid_fmt_check[] = "%" PRIu32 "/%" PRIx64 "/%" PRIxVA "/%" PRIxPA;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			EMSG("check failed: %s", #cond);                                           \
			return TEE_ERROR_GENERIC;                                                  \
		}                                                                                  \
	} while (0)

struct node {
	int v;
	TAILQ_ENTRY(node) link;
	LIST_ENTRY(node) llink;
	STAILQ_ENTRY(node) slink;
};

TAILQ_HEAD(node_tq, node);
LIST_HEAD(node_l, node);
STAILQ_HEAD(node_stq, node);

struct outer {
	int before;
	int member;
};

static int pool_released;

static void pool_release(void *ptr __unused, size_t size __unused)
{
	pool_released++;
}

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types __unused, TEE_Param params[4] __unused,
				    void **ctx __unused)
{
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx __unused)
{
}

/* The statement-only forms OP-TEE allows inside a function. */
static TEE_Result check_function_scope_macros(void)
{
	struct outer o = {1, 2};
	uint32_t sum = 0;
	unsigned int n = 7;
	uint32_t hi = 0;
	uint32_t lo = 0;
	int calls = 0;

	COMPILE_TIME_ASSERT(ROUNDUP_DIV(5, 4) == 2);
	COMPILE_TIME_ASSERT(ROUNDUP_DIV(8, 4) == 2);
	COMPILE_TIME_ASSERT(TEE_SHA256_HASH_SIZE == 32);
	CHECK(ROUNDUP_DIV(n++, 4u) == 2 && n == 8); /* evaluated once */
	CHECK(MAX(n++, 3u) == 8 && n == 9);
	CHECK(MIN(calls++, 5) == 0 && calls == 1);
	/* Nested, as optee_os's pkcs11 TA does: no local may shadow another (-Wshadow). */
	CHECK(MIN(MIN(n, 5u), 3u) == 3 && MAX(MAX(n, 2u), MIN(n, 1u)) == 9);
	CHECK(CMP_TRILEAN(MIN(n, 4u), MAX(3u, 2u)) == 1 &&
	      ROUNDUP_DIV(ROUNDUP_DIV(n, 2u), 2u) == 3);
	CHECK(UDIV_ROUND_NEAREST(UDIV_ROUND_NEAREST(n, 1u), 2u) == 5);
	CHECK(CMP_TRILEAN(3, 4) == -1 && CMP_TRILEAN(4, 4) == 0 && CMP_TRILEAN(5, 4) == 1);
	CHECK(container_of(&o.member, struct outer, member) == &o);
	CHECK(MEMBER_SIZE(struct outer, member) == sizeof(int));
	CHECK(ADD_OVERFLOW(UINT32_MAX, 1u, &sum) && !ADD_OVERFLOW(2u, 3u, &sum) && sum == 5);
	CHECK(SUB_OVERFLOW(0u, 1u, &sum) &&
	      MUL_OVERFLOW(UINT32_C(0x10000), UINT32_C(0x10000), &sum));
	CHECK(!ROUNDUP_OVERFLOW(13u, 8u, &sum) && sum == 16 &&
	      ROUNDUP_OVERFLOW(UINT32_MAX, 8u, &sum));
	CHECK(UDIV_ROUND_NEAREST(7u, 2u) == 4 && UDIV_ROUND_NEAREST(5u, 4u) == 1);
	CHECK(reg_pair_to_64(1, 2) == UINT64_C(0x100000002));
	reg_pair_from_64(UINT64_C(0x300000004), &hi, &lo);
	CHECK(hi == 3 && lo == 4);
	CHECK(get_field_u32(0xabcd, 0x0f0) == 0xc && set_field_u32(0, 0xf00, 5) == 0x500);
	CHECK(TEE_ALG_GET_DIGEST_SIZE(TEE_ALG_SHA256) == 32);
	CHECK(TEE_ALG_GET_DIGEST_SIZE(TEE_ALG_HMAC_SHA1) == 20);
	CHECK(TEE_ALG_GET_DIGEST_SIZE(TEE_ALG_SHA512) == 64);
	CHECK(TEE_ALG_GET_DIGEST_SIZE(TEE_ALG_AES_CBC_NOPAD) == 0);
	CHECK(IS_ENABLED(CFG_OH_ON));
	return TEE_SUCCESS;
}

static TEE_Result cmd_atomic(uint32_t types, TEE_Param p[4])
{
	volatile uint32_t v = 0;
	uint32_t u = 5;
	uint32_t old = 5;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INOUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	v = p[0].value.a;
	CHECK(atomic_inc32(&v) == p[0].value.a + 1);
	atomic_inc32(&v);
	p[0].value.b = atomic_dec32(&v);
	p[0].value.a = v;
	CHECK(atomic_cas_u32(&u, &old, 6) && u == 6);
	CHECK(!atomic_cas_u32(&u, &old, 7) && old == 6 && u == 6);
	atomic_store_u32(&u, 9);
	CHECK(atomic_load_u32(&u) == 9);
	return check_function_scope_macros();
}

static TEE_Result cmd_uuid(uint32_t types, TEE_Param p[4])
{
	TEE_UUID u = {0};
	char s[40] = {0};

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE) ||
	    p[0].memref.size >= sizeof(s))
		return TEE_ERROR_BAD_PARAMETERS;
	memcpy(s, p[0].memref.buffer, p[0].memref.size);
	CHECK(tee_uuid_from_str(&u, s) == TEE_SUCCESS);
	p[1].value.a = u.timeLow;
	p[1].value.b = (uint32_t)u.timeMid << 16 | u.timeHiAndVersion;
	CHECK(u.clockSeqAndNode[0] == 0xad && u.clockSeqAndNode[7] == 0x1b);
	CHECK(tee_uuid_from_str(&u, "5b9e0e40-2636-11e1-ad9e-0002a5d5c51") == TEE_ERROR_BAD_FORMAT);
	CHECK(tee_uuid_from_str(&u, "5b9e0e40-2636-11e1-ad9e-0002a5d5c51bb") ==
	      TEE_ERROR_BAD_FORMAT);
	CHECK(tee_uuid_from_str(&u, "5b9e0e40x2636-11e1-ad9e-0002a5d5c51b") ==
	      TEE_ERROR_BAD_FORMAT);
	CHECK(tee_uuid_from_str(&u, "5b9e0e40-2636-11e1-ad9e-0002a5d5c5g1") ==
	      TEE_ERROR_BAD_FORMAT);
	CHECK(tee_uuid_from_str(&u, NULL) == TEE_ERROR_BAD_FORMAT);
	/* Unchanged by the failures. */
	CHECK(u.timeLow == p[1].value.a);
	return TEE_SUCCESS;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (p[i])
			return false;
	}
	return true;
}

static TEE_Result cmd_map_zi(uint32_t types)
{
	size_t len = 3 * 4096 + 1;
	uint8_t *p = NULL;
	uint8_t *q = NULL;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	p = tee_map_zi(len, 0);
	CHECK(p && all_zero(p, len));
	memset(p, 0xa5, len);
	CHECK(TEE_CheckMemoryAccessRights(TEE_MEMORY_ACCESS_READ | TEE_MEMORY_ACCESS_WRITE, p,
					  len) == TEE_SUCCESS);
	CHECK(tee_unmap(p, len + 1) == TEE_ERROR_BAD_PARAMETERS);
	CHECK(tee_unmap(p + 4096, 4096) == TEE_ERROR_BAD_PARAMETERS);
	CHECK(p[len - 1] == 0xa5); /* still mapped after the refused unmaps */
	CHECK(tee_unmap(p, len) == TEE_SUCCESS);
	CHECK(tee_unmap(p, len) == TEE_ERROR_BAD_PARAMETERS);
	CHECK(!tee_map_zi(0, 0) && !tee_map_zi(16, TEE_MEMORY_ACCESS_WRITE));
	q = tee_map_zi(64, TEE_MEMORY_ACCESS_ANY_OWNER);
	CHECK(q && all_zero(q, 64));
	/* At a given address: where p was, now free; and not over q. */
	CHECK(tee_map_zi_va((vaddr_t)p, 4096, 0) == p);
	CHECK(!tee_map_zi_va((vaddr_t)q, 4096, 0));
	CHECK(!tee_map_zi_va((vaddr_t)p + 1, 4096, 0));
	CHECK(tee_unmap(p, 4096) == TEE_SUCCESS && tee_unmap(q, 64) == TEE_SUCCESS);
	return TEE_SUCCESS;
}

static TEE_Result cmd_cache(uint32_t types, TEE_Param p[4])
{
	char *own = NULL;
	char *buf = NULL;
	size_t len = 0;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INOUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	buf = p[0].memref.buffer;
	len = p[0].memref.size;
	p[1].value.a = TEE_CacheFlush(buf, len);
	CHECK(TEE_CacheClean(buf, len) == p[1].value.a);
	CHECK(TEE_CacheInvalidate(buf, len) == p[1].value.a);
	own = TEE_Malloc(64, 0);
	CHECK(own);
	p[1].value.b = TEE_CacheFlush(own, 64);
	CHECK(TEE_CacheClean(own, 64) == p[1].value.b);
	CHECK(TEE_CacheInvalidate(own, 64) == p[1].value.b);
	TEE_Free(own);
	return TEE_SUCCESS;
}

/* OP-TEE's %pUl, and every other conversion still taking its own argument. */
static TEE_Result check_snprintk_uuid(void)
{
	static const TEE_UUID u = {
	    0x0123abcd, 0x4567, 0x89ef, {0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10}};
	static const char want[] = "0123abcd-4567-89ef-fedc-ba9876543210";
	char out[96] = {0};
	char small[9] = {0};
	int n = 0;

	CHECK(snprintk(out, sizeof(out), "id %pUl.", (const void *)&u) == 40 &&
	      !strcmp(out, "id 0123abcd-4567-89ef-fedc-ba9876543210."));
	CHECK(snprintk(out, sizeof(out), "%d %pUl %s %lld %.2f %*d%n|", -7, (const void *)&u, "s",
		       -5LL, 2.5, 4, 9, &n) == 55 &&
	      !strncmp(out + 3, want, sizeof(want) - 1) && n == 54 &&
	      !strcmp(out + 39, " s -5 2.50    9|"));
	CHECK(snprintk(out, sizeof(out), "[%40pUl]", (const void *)&u) == 42 && out[1] == ' ' &&
	      !strncmp(out + 5, want, sizeof(want) - 1));
	CHECK(snprintk(small, sizeof(small), "%pUl", (const void *)&u) == 36 &&
	      !strcmp(small, "0123abcd"));
	CHECK(snprintk(NULL, 0, "%pUl%%%c", (const void *)&u, 'x') == 38);
	/* A '*' precision: a negative one counts as none, as in C. */
	CHECK(snprintk(out, sizeof(out), "%.*s|%.*s|%.*d", 2, "abc", -1, "abc", -3, 7) == 8 &&
	      !strcmp(out, "ab|abc|7"));
	/* Without the "Ul", a %p is the C library's. */
	CHECK(snprintk(out, sizeof(out), "%pU", (void *)0x10) == 5 && !strcmp(out, "0x10U"));
	return TEE_SUCCESS;
}

static TEE_Result check_strings(void)
{
	char small[6] = {0};
	char out[32] = {0};
	uint8_t secret[8] = {1, 2, 3, 4, 5, 6, 7, 8};

	CHECK(strlcpy(small, "abcdefgh", sizeof(small)) == 8 && !strcmp(small, "abcde"));
	CHECK(strlcpy(small, "ab", sizeof(small)) == 2 && !strcmp(small, "ab"));
	CHECK(strlcat(small, "cdefg", sizeof(small)) == 7 && !strcmp(small, "abcde"));
	CHECK(strlcpy(small, "xyz", 0) == 3 && !strcmp(small, "abcde"));
	CHECK(consttime_memcmp("abcd", "abcd", 4) == 0 && consttime_memcmp("abcd", "abce", 4) != 0);
	CHECK(buf_compare_ct("ab", "ab", 2) == 0);
	memzero_explicit(secret, sizeof(secret));
	CHECK(all_zero(secret, sizeof(secret)));
	CHECK(snprintk(out, sizeof(out), "%s-%" PRIu32, "n", UINT32_C(42)) == 4 &&
	      !strcmp(out, "n-42"));
	CHECK(snprintk(out, 3, "%d", 12345) == 5 && !strcmp(out, "12"));
	return check_snprintk_uuid();
}

static TEE_Result check_mempool(void)
{
	static long block[64];
	struct mempool *pool = mempool_alloc_pool(block, sizeof(block), pool_release);
	uint8_t *a = NULL;
	uint8_t *b = NULL;
	uint8_t *c = NULL;

	CHECK(pool);
	a = mempool_alloc(pool, 40);
	b = mempool_calloc(pool, 4, 8);
	CHECK(a && b && b > a && all_zero(b, 32));
	CHECK(((uintptr_t)b & (MEMPOOL_ALIGN - 1)) == 0);
	CHECK(!mempool_alloc(pool, sizeof(block)));
	CHECK(!mempool_calloc(pool, SIZE_MAX, 2));
	mempool_free(pool, a);
	CHECK(pool_released == 0);
	mempool_free(pool, b);
	CHECK(pool_released == 1);
	/* Empty again: the space is reused from the start. */
	c = mempool_alloc(pool, 8);
	CHECK(c == a);
	mempool_free(pool, c);
	mempool_free(pool, NULL);
	CHECK(pool_released == 2);
	return TEE_SUCCESS;
}

static TEE_Result check_bitstring(void)
{
	bitstr_t bit_decl(bits, 20) = {0};
	int at = 0;

	bit_ffs(bits, 20, &at);
	CHECK(at == -1);
	bit_set(bits, 13);
	CHECK(bit_test(bits, 13) && !bit_test(bits, 12));
	bit_ffs(bits, 20, &at);
	CHECK(at == 13);
	bit_nset(bits, 0, 9);
	bit_ffc(bits, 20, &at);
	CHECK(at == 10);
	bit_nclear(bits, 2, 4);
	bit_ffc(bits, 20, &at);
	CHECK(at == 2);
	bit_clear(bits, 13);
	bit_nset(bits, 0, 19);
	bit_ffc(bits, 20, &at);
	CHECK(at == -1);
	return TEE_SUCCESS;
}

/* Removes the odd values while iterating, which only the _SAFE forms allow. */
static TEE_Result check_queues(void)
{
	struct node n[6];
	struct node_tq tq = TAILQ_HEAD_INITIALIZER(tq);
	struct node_l l = LIST_HEAD_INITIALIZER(l);
	struct node_stq stq = STAILQ_HEAD_INITIALIZER(stq);
	struct node *e = NULL;
	struct node *t = NULL;
	int sum = 0;

	for (int i = 0; i < 6; i++) {
		n[i].v = i;
		TAILQ_INSERT_TAIL(&tq, &n[i], link);
		LIST_INSERT_HEAD(&l, &n[i], llink);
		STAILQ_INSERT_TAIL(&stq, &n[i], slink);
	}
	TAILQ_FOREACH_SAFE(e, &tq, link, t)
	{
		if (e->v & 1) {
			TAILQ_REMOVE(&tq, e, link);
			memset(&e->link, 0xff, sizeof(e->link));
		}
	}
	TAILQ_FOREACH_REVERSE_SAFE(e, &tq, node_tq, link, t) sum = sum * 10 + e->v;
	CHECK(sum == 420);
	LIST_FOREACH_SAFE(e, &l, llink, t)
	{
		if (e->v & 1)
			LIST_REMOVE(e, llink);
	}
	sum = 0;
	LIST_FOREACH(e, &l, llink) sum = sum * 10 + e->v;
	CHECK(sum == 420);
	CHECK(STAILQ_LAST(&stq, node, slink) == &n[5]);
	sum = 0;
	STAILQ_FOREACH_SAFE(e, &stq, slink, t) sum += e->v;
	CHECK(sum == 15);
	return TEE_SUCCESS;
}

/* Called as FTMN_CALL_FUNC calls: its last argument is OP-TEE's check state. */
static int counted(int *calls, int v, struct ftmn_func_arg *arg)
{
	(*calls)++;
	FTMN_CALLEE_DONE(arg, (unsigned long)v);
	return v;
}

/* remoteproc's ELF parsing and byte order macros, and its pseudo TA (absent). */
static TEE_Result check_elf_pta(void)
{
	static const uint8_t le32[4] = {0x44, 0x33, 0x22, 0x11};
	const TEE_UUID rproc = PTA_RPROC_UUID;
	struct rproc_pta_key_info key = {.info_size = 16};
	Elf32_Ehdr ehdr = {.e_ident = {ELFMAG0, 'E', 'L', 'F', ELFCLASS32}};
	TEE_TASessionHandle sess = TEE_HANDLE_NULL;
	uint32_t v = 0;
	uint32_t origin = 0;

	CHECK(IS_ELF(ehdr) && ehdr.e_ident[EI_CLASS] == ELFCLASS32);
	ehdr.e_ident[EI_MAG3] = 'G';
	CHECK(!IS_ELF(ehdr));
	memcpy(&v, le32, sizeof(v));
	CHECK(TEE_U32_FROM_LITTLE_ENDIAN(v) == 0x11223344 &&
	      TEE_U32_TO_LITTLE_ENDIAN(v) == 0x11223344);
	CHECK(TEE_U32_FROM_BIG_ENDIAN(v) == 0x44332211);
	CHECK(TEE_U16_FROM_LITTLE_ENDIAN((uint16_t)v) == 0x3344 &&
	      TEE_U64_TO_LITTLE_ENDIAN(v) == v);
	CHECK(rproc_pta_keyinfo_size(&key) == sizeof(key) + 16 &&
	      rproc_pta_keyinfo_size(NULL) == 0);
	CHECK(TEE_OpenTASession(&rproc, TEE_TIMEOUT_INFINITE, 0, NULL, &sess, &origin) ==
	      TEE_ERROR_ITEM_NOT_FOUND);
	return TEE_SUCCESS;
}

/* The UUIDs of OP-TEE's pseudo TAs swtee does not have, and the inline _utee_* calls. */
static TEE_Result check_utee(void)
{
	static const TEE_UUID ptas[] = {
	    PTA_DEVICE_UUID, PTA_RNG_UUID,	PTA_SCP03_UUID,
	    PTA_APDU_UUID,   PTA_RTC_UUID,	PTA_SOCKET_UUID,
	    PTA_GPROF_UUID,  PTA_WIDEVINE_UUID, PTA_VERAISON_ATTESTATION_UUID};
	TEE_TASessionHandle sess = TEE_HANDLE_NULL;
	uint8_t rnd[16] = {0};
	char line[64] = {0};
	TEE_Time t = {0};
	uint32_t origin = 0;
	uint32_t flag = 1;

	CHECK(ptas[0].timeLow == 0x7011a688 && ptas[0].clockSeqAndNode[7] == 0xb8);
	CHECK(ptas[1].timeLow == 0xab7a617c && ptas[1].clockSeqAndNode[7] == 0x64);
	CHECK(ptas[2].timeLow == 0xbe0e5821 && ptas[2].clockSeqAndNode[7] == 0x35);
	CHECK(ptas[3].timeLow == 0x3f3eb880 && ptas[3].clockSeqAndNode[7] == 0x50);
	CHECK(ptas[4].timeLow == 0xf389f8c8 && ptas[4].clockSeqAndNode[7] == 0xfd);
	CHECK(ptas[5].timeLow == 0x3b996a7d && ptas[5].clockSeqAndNode[7] == 0xf4);
	CHECK(ptas[6].timeLow == 0x2f6e0d48 && ptas[6].clockSeqAndNode[7] == 0xac);
	CHECK(ptas[7].timeLow == 0x721f4da9 && ptas[7].clockSeqAndNode[7] == 0x0a);
	CHECK(ptas[8].timeLow == 0xa77955f9 && ptas[8].clockSeqAndNode[7] == 0xf5);
	for (size_t i = 0; i < sizeof(ptas) / sizeof(ptas[0]); i++)
		CHECK(TEE_OpenTASession(&ptas[i], TEE_TIMEOUT_INFINITE, 0, NULL, &sess, &origin) ==
		      TEE_ERROR_ITEM_NOT_FOUND);
	CHECK(_utee_cryp_random_number_generate(rnd, sizeof(rnd)) == TEE_SUCCESS);
	CHECK(!all_zero(rnd, sizeof(rnd)));
	CHECK(_utee_get_time(UTEE_TIME_CAT_SYSTEM, &t) == TEE_SUCCESS && (t.seconds || t.millis));
	CHECK(_utee_get_time(UTEE_TIME_CAT_REE, &t) == TEE_SUCCESS && t.seconds > 0);
	CHECK(_utee_get_time(7, &t) == TEE_ERROR_BAD_PARAMETERS);
	CHECK(_utee_cache_operation(line, sizeof(line), TEE_CACHEFLUSH) ==
	      TEE_CacheFlush(line, sizeof(line)));
	CHECK(_utee_cache_operation(line, sizeof(line), 9) == TEE_ERROR_BAD_PARAMETERS);
	CHECK(_utee_check_access_rights(TEE_MEMORY_ACCESS_READ | TEE_MEMORY_ACCESS_WRITE, line,
					sizeof(line)) == TEE_SUCCESS);
	CHECK(_utee_get_cancellation_flag(&flag) == TEE_SUCCESS && flag == 0);
	CHECK(_utee_wait(1) == TEE_SUCCESS);
	return TEE_SUCCESS;
}

static TEE_Result check_misc(bool heap_uncounted)
{
	static const uint8_t dump[20] = {0xde, 0xad, 0xbe, 0xef};
	struct ftmn_check chk = {0};
	TEE_UUID plugin = {0};
	void *volatile p = NULL; /* or clang drops the malloc/free pair */
	size_t outlen = 99;
	int res = 0;
	int calls = 0;

	CHECK(confine_array_index(3, 8) == 3 && confine_array_index(8, 8) == 0);
	CHECK(confine_array_index(SIZE_MAX, 8) == 0);
	CHECK(!memtag_is_enabled() && memtag_get_tag(&res) == 0);
	CHECK(memtag_insert_tag(&res, 3) == (void *)&res && memtag_strip_tag(&res) == (void *)&res);
	FTMN_CALL_FUNC(res, &chk, FTMN_INCR0, counted, &calls, 7);
	CHECK(res == 7 && calls == 1 && ftmn_return_val(&chk, 5) == 5);
	/* As optee_os's mbedTLS compares in its RSA verification. */
	CHECK(FTMN_CALLEE_DONE_MEMCMP(memcmp, "abc", "abc", 3) == 0);
	CHECK(FTMN_CALLEE_DONE_MEMCMP(memcmp, "abc", "abd", 3) != 0);
	ftmn_checkpoint(&chk, FTMN_INCR1);
	ftmn_expect_state(&chk, FTMN_STEP_COUNT1(1), 0);
	CHECK(tee_invoke_supp_plugin(&plugin, 1, 2, NULL, 0, &outlen) == TEE_ERROR_ITEM_NOT_FOUND);
	CHECK(outlen == 0);
	CHECK(tee_invoke_supp_plugin(NULL, 1, 2, NULL, 0, NULL) == TEE_ERROR_BAD_PARAMETERS);
	tee_user_mem_mark_heap();
	/* Larger than glibc's per-thread cache keeps, smaller than it mmaps. */
	p = malloc(32 * 1024);
	/*
	 * Under AddressSanitizer malloc is the sanitizer's, which glibc's
	 * counts do not see: the client says so, and the runtime must then
	 * report 0, never a wrong count.
	 */
	if (heap_uncounted)
		CHECK(p && tee_user_mem_check_heap() == 0);
	else
		CHECK(p && tee_user_mem_check_heap() >= 32 * 1024);
	free(p);
	CHECK(tee_user_mem_check_heap() == 0);
	EHEXDUMP(dump, sizeof(dump));
	DHEXDUMP(dump, sizeof(dump)); /* compiled out at the default level */
	CHECK(strlen(uuid_fmt_check) > 0);
	return TEE_SUCCESS;
}

/* value[0].a: 1 when the runtime's malloc keeps no count glibc can read. */
static TEE_Result cmd_helpers(uint32_t types, TEE_Param params[4])
{
	TEE_Result res = TEE_ERROR_GENERIC;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	res = check_strings();
	if (!res)
		res = check_mempool();
	if (!res)
		res = check_bitstring();
	if (!res)
		res = check_queues();
	if (!res)
		res = check_elf_pta();
	if (!res)
		res = check_utee();
	if (!res)
		res = check_misc(params[0].value.a == 1);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx __unused, uint32_t cmd, uint32_t types,
				      TEE_Param params[4])
{
	switch (cmd) {
	case TA_OH_CMD_ATOMIC:
		return cmd_atomic(types, params);
	case TA_OH_CMD_UUID:
		return cmd_uuid(types, params);
	case TA_OH_CMD_MAP_ZI:
		return cmd_map_zi(types);
	case TA_OH_CMD_CACHE:
		return cmd_cache(types, params);
	case TA_OH_CMD_HELPERS:
		return cmd_helpers(types, params);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
