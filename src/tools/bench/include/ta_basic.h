/* The "basic" test TA: the commands xtest's 1xxx family drives. */
#ifndef TA_BASIC_H
#define TA_BASIC_H

#define TA_BASIC_UUID                                                                              \
	{                                                                                          \
		0x5a1f0b7e, 0x3c2d, 0x4e6f,                                                        \
		{                                                                                  \
			0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x01                             \
		}                                                                                  \
	}

#define TA_BASIC_CMD_NOP 0
/* value[0].a + value[0].b -> value[1].a; value[1].b = value[0].a ^ value[0].b */
#define TA_BASIC_CMD_ADD 1
/* memref[0] (in) reversed into memref[1] (out); short buffer if too small */
#define TA_BASIC_CMD_REVERSE 2
/* inout memref[0]: every byte incremented */
#define TA_BASIC_CMD_INC_INOUT 3
/* TEE_Panic(value[0].a) */
#define TA_BASIC_CMD_PANIC 4
/* writes through a NULL pointer */
#define TA_BASIC_CMD_CRASH 5
/* unmask cancellation, TEE_Wait(value[0].a ms); value[1].a = result */
#define TA_BASIC_CMD_WAIT 6
/* spins forever, never checking cancellation */
#define TA_BASIC_CMD_HANG 7
/* value[0].a = login, memref[1] (out, 16 bytes) = client identity UUID bytes */
#define TA_BASIC_CMD_IDENTITY 8
/* value[0].a = per-instance counter (incremented), value[0].b = per-session counter */
#define TA_BASIC_CMD_COUNTER 9
/* memref[0] out: returns its size and NULL-ness: value[1].a = (buffer==NULL), .b = size */
#define TA_BASIC_CMD_MEMREF_INFO 10
/* value[0].a = TEE_GetCancellationFlag() after unmasking, busy up to value[0].b ms */
#define TA_BASIC_CMD_POLL_CANCEL 11
/* sets value[0].a = the four param types seen, echoes nothing */
#define TA_BASIC_CMD_TYPES 12

/*
 * TA to TA, with another instance of this TA as the callee:
 * ADD: value[0] in (a, b) -> value[1].a = a + b computed by the callee
 * PASS: memref[0] in and memref[1] out (client memory) passed on to the
 *       callee's REVERSE; value[2].a = the callee's result
 * PANIC: the callee panics; value[1].a = the result, .b = the origin
 * TIMEOUT: the callee waits value[0].a ms, cancelled after value[0].b ms;
 *       value[1].a = the result
 */
#define TA_BASIC_CMD_TA2TA_ADD 13
#define TA_BASIC_CMD_TA2TA_PASS 14
#define TA_BASIC_CMD_TA2TA_PANIC 15
#define TA_BASIC_CMD_TA2TA_TIMEOUT 16
/*
 * The system pseudo-TA: value[2].a is the mode (pta_system_client.h), memref[0]
 * in the extra data or entropy, memref[1] out the key.
 */
#define TA_BASIC_CMD_PTA_SYSTEM 17
/*
 * memref[0] inout, at least one byte: its first byte incremented, nothing
 * else touched (what an invoke carrying a buffer costs, whatever its size).
 */
#define TA_BASIC_CMD_TOUCH 18

#endif
