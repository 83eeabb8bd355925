/*
 * The check functions behind the ADBG_EXPECT_* macros. Every failure line
 * has the same shape:
 *	file:line: <expr> has an unexpected value: <got>, expected <expected>
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "adbg_int.h"

/* Room for "0x" and 16 hex digits, or a sign and 19 decimal digits. */
#define ADBG_NUM_LEN 24

/*
 * Hex, as 32 bits when the value fits in an int32_t or uint32_t (so an int
 * -1 reads 0xffffffff, as a TEEC code would), as 64 bits otherwise.
 */
static const char *adbg_hex(char buf[ADBG_NUM_LEN], intmax_t v)
{
	if (v >= INT32_MIN && v <= (intmax_t)UINT32_MAX)
		snprintf(buf, ADBG_NUM_LEN, "0x%" PRIx32, (uint32_t)v);
	else
		snprintf(buf, ADBG_NUM_LEN, "0x%jx", (uintmax_t)v);
	return buf;
}

static void adbg_fail_line(const char *file, int line, const char *expr, const char *got,
			   const char *expected)
{
	Do_ADBG_Log("%s:%d: %s has an unexpected value: %s, expected %s", adbg_basename(file), line,
		    expr, got, expected);
}

bool adbg_expect_value(ADBG_Case_t *c, const char *file, int line, const char *expr,
		       intmax_t expected, intmax_t got)
{
	char g[ADBG_NUM_LEN];
	char e[ADBG_NUM_LEN];

	if (adbg_case_record(c, file, line, got == expected))
		return true;
	adbg_fail_line(file, line, expr, adbg_hex(g, got), adbg_hex(e, expected));
	return false;
}

bool adbg_expect_not_value(ADBG_Case_t *c, const char *file, int line, const char *expr,
			   intmax_t not_expected, intmax_t got)
{
	char g[ADBG_NUM_LEN];
	char e[ADBG_NUM_LEN + 8];
	char n[ADBG_NUM_LEN];

	if (adbg_case_record(c, file, line, got != not_expected))
		return true;
	snprintf(e, sizeof(e), "not %s", adbg_hex(n, not_expected));
	adbg_fail_line(file, line, expr, adbg_hex(g, got), e);
	return false;
}

bool adbg_expect_bool(ADBG_Case_t *c, const char *file, int line, const char *expr, bool expected,
		      bool got)
{
	if (adbg_case_record(c, file, line, got == expected))
		return true;
	adbg_fail_line(file, line, expr, got ? "0x1 = true" : "0x0 = false",
		       expected ? "0x1 = true" : "0x0 = false");
	return false;
}

bool adbg_expect_not_null(ADBG_Case_t *c, const char *file, int line, const char *expr,
			  const void *got)
{
	if (adbg_case_record(c, file, line, got != NULL))
		return true;
	adbg_fail_line(file, line, expr, "0x0", "a non-NULL pointer");
	return false;
}

static const char *adbg_ptr(char buf[ADBG_NUM_LEN], const void *p)
{
	snprintf(buf, ADBG_NUM_LEN, "0x%" PRIxPTR, (uintptr_t)p);
	return buf;
}

bool adbg_expect_pointer(ADBG_Case_t *c, const char *file, int line, const char *expr,
			 const void *expected, const void *got)
{
	char g[ADBG_NUM_LEN];
	char e[ADBG_NUM_LEN];

	if (adbg_case_record(c, file, line, got == expected))
		return true;
	adbg_fail_line(file, line, expr, adbg_ptr(g, got), adbg_ptr(e, expected));
	return false;
}

enum adbg_op {
	ADBG_OP_EQ,
	ADBG_OP_NE,
	ADBG_OP_LT,
	ADBG_OP_LE,
	ADBG_OP_GT,
	ADBG_OP_GE,
	ADBG_OP_UNKNOWN,
};

static enum adbg_op adbg_parse_op(const char *op)
{
	static const char *const ops[] = {
	    [ADBG_OP_EQ] = "==", [ADBG_OP_NE] = "!=", [ADBG_OP_LT] = "<",
	    [ADBG_OP_LE] = "<=", [ADBG_OP_GT] = ">",  [ADBG_OP_GE] = ">=",
	};
	size_t i = 0;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(op, ops[i]) == 0)
			return (enum adbg_op)i;
	return ADBG_OP_UNKNOWN;
}

/* cmp is <0, 0 or >0 as a is below, equal to or above b. */
static bool adbg_op_holds(enum adbg_op op, int cmp)
{
	switch (op) {
	case ADBG_OP_EQ:
		return cmp == 0;
	case ADBG_OP_NE:
		return cmp != 0;
	case ADBG_OP_LT:
		return cmp < 0;
	case ADBG_OP_LE:
		return cmp <= 0;
	case ADBG_OP_GT:
		return cmp > 0;
	case ADBG_OP_GE:
		return cmp >= 0;
	case ADBG_OP_UNKNOWN:
		break;
	}
	return false;
}

