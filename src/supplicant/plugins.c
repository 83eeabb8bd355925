/*
 * tee-supplicant plugins: shared objects loaded at start from the plugin
 * directory, each serving the TA requests addressed to its UUID. The list
 * is fixed once loaded, so the channel threads read it without a lock; a
 * plugin's invoke may run on several channel threads at once, as it may on
 * OP-TEE's supplicant.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tee_plugin_method.h>

#include "buf.h"
#include "log.h"
#include "msg.h"
#include "paths.h"
#include "plugin_msg.h"
#include "plugins.h"
#include "proto.h"
#include "uuid.h"

#define PLUGIN_SUFFIX ".plugin"
#define PLUGIN_NAME_LOG 64 /* characters of a plugin's own name in log lines */

struct plugin {
	void *handle;
	const struct plugin_method *m;
	struct swtee_uuid uuid;
	char uuid_str[SWTEE_UUID_STR_LEN];
	char path[SWTEE_PATH_MAX];
};

static struct plugin plugins[PLUGINS_MAX];
static size_t nplugins;

struct plugin_chan {
	int sock;
	uint8_t msg[PROTO_PLUGIN_MSG_MAX];
	uint8_t data[PROTO_PLUGIN_DATA_MAX];
};

static int is_plugin_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	size_t s = sizeof(PLUGIN_SUFFIX) - 1;

	return e->d_name[0] != '.' && n > s && !strcmp(e->d_name + n - s, PLUGIN_SUFFIX);
}

static const struct plugin *plugin_find(const struct swtee_uuid *uuid)
{
	for (size_t i = 0; i < nplugins; i++)
		if (uuid_equal(&plugins[i].uuid, uuid))
			return &plugins[i];
	return NULL;
}

/* Opens path into p and checks what it exports. Returns 0, or -1 (logged). */
static int plugin_open(const char *path, struct plugin *p)
{
	struct stat st;
	const TEEC_UUID *u = NULL;

	memset(p, 0, sizeof(*p));
	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		log_error("plugin %s: not a regular file; skipped", path);
		return -1;
	}
	p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!p->handle) {
		log_error("plugin %s: cannot be loaded: %s", path, dlerror());
		return -1;
	}
	p->m = dlsym(p->handle, "plugin_method");
	if (!p->m || !p->m->name || !p->m->invoke) {
		log_error("plugin %s: exports no plugin_method with a name and an invoke; skipped",
			  path);
		dlclose(p->handle);
		p->handle = NULL;
		return -1;
	}
	u = &p->m->uuid;
	uuid_from_fields(&p->uuid, u->timeLow, u->timeMid, u->timeHiAndVersion, u->clockSeqAndNode);
	uuid_format(&p->uuid, p->uuid_str);
	snprintf(p->path, sizeof(p->path), "%s", path);
	return 0;
}

/* Takes the plugin opened into p: refused, skipped or added. */
static void plugin_add(struct plugin *p)
{
	const struct plugin *prev = plugin_find(&p->uuid);
	TEEC_Result res = TEEC_SUCCESS;

	if (prev) {
		log_error("plugin %.*s (%s) from %s: refused, %.*s from %s serves that UUID",
			  PLUGIN_NAME_LOG, p->m->name, p->uuid_str, p->path, PLUGIN_NAME_LOG,
			  prev->m->name, prev->path);
		dlclose(p->handle);
		return;
	}
	if (nplugins >= PLUGINS_MAX) {
		log_error("plugin %s: refused, %d plugins are loaded already", p->path,
			  PLUGINS_MAX);
		dlclose(p->handle);
		return;
	}
	/* A plugin whose init ran stays mapped: it may have left threads or handlers. */
	if (p->m->init)
		res = p->m->init();
	if (res) {
		log_error("plugin %.*s (%s) from %s: init failed with 0x%08x; skipped",
			  PLUGIN_NAME_LOG, p->m->name, p->uuid_str, p->path, res);
		return;
	}
	plugins[nplugins++] = *p;
	log_info("plugin %.*s (%s) loaded from %s", PLUGIN_NAME_LOG, p->m->name, p->uuid_str,
		 p->path);
}

