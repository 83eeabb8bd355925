/*
 * The "arith" test TA: runs batches of GP Arithmetical API calls that xtest
 * checks against OpenSSL BN, and commits each arithmetic misuse GP makes a
 * panic on demand. Protocol in ta_arith.h.
 */
#include <string.h>
#include <tee_internal_api.h>

#include "ta_arith.h"

#define WORDS_MAX TEE_BigIntSizeInU32(TA_ARITH_MAX_BITS)
#define BYTES_MAX (TA_ARITH_MAX_BITS / 8)

struct reader {
	const uint8_t *p;
	size_t n;
};

struct writer {
	uint8_t *p;
	size_t n;
	size_t used;
	bool short_buffer;
};

struct operand {
	int32_t sign;
	const uint8_t *bytes;
	uint32_t len;
};

static uint32_t opnd[3][WORDS_MAX];
static uint32_t dest[3][WORDS_MAX];
static uint32_t fmm[3][WORDS_MAX];
static uint32_t fmm_ctx[WORDS_MAX + 1];
static uint8_t octets[BYTES_MAX];

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	(void)types;
	(void)params;
	*ctx = NULL;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

static bool rd_u32(struct reader *r, uint32_t *v)
{
	if (r->n < 4)
		return false;
	*v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
	     (uint32_t)r->p[3] << 24;
	r->p += 4;
	r->n -= 4;
	return true;
}

static bool rd_operand(struct reader *r, struct operand *o)
{
	uint32_t sign = 0;
	uint32_t padded = 0;

	if (!rd_u32(r, &sign) || !rd_u32(r, &o->len) || o->len > BYTES_MAX)
		return false;
	padded = (o->len + 3) & ~3u;
	if (r->n < padded)
		return false;
	o->sign = (int32_t)sign;
	o->bytes = r->p;
	r->p += padded;
	r->n -= padded;
	return true;
}

static void wr_bytes(struct writer *w, const void *p, size_t n)
{
	if (w->short_buffer || w->n - w->used < n) {
		w->short_buffer = true;
		return;
	}
	memcpy(w->p + w->used, p, n);
	w->used += n;
}

static void wr_u32(struct writer *w, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};

	wr_bytes(w, b, sizeof(b));
}

/* Writes big as an operand: its sign, then its magnitude. */
static void wr_big(struct writer *w, const TEE_BigInt *big)
{
	static const uint8_t zeros[4];
	size_t len = sizeof(octets);

	if (TEE_BigIntConvertToOctetString(octets, &len, big))
		TEE_Panic(TEE_ERROR_GENERIC);
	wr_u32(w, TEE_BigIntCmpS32(big, 0) < 0 ? (uint32_t)-1 : 1);
	wr_u32(w, (uint32_t)len);
	wr_bytes(w, octets, len);
	wr_bytes(w, zeros, ((len + 3) & ~(size_t)3) - len);
}

static size_t words(uint32_t bits)
{
	return TEE_BigIntSizeInU32(bits);
}

/* Loads o into big, an array of room for bits bits. */
static TEE_Result load(TEE_BigInt *big, uint32_t bits, const struct operand *o, bool gp11)
{
	TEE_BigIntInit(big, words(bits));
	if (gp11)
		return __GP11_TEE_BigIntConvertFromOctetString(big, o->bytes, o->len, o->sign);
	return TEE_BigIntConvertFromOctetString(big, o->bytes, o->len, o->sign);
}

struct result {
	uint32_t res;
	uint32_t res2;
	int32_t ival;
	const TEE_BigInt *outs[3];
	size_t nouts;
};

static void init_context(const TEE_BigInt *n, bool gp11)
{
	uint32_t bits = TEE_BigIntGetBitCount(n);

	if (gp11) {
		__GP11_TEE_BigIntInitFMMContext(fmm_ctx, __GP11_TEE_BigIntFMMContextSizeInU32(bits),
						n);
		return;
	}
	if (TEE_BigIntInitFMMContext1(fmm_ctx, TEE_BigIntFMMContextSizeInU32(bits), n))
		TEE_Panic(TEE_ERROR_GENERIC);
}

