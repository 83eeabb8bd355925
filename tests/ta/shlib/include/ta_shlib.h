/*
 * The shared-library test TA and its two TA libraries: the TA links "top",
 * which links "base". Each object's constructor appends its id to
 * shlib_trace (defined in the TA), so the order they ran in can be read.
 */
#ifndef TA_SHLIB_H
#define TA_SHLIB_H

#define TA_SHLIB_UUID                                                                              \
	{                                                                                          \
		0x5a1f0b7e, 0x3c2d, 0x4e6f,                                                        \
		{                                                                                  \
			0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x10                             \
		}                                                                                  \
	}
#define TA_SHLIB_TOP_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6f01"
#define TA_SHLIB_BASE_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6f02"
/* Not linked: loaded with dlopen() at run time; it links "base" */
#define TA_SHLIB_DL_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6f03"

#define SHLIB_ID_TA 1
#define SHLIB_ID_TOP 2
#define SHLIB_ID_BASE 3
#define SHLIB_ID_DL 4

/* value[0] in (a, b) -> value[1].a = a + a * b, computed by the libraries */
#define TA_SHLIB_CMD_CALL 0
/* value[0].a = how many constructors ran, .b = their ids, 4 bits each, first lowest */
#define TA_SHLIB_CMD_INIT_ORDER 1
/*
 * dlopen(memref[0]: a NUL-terminated name, or an empty memref for NULL):
 * value[1].a = 1 when a handle came back, .b = what its dlsym("shlib_top_add_mul")
 * gives for (3, 4) (0 without one); memref[2] out = dlerror() when no handle.
 */
#define TA_SHLIB_CMD_DLOPEN 2
/* value[0].a = the modules dl_iterate_phdr visits that swtee mapped from descriptors */
#define TA_SHLIB_CMD_PHDR 3
/*
 * The same with a callback that returns 123 at every visit: value[0].a =
 * those modules visited, .b = what dl_iterate_phdr returned.
 */
#define TA_SHLIB_CMD_PHDR_ALL 4
/*
 * The attestation pseudo-TA's HASH_TA_MEMORY, asked by this TA: memref[0]
 * in the nonce, memref[1] out the signed measure (what the pseudo-TA
 * returns, as it returns it).
 */
#define TA_SHLIB_CMD_ATTEST 5
/*
 * dlopen("dl") with OP-TEE's flags (RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE),
 * then its shlib_dl_twice(value[0].a): value[1].a = the result, .b = the
 * constructor ids so far (as TA_SHLIB_CMD_INIT_ORDER). No library:
 * TEE_ERROR_ITEM_NOT_FOUND.
 */
#define TA_SHLIB_CMD_DL_CALL 6
/* dlopen("dl") and call its shlib_dl_panic(): TEE_Panic(TA_SHLIB_DL_PANIC_CODE) */
#define TA_SHLIB_CMD_DL_PANIC 7
#define TA_SHLIB_DL_PANIC_CODE 0x5d1

#ifndef __ASSEMBLER__
int shlib_top_add_mul(int a, int b);
int shlib_base_mul(int a, int b);
int shlib_dl_twice(int a);
void shlib_dl_panic(void);
#endif

#endif
