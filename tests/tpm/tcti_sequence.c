/*
 * The swtee TCTI's contract, called directly as ESYS calls it: sizes,
 * sequence, malformed commands and contexts get the TSS2 error tpm2-tss
 * defines, a command the TPM refuses comes back as the TPM's own answer,
 * and a finalized context lets the next program in. Run under swtee run,
 * with no swtee-tpm holding the fTPM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tss2_tcti_swtee.h>

static int fails;

static void expect(const char *what, TSS2_RC want, TSS2_RC got)
{
	if (want == got) {
		printf("ok   %s\n", what);
		return;
	}
	printf("FAIL %s: expected 0x%x, got 0x%x\n", what, want, got);
	fails++;
}

static TSS2_TCTI_CONTEXT *open_tcti(void)
{
	size_t size = 0;
	TSS2_TCTI_CONTEXT *t = NULL;

	expect("init: the size a context needs", TSS2_RC_SUCCESS,
	       Tss2_Tcti_Swtee_Init(NULL, &size, NULL));
	t = calloc(1, size);
	if (!t)
		exit(2);
	size--;
	expect("init: a context one byte short", TSS2_TCTI_RC_INSUFFICIENT_BUFFER,
	       Tss2_Tcti_Swtee_Init(t, &size, NULL));
	size++;
	expect("init: a configuration it does not take", TSS2_TCTI_RC_BAD_VALUE,
	       Tss2_Tcti_Swtee_Init(t, &size, "socket=/nowhere"));
	expect("init", TSS2_RC_SUCCESS, Tss2_Tcti_Swtee_Init(t, &size, ""));
	return t;
}

int main(void)
{
	/* TPM2_GetRandom(8): tag 0x8001, size 12, code 0x17b, bytesRequested 8. */
	uint8_t getrandom[12] = {0x80, 0x01, 0, 0, 0, 12, 0, 0, 0x01, 0x7b, 0, 8};
	/* A command code no TPM has. */
	uint8_t bogus[10] = {0x80, 0x01, 0, 0, 0, 10, 0x20, 0, 0, 0};
	uint8_t big[4097] = {0x80, 0x01, 0, 0, 0x10, 0x01};
	uint8_t rsp[64] = {0};
	size_t n = 0;
	TSS2_TCTI_CONTEXT *t = open_tcti();
	uint64_t magic = TSS2_TCTI_MAGIC(t);

	n = sizeof(rsp);
	expect("receive before any transmit", TSS2_TCTI_RC_BAD_SEQUENCE,
	       Tss2_Tcti_Receive(t, &n, rsp, TSS2_TCTI_TIMEOUT_BLOCK));
	getrandom[5] = 13;
	expect("a command whose header says another size", TSS2_TCTI_RC_BAD_VALUE,
	       Tss2_Tcti_Transmit(t, sizeof(getrandom), getrandom));
	getrandom[5] = 12;
	expect("a command shorter than a header", TSS2_TCTI_RC_BAD_VALUE,
	       Tss2_Tcti_Transmit(t, 6, getrandom));
	expect("a command over 4096 bytes", TSS2_TCTI_RC_BAD_VALUE,
	       Tss2_Tcti_Transmit(t, sizeof(big), big));
	expect("locality 5", TSS2_TCTI_RC_BAD_VALUE, Tss2_Tcti_SetLocality(t, 5));
	expect("locality 0", TSS2_RC_SUCCESS, Tss2_Tcti_SetLocality(t, 0));
	expect("GetRandom(8)", TSS2_RC_SUCCESS,
	       Tss2_Tcti_Transmit(t, sizeof(getrandom), getrandom));
	expect("a second command before the response is taken", TSS2_TCTI_RC_BAD_SEQUENCE,
	       Tss2_Tcti_Transmit(t, sizeof(getrandom), getrandom));
	expect("a locality change before the response is taken", TSS2_TCTI_RC_BAD_SEQUENCE,
	       Tss2_Tcti_SetLocality(t, 1));
	n = 0;
	expect("the response's size (NULL buffer)", TSS2_RC_SUCCESS,
	       Tss2_Tcti_Receive(t, &n, NULL, TSS2_TCTI_TIMEOUT_BLOCK));
	expect("that size is GetRandom's: header, TPM2B of 8", 10 + 2 + 8, n);
	n = 11;
	expect("a response buffer too small", TSS2_TCTI_RC_INSUFFICIENT_BUFFER,
	       Tss2_Tcti_Receive(t, &n, rsp, TSS2_TCTI_TIMEOUT_BLOCK));
	expect("which says the size it needs", 20, n);
	n = sizeof(rsp);
	expect("receive", TSS2_RC_SUCCESS, Tss2_Tcti_Receive(t, &n, rsp, TSS2_TCTI_TIMEOUT_BLOCK));
	expect("the response is TPM_RC_SUCCESS", 0,
	       (TSS2_RC)(rsp[6] << 24 | rsp[7] << 16 | rsp[8] << 8 | rsp[9]));
	n = sizeof(rsp);
	expect("a second receive", TSS2_TCTI_RC_BAD_SEQUENCE,
	       Tss2_Tcti_Receive(t, &n, rsp, TSS2_TCTI_TIMEOUT_BLOCK));
	expect("an unknown command code: sent", TSS2_RC_SUCCESS,
	       Tss2_Tcti_Transmit(t, sizeof(bogus), bogus));
	n = sizeof(rsp);
	expect("and answered", TSS2_RC_SUCCESS,
	       Tss2_Tcti_Receive(t, &n, rsp, TSS2_TCTI_TIMEOUT_BLOCK));
	expect("by the TPM, TPM_RC_COMMAND_CODE", 0x143,
	       (TSS2_RC)(rsp[6] << 24 | rsp[7] << 16 | rsp[8] << 8 | rsp[9]));
	expect("cancel", TSS2_TCTI_RC_NOT_IMPLEMENTED, Tss2_Tcti_Cancel(t));
	TSS2_TCTI_MAGIC(t) = magic ^ 1;
	expect("a context that is not the TCTI's", TSS2_TCTI_RC_BAD_CONTEXT,
	       Tss2_Tcti_Transmit(t, sizeof(getrandom), getrandom));
	TSS2_TCTI_MAGIC(t) = magic;
	Tss2_Tcti_Finalize(t);
	free(t);
	/* The TA's one session is free again: the next program gets it. */
	t = open_tcti();
	expect("after the first finalized: GetRandom(8)", TSS2_RC_SUCCESS,
	       Tss2_Tcti_Transmit(t, sizeof(getrandom), getrandom));
	Tss2_Tcti_Finalize(t);
	free(t);
	printf("%d failed\n", fails);
	return fails ? 1 : 0;
}
