#ifndef TA_FEATURES_H
#define TA_FEATURES_H

/* 6b0e2f4e-5a3c-4d1b-9e7f-0c1d2e3f4a5b */
/* clang-format off */
#define TA_FEATURES_UUID \
	{ 0x6b0e2f4e, 0x5a3c, 0x4d1b, { 0x9e, 0x7f, 0x0c, 0x1d, 0x2e, 0x3f, 0x4a, 0x5b } }
/* clang-format on */

/*
 * value[0] output: a = TOP_* bits seen compiling features_ta.c,
 *                  b = SUB_* bits seen compiling sub/sub.c
 * value[1] output: a = featlib_magic(), b = TRACE_LEVEL
 * Also logs one line at each trace level.
 */
#define TA_FEATURES_CMD_REPORT 0

#define TOP_CFLAGS_Y 0x01	/* cflags-y of ./sub.mk */
#define TOP_CFLAGS_FILE 0x02	/* cflags-features_ta.c-y */
#define TOP_CFLAGS_REMOVED 0x04 /* cflags-remove-features_ta.c-y took out -D__SWTEE__=1 */
#define TOP_NO_SUB_FLAGS 0x08	/* sub/sub.mk's cflags-y stay there */
#define TOP_CFG_DEFINE 0x10	/* CFG_FEATURE_TEST=y became -DCFG_FEATURE_TEST=1 */
#define TOP_CFG_NUMBER 0x20	/* CFG_FEATURE_NUMBER=42 became -DCFG_FEATURE_NUMBER=42 */
#define TOP_ALL 0x3f

#define SUB_CFLAGS_Y 0x01     /* cflags-y of sub/sub.mk */
#define SUB_NO_TOP_FLAGS 0x02 /* ./sub.mk's cflags-y stay there */
#define SUB_KIT_FLAGS 0x04    /* the kit's -D__SWTEE__=1, removed for another file only */
#define SUB_INCDIRS_Y 0x08    /* incdirs-y of sub/sub.mk */
#define SUB_ALL 0x0f

#endif
