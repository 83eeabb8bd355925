/*
 * adbg: the xtest case framework, as test cases see it.
 *
 * A case file defines its cases and nothing else:
 *
 *	static void xtest_tee_test_1001(ADBG_Case_t *c)
 *	{
 *		Do_ADBG_BeginSubCase(c, "open a session");
 *		if (!ADBG_EXPECT_TEEC_SUCCESS(c, res))
 *			goto out;
 *		...
 *	out:
 *		Do_ADBG_EndSubCase(c, "open a session");
 *	}
 *	ADBG_CASE_DEFINE(regression, 1001, xtest_tee_test_1001, "Core self tests");
 *
 * The case lands in a link-time registry (the "adbg_cases" section), and
 * xtest runs it as "regression_1001". Cases of one suite run in the order
 * of the numeric prefix of their id, then of the whole id ("4006_dsa"
 * before "4006_rsa").
 *
 * Every check macro evaluates each argument once, returns true when the
 * check passed, and on failure prints one line to stdout:
 *	file:line: <expr> has an unexpected value: <got>, expected <expected>
 * Each check counts as one subtest. A failure marks the innermost open
 * subcase (or, outside any subcase, the case itself) and all subcases
 * around it as failed and remembers the first failing file:line.
 *
 * The check state is protected by a lock, so threads started by a case may
 * run checks on its ADBG_Case_t while the case waits for them.
 */
#ifndef XTEST_ADBG_H
#define XTEST_ADBG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct adbg_case ADBG_Case_t;

/* One registered case; written by ADBG_CASE_DEFINE, read by the runner. */
struct adbg_case_def {
	const char *suite; /* "regression", "benchmark" */
	const char *id;	   /* "1001", "4006_rsa" */
	const char *name;  /* "regression_1001": what filters match and reports show */
	const char *title;
	void (*run)(ADBG_Case_t *c);
	const char *file; /* defining source file, for registry diagnostics */
};

/*
 * Registers func as case <suite>_<id>. suite and id are bare tokens
 * (regression, 4006_rsa); func may be defined before or after this line.
 * Only a pointer goes into the section: pointers keep the entries packed
 * whatever alignment the compiler picks for the definition itself.
 */
#define ADBG_CASE_DEFINE(suite_tok, id_tok, func, title_str)                                       \
	static void func(ADBG_Case_t *adbg_case_arg);                                              \
	static const struct adbg_case_def adbg_case_def_##func = {                                 \
	    .suite = #suite_tok,                                                                   \
	    .id = #id_tok,                                                                         \
	    .name = #suite_tok "_" #id_tok,                                                        \
	    .title = (title_str),                                                                  \
	    .run = func,                                                                           \
	    .file = __FILE__,                                                                      \
	};                                                                                         \
	static const struct adbg_case_def *const adbg_case_ptr_##func                              \
	    __attribute__((section("adbg_cases"), used, aligned(sizeof(void *)))) =                \
		&adbg_case_def_##func

/*
 * Subcases. Titles are printf formats; a subcase is named after its parent
 * with a running number ("regression_1001.2", nested "regression_1001.2.1").
 * EndSubCase with a NULL format ends the innermost subcase; with a format,
 * a title that does not match the innermost subcase is reported, and the
 * innermost subcase is ended anyway. Subcases still open when the case
 * function returns are ended by the runner.
 */
