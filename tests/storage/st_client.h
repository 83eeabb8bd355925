/*
 * The storage test TA from the host, for the crash and tamper tests: one
 * session, objects named by short strings in TEE_STORAGE_PRIVATE.
 */
#ifndef ST_CLIENT_H
#define ST_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <tee_client_api.h>

#define ST_READ 0x1u
#define ST_WRITE 0x2u
#define ST_META 0x4u
#define ST_RWM 0x7u
#define ST_OVERWRITE 0x400u

/* Opens the session to the storage TA; TEEC_SUCCESS or the error. */
TEEC_Result st_init(void);
/* The same with another TA of the same commands (storage2). */
TEEC_Result st_init_ta(const TEEC_UUID *uuid);
/* The origin (TEEC_ORIGIN_*) of the last call's result. */
uint32_t st_origin(void);
void st_fini(void);
TEEC_Result st_open(const char *name, uint32_t flags, uint32_t *h);
TEEC_Result st_close(uint32_t h);
/* Creates (OVERWRITE) name with data and closes it. */
TEEC_Result st_create(const char *name, const void *data, size_t len);
/* Writes data at off of name (created before). */
TEEC_Result st_write_at(const char *name, uint32_t off, const void *data, size_t len);
TEEC_Result st_truncate(const char *name, uint32_t size);
TEEC_Result st_rename(const char *name, const char *to);
TEEC_Result st_delete(const char *name);
/* Reads all of name into buf[cap]; *len its size. */
TEEC_Result st_read_all(const char *name, uint8_t *buf, size_t cap, size_t *len);
/* Counts the objects TEE_STORAGE_PRIVATE holds for the TA. */
TEEC_Result st_count(uint32_t *n);

#endif
