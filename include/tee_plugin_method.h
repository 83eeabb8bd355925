/*
 * The description a tee-supplicant plugin exports, under OP-TEE's names
 * (tee_plugin_method.h): a shared object that defines
 *   struct plugin_method plugin_method = { "name", UUID, init, invoke };
 * serves the requests TAs send to UUID with tee_invoke_supp_plugin().
 *
 * swtee's tee-supplicant loads the .plugin files of DIR at start (-p DIR, else
 * lib/swtee/plugins of its installation); docs/ta-development.md,
 * "Supplicant plugins", has the details. invoke may run on several threads
 * at once.
 */
#ifndef TEE_PLUGIN_METHOD_H
#define TEE_PLUGIN_METHOD_H

#include <stddef.h>
#include <tee_client_api.h>

struct plugin_method {
	const char *name; /* required; short, for logs */
	TEEC_UUID uuid;	  /* the UUID TAs address the plugin by */
	/* Optional: called once when the plugin is loaded; non-zero refuses it. */
	TEEC_Result (*init)(void);
	/*
	 * Required: one request, cmd and sub_cmd as the TA gave them; data
	 * is the TA's buffer of in_len bytes (NULL when 0), read and
	 * overwritten in place, and *out_len (0 on entry) the length of the
	 * reply: the TA gets it, and the first min(*out_len, in_len) bytes.
	 */
	TEEC_Result (*invoke)(unsigned int cmd, unsigned int sub_cmd, void *data, size_t in_len,
			      size_t *out_len);
};

#endif /* TEE_PLUGIN_METHOD_H */
