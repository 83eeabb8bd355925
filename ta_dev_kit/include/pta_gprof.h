/*
 * The UUID and command ids of OP-TEE's gprof pseudo TA, through which a TA
 * built with -pg sends its profile to tee-supplicant and samples its
 * program counter. swtee has no such pseudo TA (a session to this UUID
 * fails with TEE_ERROR_ITEM_NOT_FOUND): a TA runs as a host process, and
 * the host's profilers (perf, gprof through `swtee run` with a debug TA)
 * profile it. The values are OP-TEE's, for code that names them.
 */
#ifndef PTA_GPROF_H
#define PTA_GPROF_H

#define PTA_GPROF_UUID                                                                             \
	{                                                                                          \
		0x2f6e0d48, 0xc574, 0x426d,                                                        \
		{                                                                                  \
			0x82, 0x4e, 0x40, 0x19, 0x8c, 0xde, 0x5c, 0xac                             \
		}                                                                                  \
	}

/* value[0].a in/out: the file's id (0: a new one); memref[1] input: bytes to append */
#define PTA_GPROF_SEND 0
/* memref[0] in/out: the sample buffer; value[1] input: a = the lowest PC, b = the scale */
#define PTA_GPROF_START_PC_SAMPLING 1
/* value[0].a output: the sampling frequency */
#define PTA_GPROF_STOP_PC_SAMPLING 2

#endif