static void run_fmm(struct result *out, bool gp11)
{
	uint32_t bits = TEE_BigIntGetBitCount(opnd[2]);
	size_t len = gp11 ? __GP11_TEE_BigIntFMMSizeInU32(bits) : TEE_BigIntFMMSizeInU32(bits);

	init_context(opnd[2], gp11);
	for (int i = 0; i < 3; i++) {
		if (gp11)
			__GP11_TEE_BigIntInitFMM(fmm[i], (uint32_t)len);
		else
			TEE_BigIntInitFMM(fmm[i], len);
	}
	TEE_BigIntConvertToFMM(fmm[0], opnd[0], opnd[2], fmm_ctx);
	TEE_BigIntConvertToFMM(fmm[1], opnd[1], opnd[2], fmm_ctx);
	TEE_BigIntComputeFMM(fmm[2], fmm[0], fmm[1], opnd[2], fmm_ctx);
	TEE_BigIntConvertFromFMM(dest[0], fmm[2], opnd[2], fmm_ctx);
	out->outs[out->nouts++] = dest[0];
}

static void run_octet(struct result *out, uint32_t flags, uint32_t arg, uint32_t dst_bits,
		      const struct operand *o)
{
	out->res = load(dest[0], dst_bits, o, flags & TA_ARITH_F_GP11);
	if (out->res)
		return;
	if (flags & TA_ARITH_F_GP11) {
		uint32_t len = arg > sizeof(octets) ? sizeof(octets) : arg;

		out->res2 = __GP11_TEE_BigIntConvertToOctetString(octets, &len, dest[0]);
		out->ival = (int32_t)len;
	} else {
		size_t len = arg > sizeof(octets) ? sizeof(octets) : arg;

		out->res2 = TEE_BigIntConvertToOctetString(octets, &len, dest[0]);
		out->ival = (int32_t)len;
	}
	out->outs[out->nouts++] = dest[0];
}

static void run_egcd(struct result *out, uint32_t flags)
{
	TEE_BigInt *u = (flags & TA_ARITH_F_NULL1) ? NULL : dest[1];
	TEE_BigInt *v = (flags & TA_ARITH_F_NULL2) ? NULL : dest[2];

	TEE_BigIntComputeExtendedGcd(dest[0], u, v, opnd[0], opnd[1]);
	out->outs[out->nouts++] = dest[0];
	if (u)
		out->outs[out->nouts++] = u;
	if (v)
		out->outs[out->nouts++] = v;
}

static void run_div(struct result *out, uint32_t flags, TEE_BigInt *a)
{
	TEE_BigInt *q = (flags & TA_ARITH_F_NULL1) ? NULL : dest[0];
	TEE_BigInt *r = (flags & TA_ARITH_F_NULL2) ? NULL : dest[1];

	TEE_BigIntDiv(q, r, a, opnd[1]);
	if (q)
		out->outs[out->nouts++] = q;
	if (r)
		out->outs[out->nouts++] = r;
}

/*
 * Runs one operation. a is the first operand: o0's own array, or d0 holding
 * o0 when the destination aliases it.
 */
