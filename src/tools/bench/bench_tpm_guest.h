/* The tpm group's guest experiment (swtee bench tpm --guest), bench_tpm_guest.c. */
#ifndef SWTEE_BENCH_TPM_GUEST_H
#define SWTEE_BENCH_TPM_GUEST_H

#include <stdio.h>

#include "bench.h"

/*
 * Runs the QEMU guest experiment and reports its cases in the running
 * group, or reports them skipped with the reason when it cannot run here.
 * Returns 0, or -1 after saying why on stderr.
 */
int bench_tpm_guest(struct bench_ctx *ctx);

/* The guest cases among the n at r as a table of their own; nothing when there are none. */
void bench_tpm_guest_table(FILE *f, const struct bench_result *const *r, size_t n);

#endif
