/*
 * The "arith" test TA: the GP Arithmetical API as a TA sees it, driven by
 * xtest 41xx, which computes what to expect with OpenSSL BN.
 *
 * TA_ARITH_CMD_BATCH runs many operations in one invoke:
 *   memref[0] (in)  records: op:u32 flags:u32 arg:u32 dst_bits:u32 nops:u32,
 *                   then nops operands
 *   memref[1] (out) per record: res:u32 res2:u32 ival:i32 nouts:u32, then
 *                   nouts operands
 *   value[2].a (out) records done
 * An operand is sign:i32 (< 0: negative) len:u32 and len big-endian bytes
 * of the magnitude, padded with zeros to a multiple of 4. Integers are
 * little-endian. The TA loads operand i into an array just large enough for
 * its bytes; destinations have room for dst_bits bits. TEE_ERROR_SHORT_BUFFER
 * when the results do not fit memref[1].
 */
#ifndef TA_ARITH_H
#define TA_ARITH_H

#define TA_ARITH_UUID                                                                              \
	{                                                                                          \
		0xa5541f81, 0xb59a, 0x4827,                                                        \
		{                                                                                  \
			0x83, 0xda, 0x10, 0xcc, 0x9f, 0xba, 0x77, 0xe7                             \
		}                                                                                  \
	}

#define TA_ARITH_CMD_BATCH 0
/* value[0].a (in): a TA_ARITH_PANIC_*; the TA should panic. TEE_ERROR_GENERIC if not. */
#define TA_ARITH_CMD_PANIC 1

/* The largest destination and operand, in bits */
#define TA_ARITH_MAX_BITS 8192

/*
 * Operations. o0..o2 are the operands, d0..d2 the destinations (dst_bits),
 * out: what the result record carries.
 */
enum ta_arith_op {
	TA_ARITH_INIT,	      /* TEE_BigIntInit(d0); out: d0, ival = GetBitCount(d0) */
	TA_ARITH_OCTET,	      /* res = FromOctetString(d0, o0); then res2 = ToOctetString
				 into arg bytes, ival = its length; out: d0 */
	TA_ARITH_FROM_S32,    /* FromS32(d0, (int32_t)arg); res = ToS32(&ival, d0); out: d0 */
	TA_ARITH_TO_S32,      /* res = ToS32(&ival, o0) */
	TA_ARITH_CMP,	      /* ival = Cmp(o0, o1) */
	TA_ARITH_CMP_S32,     /* ival = CmpS32(o0, (int32_t)arg) */
	TA_ARITH_ADD,	      /* Add(d0, o0, o1); out: d0 */
	TA_ARITH_SUB,	      /* Sub(d0, o0, o1); out: d0 */
	TA_ARITH_MUL,	      /* Mul(d0, o0, o1); out: d0 */
	TA_ARITH_SQUARE,      /* Square(d0, o0); out: d0 */
	TA_ARITH_NEG,	      /* Neg(d0, o0); out: d0 */
	TA_ARITH_DIV,	      /* Div(d0, d1, o0, o1); out: d0, d1 (those not NULL) */
	TA_ARITH_MOD,	      /* Mod(d0, o0, o1); out: d0 */
	TA_ARITH_ADDMOD,      /* AddMod(d0, o0, o1, o2); out: d0 */
	TA_ARITH_SUBMOD,      /* SubMod(d0, o0, o1, o2); out: d0 */
	TA_ARITH_MULMOD,      /* MulMod(d0, o0, o1, o2); out: d0 */
	TA_ARITH_SQUAREMOD,   /* SquareMod(d0, o0, o1); out: d0 */
	TA_ARITH_INVMOD,      /* InvMod(d0, o0, o1); out: d0 */
	TA_ARITH_EXPMOD,      /* res = ExpMod(d0, o0, o1, o2, context?); out: d0 */
	TA_ARITH_SHIFT_RIGHT, /* ShiftRight(d0, o0, arg); out: d0 */
	TA_ARITH_GET_BIT,     /* ival = GetBit(o0, arg) */
	TA_ARITH_SET_BIT,     /* d0 = o0; res = SetBit(d0, arg, flags & VALUE); out: d0 */
	TA_ARITH_BIT_COUNT,   /* ival = GetBitCount(o0) */
	TA_ARITH_ABS,	      /* res = Abs(d0, o0); out: d0 when res is 0 */
	TA_ARITH_ASSIGN,      /* res = Assign(d0, o0); out: d0 when res is 0 */
	TA_ARITH_EGCD,	      /* ComputeExtendedGcd(d0, d1, d2, o0, o1); out: d0, d1, d2 */
	TA_ARITH_REL_PRIME,   /* ival = RelativePrime(o0, o1) */
	TA_ARITH_IS_PRIME,    /* ival = IsProbablePrime(o0, arg) */
	TA_ARITH_FMM,	      /* o0 * o1 mod o2 through ToFMM, ComputeFMM, FromFMM; out: d0 */
	TA_ARITH_OP_COUNT,
};

