/*
 * Storage requests the hostile TA forges on its own channel, through the
 * runtime's functions (the TA host exports them as it exports the GP API,
 * so any TA can call them): writes that claim to come from the TA heap the
 * core maps, but lie outside it, and a storage request that hands the core
 * a heap it could shrink under the core's feet.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <tee_internal_api.h>

#include "buf.h"
#include "forge_storage.h"
#include "msg.h"
#include "ta_hostile.h"

#define CHUNK (64u * 1024)

/* The runtime's own (src/ta_runtime), not the GP API's. */
TEE_Result stor_call(const void *req, size_t len, uint8_t *rsp, size_t cap, struct buf_reader *r);
void rt_arena_range(uintptr_t *start, uintptr_t *end);
ssize_t rt_ctl_call_fd(const void *req, size_t len, int give, uint32_t rsp_type, uint8_t *rsp,
		       size_t cap, struct msg_fds *fds);

static TEE_Result forged_write(uint32_t handle, uint32_t len, uint32_t flags, uint64_t from)
{
	uint8_t out[32];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_WRITE);
	buf_put_u32(&w, handle);
	buf_put_u64(&w, 0);
	buf_put_u32(&w, len);
	buf_put_u32(&w, flags);
	buf_put_u64(&w, from);
	return stor_call(out, buf_written(&w), in, sizeof(in), &r);
}

/*
 * p[1].value.a says how far it got: 1 made the object, 2 had a heap write
 * taken, 3 had every forged one refused, 4 read back what the good one wrote.
 */
TEE_Result hostile_forge_heap_writes(TEE_Param p[TEE_NUM_PARAMS])
{
	static const char id[] = "forged";
	const uint32_t flags =
	    TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_OVERWRITE;
	TEE_ObjectHandle o = TEE_HANDLE_NULL;
	uint8_t *data = TEE_Malloc(CHUNK, TEE_MALLOC_FILL_ZERO);
	uint8_t *back = TEE_Malloc(CHUNK, TEE_MALLOC_FILL_ZERO);
	uintptr_t start = 0;
	uintptr_t end = 0;
	uint64_t from = 0;
	size_t n = 0;
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;

	p[1].value.a = 0;
	if (!data || !back)
		goto out;
	for (uint32_t i = 0; i < CHUNK; i++)
		data[i] = (uint8_t)(i * 7 + 1);
	rt_arena_range(&start, &end);
	from = (uintptr_t)data - start;
	/* The first object of a new channel: the core's handle 1. */
	res = TEE_CreatePersistentObject(TEE_STORAGE_PRIVATE, id, sizeof(id), flags,
					 TEE_HANDLE_NULL, NULL, 0, &o);
	if (res)
		goto out;
	p[1].value.a = 1;
	res = forged_write(1, CHUNK, PROTO_STOR_WRITE_HEAP, from);
	if (res)
		goto out;
	p[1].value.a = 2;
	{
		const struct {
			uint32_t len;
			uint32_t flags;
			uint64_t from;
		} bad[] = {
		    {CHUNK, PROTO_STOR_WRITE_HEAP, (uint64_t)(end - start) + 2 * CHUNK},
		    {4096, PROTO_STOR_WRITE_HEAP, UINT64_MAX - 4095},
		    /* Starts inside, ends past the end, whatever TA_DATA_SIZE is. */
		    {2 * CHUNK, PROTO_STOR_WRITE_HEAP, (uint64_t)(end - start) - CHUNK},
		    {CHUNK, PROTO_STOR_WRITE_HEAP | 8, from},
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			res = forged_write(1, bad[i].len, bad[i].flags, bad[i].from);
			if (res != TEE_ERROR_BAD_PARAMETERS) {
				res = TEE_ERROR_SECURITY;
				goto out;
			}
		}
	}
	p[1].value.a = 3;
	/* What the core holds is what the one good write brought. */
	TEE_CloseObject(o);
	o = TEE_HANDLE_NULL;
	res = TEE_OpenPersistentObject(TEE_STORAGE_PRIVATE, id, sizeof(id),
				       TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META,
				       &o);
	if (!res)
		res = TEE_ReadObjectData(o, back, CHUNK, &n);
	if (!res && (n != CHUNK || memcmp(back, data, CHUNK)))
		res = TEE_ERROR_CORRUPT_OBJECT;
	if (!res)
		p[1].value.a = 4;
out:
	if (o != TEE_HANDLE_NULL)
		TEE_CloseAndDeletePersistentObject1(o);
	TEE_Free(data);
	TEE_Free(back);
	return res;
}

