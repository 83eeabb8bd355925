/*
 * The single-instance test TAs. One source, four TAs that differ only in
 * their flags: sims (single instance, multi session), single (single
 * instance, one session at a time), keepalive (sims that outlives its
 * sessions) and create_fail (TA_CreateEntryPoint fails).
 */
#ifndef TA_SIMS_H
#define TA_SIMS_H

#define TA_SIMS_UUID                                                                               \
	{                                                                                          \
		0x5a1f0b7e, 0x3c2d, 0x4e6f,                                                        \
		{                                                                                  \
			0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x02                             \
		}                                                                                  \
	}
#define TA_SINGLE_UUID                                                                             \
	{                                                                                          \
		0x5a1f0b7e, 0x3c2d, 0x4e6f,                                                        \
		{                                                                                  \
			0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x03                             \
		}                                                                                  \
	}
#define TA_KEEPALIVE_UUID                                                                          \
	{                                                                                          \
		0x5a1f0b7e, 0x3c2d, 0x4e6f,                                                        \
		{                                                                                  \
			0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x04                             \
		}                                                                                  \
	}
#define TA_CREATE_FAIL_UUID                                                                        \
	{                                                                                          \
		0x5a1f0b7e, 0x3c2d, 0x4e6f,                                                        \
		{                                                                                  \
			0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x05                             \
		}                                                                                  \
	}

/* value[0].a = ++instance counter; value[0].b = open sessions */
#define TA_SIMS_CMD_COUNTER 0
/* TEE_Panic(value[0].a) */
#define TA_SIMS_CMD_PANIC 1
/* value[0].a = sessions closed so far by TA_CloseSessionEntryPoint */
#define TA_SIMS_CMD_CLOSED 2
/* value[0].a = the instance's pid-independent token (set at create) */
#define TA_SIMS_CMD_TOKEN 3
/* spin until cancelled (unmasked), then return TEE_ERROR_CANCEL */
#define TA_SIMS_CMD_SPIN_CANCEL 4

/*
 * memref[0] in: a TA UUID (16 bytes, TEE_UUID layout). Opens a session to
 * it and asks it (TA_SIMS_CMD_OPEN_TO) to open one back to this TA;
 * value[1].a = the result of that inner open, value[1].b = of the outer.
 */
#define TA_SIMS_CMD_CALL_BACK 5
/* memref[0] in: a TA UUID; value[1].a = the result of opening a session to it */
#define TA_SIMS_CMD_OPEN_TO 6

#define TA_CREATE_FAIL_CODE 0xfff0c0deU

#endif
