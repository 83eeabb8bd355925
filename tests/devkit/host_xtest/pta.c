/*
 * The pseudo TAs xtest calls, by the UUIDs of the kit's pta_*.h. Those a
 * client application may open (invoke-tests, stats, secure-storage TA
 * management) open; those swtee lacks must fail to open with
 * TEEC_ERROR_ITEM_NOT_FOUND, which xtest takes as "not on this TEE" and skips; the system pseudo-TA
 * serves TAs only, and refuses a client application with TEEC_ERROR_ACCESS_DENIED.
 */
#include <pta_attestation.h>
#include <pta_invoke_tests.h>
#include <pta_secstor_ta_mgmt.h>
#include <pta_stats.h>
#include <pta_system.h>
#include <stdio.h>
#include <tee_client_api.h>
#include <util.h>

#include "host_xtest.h"

/* The command ids xtest sends, with OP-TEE's values. */
_Static_assert(PTA_INVOKE_TESTS_CMD_FS_HTREE == 6, "invoke_tests");
_Static_assert(PTA_INVOKE_TESTS_CMD_TRANSFER_LIST_TESTS == 12, "invoke_tests");
_Static_assert(PTA_SECSTOR_TA_MGMT_BOOTSTRAP == 0, "secstor");
_Static_assert(STATS_CMD_PRINT_DRIVER_INFO == 5, "stats");
_Static_assert(PTA_ATTESTATION_HASH_TEE_MEMORY == 3, "attestation");
_Static_assert(PTA_SYSTEM_GET_TPM_EVENT_LOG == 12, "system");
_Static_assert(PTA_SYSTEM_MAP_FLAG_EXECUTABLE == 4, "system");
_Static_assert(sizeof(struct pta_stats_ta) == 16 + 8 + sizeof(struct pta_stats_alloc), "stats");

static const struct {
	const char *name;
	TEEC_UUID uuid;
	TEEC_Result expect;
} ptas[] = {
    {"invoke_tests", PTA_INVOKE_TESTS_UUID, TEEC_SUCCESS},
    {"secstor_ta_mgmt", PTA_SECSTOR_TA_MGMT_UUID, TEEC_SUCCESS},
    {"stats", STATS_UUID, TEEC_SUCCESS},
    {"attestation", PTA_ATTESTATION_UUID, TEEC_SUCCESS},
    {"system", PTA_SYSTEM_UUID, TEEC_ERROR_ACCESS_DENIED},
};

int pta_check(void)
{
	TEEC_Context ctx;
	TEEC_Result res = TEEC_InitializeContext(NULL, &ctx);
	int fails = 0;

	if (res != TEEC_SUCCESS) {
		printf("FAIL: pta: TEEC_InitializeContext: 0x%08x\n", res);
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ptas); i++) {
		TEEC_Session sess;
		uint32_t origin = 0;

		res = TEEC_OpenSession(&ctx, &sess, &ptas[i].uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
				       &origin);
		printf("pta %s: 0x%08x\n", ptas[i].name, res);
		if (res == TEEC_SUCCESS)
			TEEC_CloseSession(&sess);
		if (res != ptas[i].expect) {
			printf("FAIL: pta %s: expected 0x%08x\n", ptas[i].name, ptas[i].expect);
			fails++;
		}
	}
	TEEC_FinalizeContext(&ctx);
	return fails;
}