int plugins_load(const char *dir, bool named)
{
	struct dirent **list = NULL;
	int n = scandir(dir, &list, is_plugin_file, alphasort);

	if (n < 0) {
		if (named)
			log_error("plugin directory %s: %s; no plugins loaded", dir,
				  strerror(errno));
		else
			log_debug("no plugin directory %s", dir);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		char path[SWTEE_PATH_MAX];
		struct plugin p;

		if (paths_join(path, sizeof(path), dir, list[i]->d_name))
			log_error("plugin %s/%s: path too long; skipped", dir, list[i]->d_name);
		else if (!plugin_open(path, &p))
			plugin_add(&p);
		free(list[i]);
	}
	free(list);
	log_debug("%zu plugin(s) loaded from %s", nplugins, dir);
	return (int)nplugins;
}

/* One request of the channel, answered into w. Returns 0, or -1: malformed. */
static int chan_request(struct plugin_chan *ch, const uint8_t *msg, size_t n, struct buf_writer *w)
{
	struct plugin_msg_invoke req;
	const struct plugin *p = NULL;
	size_t out_len = 0;
	size_t back = 0;
	TEEC_Result res = TEEC_ERROR_ITEM_NOT_FOUND;

	if (plugin_msg_parse_invoke(msg, n, &req))
		return -1;
	p = plugin_find(&req.uuid);
	if (p) {
		/* The plugin reads and writes its own copy; only what it reports goes back. */
		memcpy(ch->data, req.data, req.len);
		res = p->m->invoke(req.cmd, req.sub_cmd, req.len ? ch->data : NULL, req.len,
				   &out_len);
		/* OP-TEE's TA sees 32 bits of out_len too; beyond, it says the most it can. */
		if (out_len > UINT32_MAX)
			out_len = UINT32_MAX;
		back = out_len < req.len ? out_len : req.len;
		log_debug("plugin %s: cmd %u sub_cmd %u, %u bytes: 0x%08x, out_len %zu",
			  p->uuid_str, req.cmd, req.sub_cmd, req.len, res, out_len);
	} else {
		char name[SWTEE_UUID_STR_LEN];

		uuid_format(&req.uuid, name);
		log_debug("plugin %s: no such plugin", name);
	}
	buf_put_u32(w, MSG_PLUGIN_RSP);
	buf_put_u32(w, res);
	buf_put_u32(w, (uint32_t)out_len);
	buf_put_u32(w, (uint32_t)back);
	buf_put_bytes(w, ch->data, back);
	return 0;
}

static void *chan_main(void *arg)
{
	struct plugin_chan *ch = arg;

	for (;;) {
		struct msg_fds fds;
		struct buf_writer w;
		ssize_t n = msg_recv(ch->sock, ch->msg, sizeof(ch->msg), &fds);
		size_t nfds = fds.n;

		msg_fds_close(&fds);
		if (n == -EINTR)
			continue;
		if (n <= 0 || nfds)
			break;
		/* The answer is built in the request's place, once its data is in ch->data. */
		buf_writer_init(&w, ch->msg, sizeof(ch->msg));
		if (chan_request(ch, ch->msg, (size_t)n, &w)) {
			log_error("malformed plugin request from the core");
			break;
		}
		if (msg_send(ch->sock, ch->msg, buf_written(&w), NULL, 0))
			break;
	}
	close(ch->sock);
	free(ch);
	return NULL;
}

int plugins_serve_channel(int sock)
{
	struct plugin_chan *ch = calloc(1, sizeof(*ch));
	pthread_attr_t attr;
	pthread_t t;

	if (ch && !pthread_attr_init(&attr)) {
		int rc = 0;

		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		ch->sock = sock;
		rc = pthread_create(&t, &attr, chan_main, ch);
		pthread_attr_destroy(&attr);
		if (!rc)
			return 0; /* the thread owns ch and sock */
	}
	log_error("cannot serve a plugin channel: out of resources");
	close(sock);
	free(ch);
	return -1;
}