/* flags */
#define TA_ARITH_F_ALIAS 0x1   /* d0 = o0 first, then d0 is the first operand too */
#define TA_ARITH_F_GP11 0x2    /* the __GP11_ variants where they exist */
#define TA_ARITH_F_CONTEXT 0x4 /* EXPMOD with an FMM context */
#define TA_ARITH_F_NULL1 0x8   /* DIV: no quotient; EGCD: no u */
#define TA_ARITH_F_NULL2 0x10  /* DIV: no remainder; EGCD: no v */
#define TA_ARITH_F_VALUE 0x20  /* SET_BIT: set (else clear) */

/* What CMD_PANIC does */
enum ta_arith_panic {
	TA_ARITH_PANIC_INIT_TOO_LARGE,	   /* Init with more than the maximum size */
	TA_ARITH_PANIC_INIT_TOO_SMALL,	   /* Init with len 1: no room for the header */
	TA_ARITH_PANIC_UNINITIALIZED,	   /* CmpS32 on an array never initialised */
	TA_ARITH_PANIC_ADD_OVERFLOW,	   /* Add into a destination too small */
	TA_ARITH_PANIC_MUL_OVERFLOW,	   /* Mul into a destination too small */
	TA_ARITH_PANIC_DIV_ZERO,	   /* Div by zero */
	TA_ARITH_PANIC_DIV_SAME_DEST,	   /* Div with dest_q == dest_r */
	TA_ARITH_PANIC_MOD_ZERO,	   /* Mod by zero */
	TA_ARITH_PANIC_MOD_ONE,		   /* Mod by one */
	TA_ARITH_PANIC_MOD_NEGATIVE,	   /* SubMod with a negative modulus */
	TA_ARITH_PANIC_INVMOD_ZERO,	   /* InvMod of zero */
	TA_ARITH_PANIC_INVMOD_NOT_COPRIME, /* InvMod of 6 modulo 9 */
	TA_ARITH_PANIC_EXPMOD_NEGATIVE,	   /* ExpMod with a negative exponent */
	TA_ARITH_PANIC_EXPMOD_OTHER_CTX,   /* ExpMod with a context of another modulus */
	TA_ARITH_PANIC_FMM_NO_CTX,	   /* ConvertToFMM without a context */
	TA_ARITH_PANIC_TO_OCTET_NULL_LEN,  /* ConvertToOctetString with bufferLen NULL */
	TA_ARITH_PANIC_FROM_S32_NO_ROOM,   /* FromS32(5) into a capacity of 0 */
	TA_ARITH_PANIC_SHIFT_OVERFLOW,	   /* ShiftRight into a destination too small */
	TA_ARITH_PANIC_EGCD_NULL_GCD,	   /* ComputeExtendedGcd with gcd NULL */
	TA_ARITH_PANIC_FMM_CTX_SMALL,	   /* InitFMMContext with len too small for n */
	TA_ARITH_PANIC_TO_S32_NULL,	   /* ConvertToS32 to NULL */
	TA_ARITH_PANIC_COUNT,
};

#endif
