/*
 * The TA persistent time (GP 7): kept by the core in the TA's trusted
 * storage as an offset from the REE clock, so it survives restarts of the
 * TA and of the TEE. It is as trustworthy as the REE clock
 * (gpd.tee.TAPersistentTime.protectionLevel 100): when that clock goes back
 * past the moment the time was set, or the storage fails its checks, the
 * time needs a reset.
 */
#include <string.h>

#include "storage.h"

TEE_Result TEE_GetTAPersistentTime(TEE_Time *time)
{
	static const char func[] = "TEE_GetTAPersistentTime";
	uint8_t out[4];
	uint8_t in[32];
	struct buf_writer w;
	struct buf_reader r;
	uint32_t state = 0;
	uint64_t sec = 0;
	uint32_t ms = 0;
	TEE_Result res = TEE_SUCCESS;

	if (!time)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	memset(time, 0, sizeof(*time));
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_TIME_GET);
	res = stor_call(out, buf_written(&w), in, sizeof(in), &r);
	if (res == TEE_ERROR_OUT_OF_MEMORY)
		return res;
	if (res)
		return TEE_ERROR_TIME_NOT_SET; /* no storage: nothing was ever kept */
	buf_get_u32(&r, &state);
	buf_get_u64(&r, &sec);
	buf_get_u32(&r, &ms);
	if (!buf_done(&r) || state > 2 || ms > 999)
		rt_panic(TEE_ERROR_COMMUNICATION, func);
	if (state == 0)
		return TEE_ERROR_TIME_NOT_SET;
	if (state == 2)
		return TEE_ERROR_TIME_NEEDS_RESET;
	time->seconds = (uint32_t)sec;
	time->millis = ms;
	return sec > UINT32_MAX ? TEE_ERROR_OVERFLOW : TEE_SUCCESS;
}

TEE_Result TEE_SetTAPersistentTime(const TEE_Time *time)
{
	static const char func[] = "TEE_SetTAPersistentTime";
	uint8_t out[12];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	TEE_Result res = TEE_SUCCESS;

	if (!time || time->millis > 999)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_TIME_SET);
	buf_put_u32(&w, time->seconds);
	buf_put_u32(&w, time->millis);
	res = stor_call(out, buf_written(&w), in, sizeof(in), &r);
	if (res && res != TEE_ERROR_OUT_OF_MEMORY)
		res = TEE_ERROR_STORAGE_NO_SPACE;
	return res;
}