static void run(struct result *out, uint32_t op, uint32_t flags, uint32_t arg, uint32_t dst_bits,
		TEE_BigInt *a)
{
	bool gp11 = flags & TA_ARITH_F_GP11;
	int32_t s32 = 0;

	switch (op) {
	case TA_ARITH_INIT:
		if (gp11)
			__GP11_TEE_BigIntInit(dest[0], (uint32_t)words(dst_bits));
		else
			TEE_BigIntInit(dest[0], words(dst_bits));
		out->ival = (int32_t)TEE_BigIntGetBitCount(dest[0]);
		break;
	case TA_ARITH_FROM_S32:
		TEE_BigIntConvertFromS32(dest[0], (int32_t)arg);
		out->res = TEE_BigIntConvertToS32(&s32, dest[0]);
		out->ival = s32;
		break;
	case TA_ARITH_TO_S32:
		s32 = 0x5a5a5a5a;
		out->res = TEE_BigIntConvertToS32(&s32, a);
		out->ival = s32;
		return;
	case TA_ARITH_CMP:
		out->ival = TEE_BigIntCmp(a, opnd[1]);
		return;
	case TA_ARITH_CMP_S32:
		out->ival = TEE_BigIntCmpS32(a, (int32_t)arg);
		return;
	case TA_ARITH_ADD:
		TEE_BigIntAdd(dest[0], a, opnd[1]);
		break;
	case TA_ARITH_SUB:
		TEE_BigIntSub(dest[0], a, opnd[1]);
		break;
	case TA_ARITH_MUL:
		TEE_BigIntMul(dest[0], a, opnd[1]);
		break;
	case TA_ARITH_SQUARE:
		TEE_BigIntSquare(dest[0], a);
		break;
	case TA_ARITH_NEG:
		TEE_BigIntNeg(dest[0], a);
		break;
	case TA_ARITH_DIV:
		run_div(out, flags, a);
		return;
	case TA_ARITH_MOD:
		TEE_BigIntMod(dest[0], a, opnd[1]);
		break;
	case TA_ARITH_ADDMOD:
		TEE_BigIntAddMod(dest[0], a, opnd[1], opnd[2]);
		break;
	case TA_ARITH_SUBMOD:
		TEE_BigIntSubMod(dest[0], a, opnd[1], opnd[2]);
		break;
	case TA_ARITH_MULMOD:
		TEE_BigIntMulMod(dest[0], a, opnd[1], opnd[2]);
		break;
	case TA_ARITH_SQUAREMOD:
		TEE_BigIntSquareMod(dest[0], a, opnd[1]);
		break;
	case TA_ARITH_INVMOD:
		TEE_BigIntInvMod(dest[0], a, opnd[1]);
		break;
	case TA_ARITH_EXPMOD:
		if (flags & TA_ARITH_F_CONTEXT)
			init_context(opnd[2], gp11);
		out->res = TEE_BigIntExpMod(dest[0], a, opnd[1], opnd[2],
					    (flags & TA_ARITH_F_CONTEXT) ? fmm_ctx : NULL);
		break;
	case TA_ARITH_SHIFT_RIGHT:
		if (gp11)
			__GP11_TEE_BigIntShiftRight(dest[0], a, arg);
		else
			TEE_BigIntShiftRight(dest[0], a, arg);
		break;
	case TA_ARITH_GET_BIT:
		out->ival = TEE_BigIntGetBit(a, arg);
		return;
	case TA_ARITH_SET_BIT:
		out->res = TEE_BigIntSetBit(dest[0], arg, flags & TA_ARITH_F_VALUE);
		break;
	case TA_ARITH_BIT_COUNT:
		out->ival = (int32_t)TEE_BigIntGetBitCount(a);
		return;
	case TA_ARITH_ABS:
		out->res = TEE_BigIntAbs(dest[0], a);
		if (out->res)
			return;
		break;
	case TA_ARITH_ASSIGN:
		out->res = TEE_BigIntAssign(dest[0], a);
		if (out->res)
			return;
		break;
	case TA_ARITH_EGCD:
		run_egcd(out, flags);
		return;
	case TA_ARITH_REL_PRIME:
		out->ival = TEE_BigIntRelativePrime(a, opnd[1]);
		return;
	case TA_ARITH_IS_PRIME:
		out->ival = TEE_BigIntIsProbablePrime(a, arg);
		return;
	case TA_ARITH_FMM:
		run_fmm(out, gp11);
		return;
	default:
		TEE_Panic(TEE_ERROR_NOT_SUPPORTED);
	}
	out->outs[out->nouts++] = dest[0];
}

