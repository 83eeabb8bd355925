/*
 * The swtee TCTI (libtss2-tcti-swtee.so.0) for programs that link it
 * rather than load it by name through tss2-tctildr: the fTPM TA, reached
 * through libteec. It takes no configuration (NULL or ""). See docs/tpm.md,
 * "The swtee TCTI".
 */
#ifndef TSS2_TCTI_SWTEE_H
#define TSS2_TCTI_SWTEE_H

#include <tss2/tss2_tcti.h>

#ifdef __cplusplus
extern "C" {
#endif

TSS2_RC Tss2_Tcti_Swtee_Init(TSS2_TCTI_CONTEXT *tctiContext, size_t *size, const char *conf);
const TSS2_TCTI_INFO *Tss2_Tcti_Info(void);

#ifdef __cplusplus
}
#endif

#endif
