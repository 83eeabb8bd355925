/* The plugin test TA: tee_invoke_supp_plugin as commands, for xtest 1080-1089. */
#ifndef TA_PLUGIN_H
#define TA_PLUGIN_H

/* 3151995e-fb6a-4c13-8145-b939b6b408b6 */
#define TA_PLUGIN_UUID                                                                             \
	{                                                                                          \
		0x3151995e, 0xfb6a, 0x4c13,                                                        \
		{                                                                                  \
			0x81, 0x45, 0xb9, 0x39, 0xb6, 0xb4, 0x08, 0xb6                             \
		}                                                                                  \
	}

/*
 * tee_invoke_supp_plugin(plugin, cmd, sub_cmd, buf, len, &outlen):
 *   [0] value in: a = cmd, b = sub_cmd
 *   [1] memref inout: buf and len (NONE: NULL and 0)
 *   [2] value inout: in a = TA_PLUGIN_ARG_* flags, b = TA_PLUGIN_TARGET_*;
 *       out a = outlen (TA_PLUGIN_UNTOUCHED when the call left it alone)
 * The result is the call's.
 */
#define TA_PLUGIN_CMD_INVOKE 0
/*
 * The same with a buffer of [0].a bytes of the TA's heap, each i & 0xff,
 * through TEST_PLUGIN_CMD_ADD (sub_cmd 1): [1] value out: a = the bytes that
 * did not come back as i + 1, b = outlen.
 */
#define TA_PLUGIN_CMD_BIG 1

/* [2].a flags */
#define TA_PLUGIN_ARG_EMPTY_BUF 1u /* buf non-NULL, len 0 */
#define TA_PLUGIN_ARG_NULL_BUF 2u  /* buf NULL, len the memref's size */
#define TA_PLUGIN_ARG_NO_OUTLEN 4u /* outlen NULL */
#define TA_PLUGIN_ARG_VIA_PTA                                                                      \
	8u /* through the system pseudo-TA (PTA_SYSTEM_SUPP_PLUGIN_INVOKE)                         \
	    */
/* [2].b: the plugin called */
#define TA_PLUGIN_TARGET_TEST 0	    /* TEST_PLUGIN_UUID */
#define TA_PLUGIN_TARGET_BAD_INIT 1 /* TEST_PLUGIN_BAD_INIT_UUID */
#define TA_PLUGIN_TARGET_NONE 2	    /* a UUID no plugin has */
#define TA_PLUGIN_TARGET_NULL 3	    /* a NULL UUID */

#define TA_PLUGIN_UNTOUCHED 0xdeadbeefu

#define TA_PLUGIN_STACK_SIZE (16 * 1024)
#define TA_PLUGIN_DATA_SIZE (512 * 1024)

#endif