/* One record: its operands loaded, its destinations initialised, then run. */
static TEE_Result record(struct reader *r, struct writer *w)
{
	struct operand o[3];
	struct result out = {0};
	uint32_t op = 0;
	uint32_t flags = 0;
	uint32_t arg = 0;
	uint32_t dst_bits = 0;
	uint32_t nops = 0;
	TEE_BigInt *a = opnd[0];

	if (!rd_u32(r, &op) || !rd_u32(r, &flags) || !rd_u32(r, &arg) || !rd_u32(r, &dst_bits) ||
	    !rd_u32(r, &nops) || nops > 3 || dst_bits > TA_ARITH_MAX_BITS)
		return TEE_ERROR_BAD_FORMAT;
	for (uint32_t i = 0; i < nops; i++) {
		if (!rd_operand(r, &o[i]))
			return TEE_ERROR_BAD_FORMAT;
		/* OCTET converts its operand itself, into d0. */
		if (op != TA_ARITH_OCTET && load(opnd[i], o[i].len * 8, &o[i], false))
			return TEE_ERROR_BAD_FORMAT;
	}
	for (int i = 0; i < 3; i++)
		TEE_BigIntInit(dest[i], words(dst_bits));
	if (op == TA_ARITH_OCTET) {
		if (nops != 1)
			return TEE_ERROR_BAD_FORMAT;
		run_octet(&out, flags, arg, dst_bits, &o[0]);
	} else {
		if ((flags & TA_ARITH_F_ALIAS) || op == TA_ARITH_SET_BIT) {
			if (!nops || load(dest[0], dst_bits, &o[0], false))
				return TEE_ERROR_BAD_FORMAT;
			a = dest[0];
		}
		run(&out, op, flags, arg, dst_bits, a);
	}
	wr_u32(w, out.res);
	wr_u32(w, out.res2);
	wr_u32(w, (uint32_t)out.ival);
	wr_u32(w, (uint32_t)out.nouts);
	for (size_t i = 0; i < out.nouts; i++)
		wr_big(w, out.outs[i]);
	return TEE_SUCCESS;
}

static TEE_Result batch(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct reader r = {0};
	struct writer w = {0};
	uint32_t done = 0;
	TEE_Result res = TEE_SUCCESS;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	r.p = p[0].memref.buffer;
	r.n = p[0].memref.size;
	w.p = p[1].memref.buffer;
	w.n = p[1].memref.size;
	while (r.n) {
		res = record(&r, &w);
		if (res)
			return res;
		done++;
	}
	p[2].value.a = done;
	if (w.short_buffer)
		return TEE_ERROR_SHORT_BUFFER;
	p[1].memref.size = w.used;
	return TEE_SUCCESS;
}

static void set_s32(TEE_BigInt *big, size_t len, int32_t v)
{
	TEE_BigIntInit(big, len);
	TEE_BigIntConvertFromS32(big, v);
}

