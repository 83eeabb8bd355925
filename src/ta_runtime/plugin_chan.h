/* The TA runtime's side of tee-supplicant plugins (plugin_chan.c). */
#ifndef SWTEE_RT_PLUGIN_CHAN_H
#define SWTEE_RT_PLUGIN_CHAN_H

#include <stddef.h>
#include <stdint.h>

#include <tee_api_types.h>

#include "uuid.h"

/*
 * Calls the plugin uuid of tee-supplicant with cmd, sub_cmd and buf[len]
 * (len at most PROTO_PLUGIN_DATA_MAX; buf may be NULL when len is 0), and
 * waits as long as the plugin takes. *out_len is the length the plugin
 * reported (0 when it did not run), and the first min(*out_len, len) bytes
 * of buf are what it left there. Returns the plugin's result;
 * TEE_ERROR_ITEM_NOT_FOUND when no plugin has uuid; TEE_ERROR_OUT_OF_MEMORY
 * for a longer len; TEE_ERROR_COMMUNICATION when no supplicant is connected
 * or it ended during the call.
 */
TEE_Result rt_plugin_invoke(const struct swtee_uuid *uuid, uint32_t cmd, uint32_t sub_cmd,
			    void *buf, size_t len, size_t *out_len);

#endif
