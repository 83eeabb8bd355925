/*
 * The UUID and ids of OP-TEE's APDU pseudo TA, which passes raw ISO 7816
 * command frames to a secure element and returns its answer; the case ids
 * tell it the frame's ISO 7816-4 case (short or extended length), when the
 * caller knows it. swtee drives no secure element and has no such pseudo
 * TA: a session to this UUID fails with TEE_ERROR_ITEM_NOT_FOUND.
 */
#ifndef PTA_APDU_H
#define PTA_APDU_H

#define PTA_APDU_UUID                                                                              \
	{                                                                                          \
		0x3f3eb880, 0x3639, 0x11ec,                                                        \
		{                                                                                  \
			0x9b, 0x9d, 0x0f, 0x3f, 0xc9, 0x46, 0x8f, 0x50                             \
		}                                                                                  \
	}

/* value[0].a: a PTA_APDU_TXRX_CASE_*; memref[1] the header, [2] the request, [3] the answer */
#define PTA_CMD_TXRX_APDU_RAW_FRAME 0

#define PTA_APDU_TXRX_CASE_NO_HINT 0
#define PTA_APDU_TXRX_CASE_1 1
#define PTA_APDU_TXRX_CASE_2 2
#define PTA_APDU_TXRX_CASE_2E 3
#define PTA_APDU_TXRX_CASE_3 4
#define PTA_APDU_TXRX_CASE_3E 5
#define PTA_APDU_TXRX_CASE_4 6
#define PTA_APDU_TXRX_CASE_4E 7

#endif