/* Each case is a programming error GP makes a panic; none returns. */
static void misuse(uint32_t which)
{
	static uint32_t big[WORDS_MAX + 64];
	uint32_t *x = opnd[0];
	uint32_t *y = opnd[1];
	uint32_t *d = dest[0];

	set_s32(x, words(64), 6);
	set_s32(y, words(64), 9);
	TEE_BigIntInit(d, words(64));
	switch (which) {
	case TA_ARITH_PANIC_INIT_TOO_LARGE:
		TEE_BigIntInit(big, words(TA_ARITH_MAX_BITS + 32));
		break;
	case TA_ARITH_PANIC_INIT_TOO_SMALL:
		TEE_BigIntInit(big, 1);
		break;
	case TA_ARITH_PANIC_UNINITIALIZED:
		memset(big, 0x5a, sizeof(big));
		(void)TEE_BigIntCmpS32(big, 0);
		break;
	case TA_ARITH_PANIC_ADD_OVERFLOW:
		TEE_BigIntInit(x, words(96));
		(void)TEE_BigIntSetBit(x, 95, true);
		TEE_BigIntInit(d, words(32));
		TEE_BigIntAdd(d, x, x);
		break;
	case TA_ARITH_PANIC_MUL_OVERFLOW:
		TEE_BigIntInit(x, words(64));
		(void)TEE_BigIntSetBit(x, 40, true);
		TEE_BigIntInit(d, words(64));
		TEE_BigIntMul(d, x, x);
		break;
	case TA_ARITH_PANIC_DIV_ZERO:
		TEE_BigIntInit(y, words(32));
		TEE_BigIntDiv(d, dest[1], x, y);
		break;
	case TA_ARITH_PANIC_DIV_SAME_DEST:
		TEE_BigIntDiv(d, d, x, y);
		break;
	case TA_ARITH_PANIC_MOD_ZERO:
		TEE_BigIntInit(y, words(32));
		TEE_BigIntMod(d, x, y);
		break;
	case TA_ARITH_PANIC_MOD_ONE:
		set_s32(y, words(32), 1);
		TEE_BigIntMod(d, x, y);
		break;
	case TA_ARITH_PANIC_MOD_NEGATIVE:
		set_s32(y, words(32), -7);
		TEE_BigIntSubMod(d, x, x, y);
		break;
	case TA_ARITH_PANIC_INVMOD_ZERO:
		TEE_BigIntInit(x, words(32));
		TEE_BigIntInvMod(d, x, y);
		break;
	case TA_ARITH_PANIC_INVMOD_NOT_COPRIME:
		TEE_BigIntInvMod(d, x, y);
		break;
	case TA_ARITH_PANIC_EXPMOD_NEGATIVE:
		set_s32(x, words(32), 2);
		set_s32(dest[1], words(32), -3);
		(void)TEE_BigIntExpMod(d, x, dest[1], y, NULL);
		break;
	case TA_ARITH_PANIC_EXPMOD_OTHER_CTX:
		set_s32(dest[1], words(32), 11);
		init_context(dest[1], false);
		(void)TEE_BigIntExpMod(d, x, x, y, fmm_ctx);
		break;
	case TA_ARITH_PANIC_FMM_NO_CTX:
		TEE_BigIntInitFMM(fmm[0], TEE_BigIntFMMSizeInU32(64));
		TEE_BigIntConvertToFMM(fmm[0], x, y, NULL);
		break;
	case TA_ARITH_PANIC_TO_OCTET_NULL_LEN:
		(void)TEE_BigIntConvertToOctetString(octets, NULL, x);
		break;
	case TA_ARITH_PANIC_FROM_S32_NO_ROOM:
		TEE_BigIntInit(d, 2);
		TEE_BigIntConvertFromS32(d, 5);
		break;
	case TA_ARITH_PANIC_SHIFT_OVERFLOW:
		TEE_BigIntInit(x, words(128));
		(void)TEE_BigIntSetBit(x, 127, true);
		TEE_BigIntInit(d, words(64));
		TEE_BigIntShiftRight(d, x, 8);
		break;
	case TA_ARITH_PANIC_EGCD_NULL_GCD:
		TEE_BigIntComputeExtendedGcd(NULL, dest[1], dest[2], x, y);
		break;
	case TA_ARITH_PANIC_FMM_CTX_SMALL:
		(void)TEE_BigIntSetBit(y, 40, true);
		TEE_BigIntInitFMMContext(fmm_ctx, TEE_BigIntFMMContextSizeInU32(8), y);
		break;
	case TA_ARITH_PANIC_TO_S32_NULL:
		(void)TEE_BigIntConvertToS32(NULL, x);
		break;
	default:
		break;
	}
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	(void)ctx;
	switch (cmd) {
	case TA_ARITH_CMD_BATCH:
		return batch(types, params);
	case TA_ARITH_CMD_PANIC:
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		misuse(params[0].value.a);
		return TEE_ERROR_GENERIC;
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