/* Asks for a storage channel with a heap that is not sealed: the core ends the instance. */
void hostile_unsealed_heap(void)
{
	uint8_t out[4];
	uint8_t in[16];
	struct buf_writer w;
	struct msg_fds fds;
	int fd = memfd_create("hostile-heap", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, 1024 * 1024))
		return;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_STORAGE);
	(void)rt_ctl_call_fd(out, buf_written(&w), fd, MSG_CTL_STORAGE_RSP, in, sizeof(in), &fds);
	close(fd);
}

/* Asks the core for a 64-byte TA-unique key: the core ends the instance. */
TEE_Result hostile_forge_derive(void)
{
	uint8_t out[16];
	uint8_t in[128];
	struct buf_writer w;
	struct msg_fds fds;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_DERIVE_KEY);
	buf_put_u32(&w, 64);
	buf_put_u32(&w, 0);
	(void)rt_ctl_call_fd(out, buf_written(&w), -1, MSG_CTL_DERIVE_KEY_RSP, in, sizeof(in),
			     &fds);
	return TEE_ERROR_GENERIC;
}

/* Asks the core for the stats pseudo-TA's list of TAs: the core ends the instance. */
TEE_Result hostile_forge_stats(void)
{
	static const uint32_t req = MSG_CTL_STATS;
	uint8_t in[64];
	struct msg_fds fds;

	(void)rt_ctl_call_fd(&req, sizeof(req), -1, MSG_CTL_STATS_RSP, in, sizeof(in), &fds);
	return TEE_ERROR_GENERIC;
}

/* Asks the core, as the attestation pseudo-TA would, for a TA's measure: the core ends the
 * instance. */
TEE_Result hostile_forge_attest(uint32_t sid)
{
	uint8_t out[12];
	uint8_t in[64];
	struct buf_writer w;
	struct msg_fds fds;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_ATTEST);
	buf_put_u32(&w, PROTO_ATTEST_TA_MEMORY);
	buf_put_u32(&w, sid);
	(void)rt_ctl_call_fd(out, buf_written(&w), -1, MSG_CTL_ATTEST_RSP, in, sizeof(in), &fds);
	return TEE_ERROR_GENERIC;
}

TEE_Result hostile_raw_open_ta(TEE_Param p[TEE_NUM_PARAMS])
{
	static int held[256];
	static size_t nheld;
	uint32_t want = p[1].value.a;

	if (p[0].memref.size != 16 || want > 256 - nheld)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!want) {
		/* None asked for: the held sessions are let go. */
		while (nheld)
			close(held[--nheld]);
		return TEE_SUCCESS;
	}
	p[1].value.a = 0;
	p[1].value.b = TEE_SUCCESS;
	for (uint32_t i = 0; i < want; i++) {
		uint8_t out[20];
		uint8_t in[32];
		struct buf_writer w;
		struct buf_reader r;
		struct msg_fds fds;
		uint32_t type = 0;
		uint32_t res = 0;
		ssize_t n = 0;

		buf_writer_init(&w, out, sizeof(out));
		buf_put_u32(&w, MSG_CTL_OPEN_TA);
		buf_put_bytes(&w, p[0].memref.buffer, 16);
		n = rt_ctl_call_fd(out, buf_written(&w), -1, MSG_CTL_OPEN_TA_RSP, in, sizeof(in),
				   &fds);
		buf_reader_init(&r, in, n > 0 ? (size_t)n : 0);
		buf_get_u32(&r, &type);
		buf_get_u32(&r, &res);
		if (!res && fds.n == 1) {
			held[nheld++] = msg_fds_take(&fds, 0);
			p[1].value.a++;
		} else if (!p[1].value.b) {
			p[1].value.b = res ? res : TEE_ERROR_GENERIC;
		}
		msg_fds_close(&fds);
	}
	return TEE_SUCCESS;
}
