/* tee-supplicant: the plugins TAs call with tee_invoke_supp_plugin (plugins.c). */
#ifndef SWTEE_SUPP_PLUGINS_H
#define SWTEE_SUPP_PLUGINS_H

#include <stdbool.h>

#define PLUGINS_MAX 64 /* plugins loaded at once */

/*
 * Loads every regular file DIR/NAME.plugin, in name order, as OP-TEE's
 * tee-supplicant does: each must export plugin_method (tee_plugin_method.h)
 * with a name and an invoke. A plugin whose UUID an earlier one has is
 * refused; then its init, when it has one, runs, and a plugin whose init
 * fails is skipped. Every outcome is logged. A missing DIR loads nothing
 * (an error line when named, that is, by -p). Call once, before any channel
 * is served. Returns the number of plugins loaded.
 */
int plugins_load(const char *dir, bool named);

/*
 * Serves the plugin channel sock (MSG_PLUGIN_* of proto.h) on a thread of
 * its own, which owns sock and closes it when the channel ends. A plugin
 * that stalls holds this channel only. Returns 0, or -1 (sock is closed).
 */
int plugins_serve_channel(int sock);

#endif
