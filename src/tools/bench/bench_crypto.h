/*
 * swtee bench group "crypto", split by what each file measures:
 *	bench_crypto.c		the group: hashes and ciphers through the
 *				crypto_perf TA against libcrypto in-process,
 *				the per-call overhead, the table
 *	bench_crypto_ecdsa.c	ECDSA P-256 sign and verify, both ways
 *	bench_crypto_tee.c	a private TEE with the CPU's AES and SHA
 *				instructions masked (the "accelerator off" rows)
 */
#ifndef SWTEE_BENCH_CRYPTO_H
#define SWTEE_BENCH_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <tee_client_api.h>

#include "bench.h"

/* Prints a failed TEEC call of the crypto group to stderr, with a hint for a missing TA. */
void bench_crypto_teec_error(const char *what, TEEC_Result res, uint32_t origin);

/* Opens a session to the crypto_perf TA on teec; failures are printed. */
TEEC_Result bench_crypto_open(TEEC_Context *teec, TEEC_Session *sess);

/* ---- ECDSA P-256 (bench_crypto_ecdsa.c) ---- */

/*
 * Measures ECDSA P-256 sign and verify of a SHA-256 digest through the TA
 * against libcrypto, and reports "ecdsa-p256/sign" and "ecdsa-p256/verify"
 * in operations per second, or as skipped (with the reason) when the TEE
 * cannot do ECDSA P-256. Returns 0, or -1 after printing why.
 */
int bench_crypto_ecdsa_run(struct bench_ctx *ctx);

/* ---- the accelerator-off TEE (bench_crypto_tee.c) ---- */

/*
 * A private TEE ("swtee run" with a state directory of its own) whose
 * swteed, and so the zygote every TA instance is forked from, starts with
 * OpenSSL's CPU capability mask clearing the AES, carry-less multiply and
 * SHA instructions. libcrypto reads the mask once, when the zygote loads
 * it: setting it later, or in the client, changes nothing in a TA.
 */
struct bench_crypto_tee {
	pid_t pid;	 /* "swtee run" */
	int ctl;	 /* its command's stdin: closing it ends the TEE */
	char state[256]; /* the temporary state directory */
	TEEC_Context teec;
	bool teec_open;
};

/*
 * The capability mask for this CPU as "NAME=VALUE" for the environment,
 * or NULL when none is known (then *why says so).
 */
const char *bench_crypto_tee_mask(const char **why);

/*
 * Starts the TEE and connects t->teec to it. Returns 0, or -1 with the
 * reason in why (why_len bytes) and nothing left running.
 */
int bench_crypto_tee_start(struct bench_crypto_tee *t, char *why, size_t why_len);

/* Disconnects and stops the TEE, and removes its state; accepts one never started. */
void bench_crypto_tee_stop(struct bench_crypto_tee *t);

#endif