void Do_ADBG_BeginSubCase(ADBG_Case_t *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void Do_ADBG_EndSubCase(ADBG_Case_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints one line (a newline is added) to stdout. */
void Do_ADBG_Log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints size bytes of buf as hex, cols bytes per line (16 when cols is 0). */
void Do_ADBG_HexLog(const void *buf, size_t size, size_t cols);

/*
 * Marks the case skipped (why is copied, and shown in the report). A
 * skipped case counts in "test cases were skipped" unless a check in it
 * failed, in which case it is reported FAILED.
 */
void Do_ADBG_Skip(ADBG_Case_t *c, const char *why);

/* The -l level, 0..15. Cases run longer or more exhaustive loops when > 0. */
int xtest_level(void);

/*
 * Attaches a measured figure to the running case, for the --json report
 * ("figures", with the innermost open subcase). Not printed. Ignored when
 * no case is running.
 */
void xtest_report_figure(const char *name, const char *unit, double value);

/*
 * Symbolic names of TEEC_Result and TEEC_ORIGIN_* values (also of the
 * TEE_ERROR_* codes the Client API header carries), or NULL when unknown.
 */
const char *xtest_teec_result_name(uint32_t res);
const char *xtest_teec_origin_name(uint32_t origin);

/* ---- check macros ---- */

/* Integer equality: got == expected (both as intmax_t). */
#define ADBG_EXPECT(c, expected, got)                                                              \
	adbg_expect_value((c), __FILE__, __LINE__, #got, (intmax_t)(expected), (intmax_t)(got))

/* Integer inequality: got != not_expected. */
#define ADBG_EXPECT_NOT(c, not_expected, got)                                                      \
	adbg_expect_not_value((c), __FILE__, __LINE__, #got, (intmax_t)(not_expected),             \
			      (intmax_t)(got))

#define ADBG_EXPECT_TRUE(c, expr) adbg_expect_bool((c), __FILE__, __LINE__, #expr, true, !!(expr))

#define ADBG_EXPECT_BOOLEAN(c, expected, got)                                                      \
	adbg_expect_bool((c), __FILE__, __LINE__, #got, !!(expected), !!(got))

#define ADBG_EXPECT_NOT_NULL(c, got)                                                               \
	adbg_expect_not_null((c), __FILE__, __LINE__, #got, (const void *)(got))

#define ADBG_EXPECT_POINTER(c, expected, got)                                                      \
	adbg_expect_pointer((c), __FILE__, __LINE__, #got, (const void *)(expected),               \
			    (const void *)(got))

/* got is a TEEC_Result; failures show names ("0xffff0006 = TEEC_ERROR_BAD_PARAMETERS"). */
#define ADBG_EXPECT_TEEC_RESULT(c, expected, got)                                                  \
	adbg_expect_teec_result((c), __FILE__, __LINE__, #got, (uint32_t)(expected),               \
				(uint32_t)(got))

#define ADBG_EXPECT_TEEC_SUCCESS(c, got) ADBG_EXPECT_TEEC_RESULT(c, 0 /* TEEC_SUCCESS */, got)

/* got is a returnOrigin value (TEEC_ORIGIN_*). */
#define ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, expected, got)                                            \
	adbg_expect_teec_origin((c), __FILE__, __LINE__, #got, (uint32_t)(expected),               \
				(uint32_t)(got))

/*
 * a op b, where op is one of == != < <= > >=. The operator is passed as
 * text and applied by the framework, so a and b are evaluated once.
 */
#define ADBG_EXPECT_COMPARE_UNSIGNED(c, a, op, b)                                                  \
	adbg_expect_compare_unsigned((c), __FILE__, __LINE__, #a, #op, #b, (uintmax_t)(a),         \
				     (uintmax_t)(b))
#define ADBG_EXPECT_COMPARE_SIGNED(c, a, op, b)                                                    \
	adbg_expect_compare_signed((c), __FILE__, __LINE__, #a, #op, #b, (intmax_t)(a),            \
				   (intmax_t)(b))
#define ADBG_EXPECT_COMPARE_POINTER(c, a, op, b)                                                   \
	adbg_expect_compare_pointer((c), __FILE__, __LINE__, #a, #op, #b, (const void *)(a),       \
				    (const void *)(b))

/*
 * got_len == exp_len and the bytes are equal. On a content mismatch the
 * message names both buffers and the first differing offset, then shows
 * both buffers around it.
 */
#define ADBG_EXPECT_BUFFER(c, exp_buf, exp_len, got_buf, got_len)                                  \
	adbg_expect_buffer((c), __FILE__, __LINE__, #exp_buf, (const void *)(exp_buf),             \
			   (size_t)(exp_len), #got_buf, (const void *)(got_buf), #got_len,         \
			   (size_t)(got_len))

/* The len bytes at a and b are equal (b is the expected content). */
#define ADBG_EXPECT_EQUAL(c, a, b, len)                                                            \
	adbg_expect_buffer((c), __FILE__, __LINE__, #b, (const void *)(b), (size_t)(len), #a,      \
			   (const void *)(a), NULL, (size_t)(len))

/* ---- what the macros call; use the macros ---- */

bool adbg_expect_value(ADBG_Case_t *c, const char *file, int line, const char *expr,
		       intmax_t expected, intmax_t got);
bool adbg_expect_not_value(ADBG_Case_t *c, const char *file, int line, const char *expr,
			   intmax_t not_expected, intmax_t got);
bool adbg_expect_bool(ADBG_Case_t *c, const char *file, int line, const char *expr, bool expected,
		      bool got);
bool adbg_expect_not_null(ADBG_Case_t *c, const char *file, int line, const char *expr,
			  const void *got);
bool adbg_expect_pointer(ADBG_Case_t *c, const char *file, int line, const char *expr,
			 const void *expected, const void *got);
bool adbg_expect_teec_result(ADBG_Case_t *c, const char *file, int line, const char *expr,
			     uint32_t expected, uint32_t got);
bool adbg_expect_teec_origin(ADBG_Case_t *c, const char *file, int line, const char *expr,
			     uint32_t expected, uint32_t got);
bool adbg_expect_compare_unsigned(ADBG_Case_t *c, const char *file, int line, const char *a_expr,
				  const char *op, const char *b_expr, uintmax_t a, uintmax_t b);
bool adbg_expect_compare_signed(ADBG_Case_t *c, const char *file, int line, const char *a_expr,
				const char *op, const char *b_expr, intmax_t a, intmax_t b);
bool adbg_expect_compare_pointer(ADBG_Case_t *c, const char *file, int line, const char *a_expr,
				 const char *op, const char *b_expr, const void *a, const void *b);
/* got_len_expr NULL: the lengths are the same by construction (ADBG_EXPECT_EQUAL). */
bool adbg_expect_buffer(ADBG_Case_t *c, const char *file, int line, const char *exp_expr,
			const void *exp, size_t exp_len, const char *got_expr, const void *got,
			const char *got_len_expr, size_t got_len);

#endif