/* The shared tail of the three compare checks; a and b are already formatted. */
static bool adbg_compare(ADBG_Case_t *c, const char *file, int line, const char *a_expr,
			 const char *op_str, const char *b_expr, int cmp, const char *a,
			 const char *b)
{
	enum adbg_op op = adbg_parse_op(op_str);
	bool literal = strcmp(b, b_expr) == 0;

	if (op == ADBG_OP_UNKNOWN) {
		adbg_case_record(c, file, line, false);
		Do_ADBG_Log("%s:%d: %s %s %s: unknown comparison operator \"%s\"",
			    adbg_basename(file), line, a_expr, op_str, b_expr, op_str);
		return false;
	}
	if (adbg_case_record(c, file, line, adbg_op_holds(op, cmp)))
		return true;
	/* "n has an unexpected value: 0x20, expected <= 0x10 (max_len)" */
	Do_ADBG_Log("%s:%d: %s has an unexpected value: %s, expected %s %s%s%s%s",
		    adbg_basename(file), line, a_expr, a, op_str, b, literal ? "" : " (",
		    literal ? "" : b_expr, literal ? "" : ")");
	return false;
}

bool adbg_expect_compare_unsigned(ADBG_Case_t *c, const char *file, int line, const char *a_expr,
				  const char *op, const char *b_expr, uintmax_t a, uintmax_t b)
{
	char as[ADBG_NUM_LEN];
	char bs[ADBG_NUM_LEN];

	snprintf(as, sizeof(as), "0x%jx", a);
	snprintf(bs, sizeof(bs), "0x%jx", b);
	return adbg_compare(c, file, line, a_expr, op, b_expr, (a > b) - (a < b), as, bs);
}

bool adbg_expect_compare_signed(ADBG_Case_t *c, const char *file, int line, const char *a_expr,
				const char *op, const char *b_expr, intmax_t a, intmax_t b)
{
	char as[ADBG_NUM_LEN];
	char bs[ADBG_NUM_LEN];

	snprintf(as, sizeof(as), "%jd", a);
	snprintf(bs, sizeof(bs), "%jd", b);
	return adbg_compare(c, file, line, a_expr, op, b_expr, (a > b) - (a < b), as, bs);
}

bool adbg_expect_compare_pointer(ADBG_Case_t *c, const char *file, int line, const char *a_expr,
				 const char *op, const char *b_expr, const void *a, const void *b)
{
	char as[ADBG_NUM_LEN];
	char bs[ADBG_NUM_LEN];
	uintptr_t ua = (uintptr_t)a;
	uintptr_t ub = (uintptr_t)b;

	return adbg_compare(c, file, line, a_expr, op, b_expr, (ua > ub) - (ua < ub),
			    adbg_ptr(as, a), adbg_ptr(bs, b));
}

/* Shows up to 32 bytes of buf around off, from the 16-byte line holding off. */
static void adbg_show_window(const char *what, const unsigned char *buf, size_t len, size_t off)
{
	char text[32 * 3 + 1] = "";
	size_t start = off & ~(size_t)15;
	size_t n = len - start < 32 ? len - start : 32;
	size_t i = 0;

	for (i = 0; i < n; i++)
		snprintf(text + 3 * i, sizeof(text) - 3 * i, "%02x ", buf[start + i]);
	if (n)
		text[3 * n - 1] = '\0';
	Do_ADBG_Log("  %s[0x%zx..]: %s", what, start, text);
}

bool adbg_expect_buffer(ADBG_Case_t *c, const char *file, int line, const char *exp_expr,
			const void *exp, size_t exp_len, const char *got_expr, const void *got,
			const char *got_len_expr, size_t got_len)
{
	const unsigned char *e = exp;
	const unsigned char *g = got;
	size_t off = 0;

	if (got_len != exp_len) {
		adbg_case_record(c, file, line, false);
		Do_ADBG_Log(
		    "%s:%d: %s has an unexpected value: 0x%zx, expected 0x%zx (length of %s)",
		    adbg_basename(file), line, got_len_expr ? got_len_expr : "length", got_len,
		    exp_len, exp_expr);
		return false;
	}
	if (exp_len && (!e || !g)) {
		adbg_case_record(c, file, line, false);
		Do_ADBG_Log(
		    "%s:%d: %s has an unexpected value: 0x0, expected a buffer of 0x%zx bytes",
		    adbg_basename(file), line, g ? exp_expr : got_expr, exp_len);
		return false;
	}
	while (off < exp_len && e[off] == g[off])
		off++;
	if (adbg_case_record(c, file, line, off == exp_len))
		return true;

	Do_ADBG_Log(
	    "%s:%d: %s has an unexpected value at offset 0x%zx: 0x%02x, expected 0x%02x (%s)",
	    adbg_basename(file), line, got_expr, off, g[off], e[off], exp_expr);
	adbg_show_window("got     ", g, exp_len, off);
	adbg_show_window("expected", e, exp_len, off);
	return false;
}
