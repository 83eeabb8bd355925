/*
 * One TA instance: load the TA the core verified, then serve its sessions.
 * Entry points run one at a time, on this one thread, as GP requires.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "memfd.h"
#include "paths.h"
#include "pta_client.h"
#include "runtime.h"

struct rt_state rt;

/* After a result, the next request is waited for awake a while (msg_poll_spin). */
static struct {
	uint64_t replied_ns;	/* when the last result was sent; 0: waited since */
	bool client_awake;	/* whether that result's client waits awake too */
	struct msg_waiter wait; /* last_ns: from that result to the next event */
	struct msg_backoff backoff;
} spin;

static void ctl_send(uint32_t type, uint32_t v)
{
	uint8_t out[8];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, type);
	buf_put_u32(&w, v);
	msg_send(rt.ctl_fd, out, buf_written(&w), NULL, 0);
}

void rt_exit(int status)
{
	fflush(stdout);
	fflush(stderr);
	_exit(status);
}

void rt_panic(TEE_Result code, const char *func)
{
	if (func)
		log_error("panic 0x%08x in %s", code, func);
	else
		log_error("panic 0x%08x", code);
	ctl_send(MSG_CTL_PANIC, code);
	rt_exit(70);
}

static const char *load_ta(int elf_fd)
{
	static char err[512];
	char path[SWTEE_PATH_MAX];
	const size_t *nprops = NULL;
	void *h = NULL;

	if (rt_debug_load_path(elf_fd, path, sizeof(path)))
		return "cannot name the TA's ELF";
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, sizeof(err), "cannot load: %s", dlerror());
		return err;
	}
	rt.ta.handle = h;
	rt.ta.create = (TEE_Result(*)(void))dlsym(h, "TA_CreateEntryPoint");
	rt.ta.destroy = (void (*)(void))dlsym(h, "TA_DestroyEntryPoint");
	rt.ta.open =
	    (TEE_Result(*)(uint32_t, TEE_Param *, void **))dlsym(h, "TA_OpenSessionEntryPoint");
	rt.ta.close = (void (*)(void *))dlsym(h, "TA_CloseSessionEntryPoint");
	rt.ta.invoke = (TEE_Result(*)(void *, uint32_t, uint32_t, TEE_Param *))dlsym(
	    h, "TA_InvokeCommandEntryPoint");
	rt.ta.head = dlsym(h, "ta_head");
	rt.ta.props = dlsym(h, "ta_props");
	nprops = dlsym(h, "ta_num_props");
	if (!rt.ta.create || !rt.ta.destroy || !rt.ta.open || !rt.ta.close || !rt.ta.invoke)
		return "the TA lacks one of the five GP entry points";
	if (!rt.ta.head || !rt.ta.props || !nprops)
		return "the TA lacks its header (ta_head, ta_props)";
	rt.ta.nprops = *nprops;
	return NULL;
}

/* The heap bound is the TA's gpd.ta.dataSize. */
static uint32_t prop_data_size(void)
{
	for (size_t i = 0; i < rt.ta.nprops; i++) {
		const struct user_ta_property *p = &rt.ta.props[i];

		if (p->type == USER_TA_PROP_TYPE_U32 && p->name &&
		    !strcmp(p->name, TA_PROP_STR_DATA_SIZE))
			return *(const uint32_t *)p->value;
	}
	return 0;
}

/*
 * Maps the verified TA (elf_fd stays open for the instance's life: its
 * /proc/PID/fd name is how a debugger or a sanitizer finds the TA's symbols)
 * and enters the sandbox. A TA under debug or built with ASan may make this
 * process re-execute itself first (debug.c).
 */
static void load(int elf_fd, int level)
{
	rt.log_level = level;
	log_init("", rt.log_level);
	rt.load_error = rt_debug_exec(elf_fd);
	if (!rt.load_error && !rt_debug_files_open())
		rt.load_error = rt_sandbox_files();
	if (!rt.load_error)
		rt.load_error = load_ta(elf_fd);
	rt_libs_lock();
	if (rt.load_error) {
		log_error("%s", rt.load_error);
		return;
	}
	rt_debug_wait();
	rt.data_size = prop_data_size();
	rt_heap_init(rt.data_size);
	switch (rt_debug_unsandboxed(rt.ta.handle)) {
	case 1:
		return;
	case -1:
		rt.load_error = "an instrumented TA, not allowed here";
		return;
	default:
		break;
	}
	rt.load_error = rt_sandbox_enter(rt.data_size, rt.ta.head->stack_size);
	if (rt.load_error)
		log_error("%s; refusing to run it", rt.load_error);
}

static void wait_load(void)
{
	uint8_t in[PROTO_MSG_MAX];
	struct msg_fds fds;
	struct buf_reader r;
	struct swtee_uuid libs[PROTO_LIBS_MAX];
	int lib_fd[PROTO_LIBS_MAX];
	uint32_t type = 0;
	uint32_t level = 0;
	uint32_t nlibs = 0;
	uint64_t memory = 0;
	const char *err = NULL;
	int elf_fd = -1;
	ssize_t n = msg_recv(rt.ctl_fd, in, sizeof(in), &fds);

	if (n <= 0)
		rt_exit(0); /* a spare the core never used */
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_bytes(&r, rt.uuid.b, sizeof(rt.uuid.b));
	buf_get_u32(&r, &rt.flags);
	buf_get_u32(&r, &rt.instance_id);
	buf_get_u32(&r, &level);
	buf_get_u64(&r, &memory);
	buf_get_u32(&r, &nlibs);
	for (uint32_t i = 0; i < nlibs && i < PROTO_LIBS_MAX; i++)
		buf_get_bytes(&r, libs[i].b, sizeof(libs[i].b));
	if (!buf_done(&r) || type != MSG_CTL_LOAD || nlibs > PROTO_LIBS_MAX || fds.n != 1 + nlibs)
		rt_exit(71);
	uuid_format(&rt.uuid, rt.uuid_str);
	/* The TA's memory limit before any of its code: its constructors too. */
	err = rt_memcg_limit(memory);
	elf_fd = msg_fds_take(&fds, 0);
	if (!err && rt_builtin_load(elf_fd, nlibs, (int)level)) /* a pseudo-TA: pta_client.c */
		return;
	for (uint32_t i = 0; i < nlibs; i++)
		lib_fd[i] = msg_fds_take(&fds, 1 + i);
	if (!err)
		err = rt_libs_prepare(&elf_fd, libs, lib_fd, nlibs);
	if (err) {
		log_init("", (int)level);
		rt.load_error = err;
		log_error("%s", err);
		rt_libs_lock();
		return;
	}
	load(elf_fd, (int)level);
}

static struct rt_session *session_add(int fd, uint32_t id, uint32_t login,
				      const struct swtee_uuid *identity)
{
	struct rt_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	s->fd = fd;
	s->id = id;
	s->login = login;
	s->identity = *identity;
	s->cancel_masked = true;
	s->next = rt.sessions;
	rt.sessions = s;
	rt.nsessions++;
	return s;
}

/* Forgets s; tells the core first unless it was told already. */
static void session_remove(struct rt_session *s, bool notify)
{
	struct rt_session **pp = &rt.sessions;

	while (*pp && *pp != s)
		pp = &(*pp)->next;
	if (*pp)
		*pp = s->next;
	rt.nsessions--;
	if (notify)
		ctl_send(MSG_CTL_SESSION_CLOSED, s->id);
	rt_shm_release_all(s);
	if (s->ctl)
		munmap(s->ctl, sizeof(*s->ctl));
	close(s->fd);
	free(s);
}

static void run_close(struct rt_session *s, bool answer);

static bool reply(struct rt_session *s, TEE_Result res, uint32_t origin, uint32_t types,
		  const TEE_Param *params)
{
	static const TEE_Param none[TEE_NUM_PARAMS];
	uint8_t out[16 + PROTO_NUM_PARAMS * PROTO_PARAM_OUT_BYTES];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_TA_RESULT);
	buf_put_u32(&w, res);
	buf_put_u32(&w, origin);
	rt_params_out(&w, params ? types : 0, params ? params : none);
	if (msg_send(s->fd, out, buf_written(&w), NULL, 0))
		return false;
	spin.replied_ns = msg_now_ns();
	spin.client_awake = s->ctl && atomic_load((_Atomic uint32_t *)&s->ctl->client_awake);
	return true;
}

static TEE_Result map_ctl_page(struct rt_session *s, struct msg_fds *fds)
{
	int fd = fds->n ? fds->fd[0] : -1;
	long long size = fd >= 0 ? memfd_safe_size(fd, F_SEAL_SHRINK) : -1;
	void *p = NULL;

	if (size < (long long)sizeof(*s->ctl))
		return TEE_ERROR_BAD_PARAMETERS;
	p = mmap(NULL, sizeof(*s->ctl), PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return TEE_ERROR_OUT_OF_MEMORY;
	s->ctl = p;
	/* Shm descriptors follow the control page. */
	close(fds->fd[0]);
	memmove(fds->fd, fds->fd + 1, (fds->n - 1) * sizeof(int));
	fds->n--;
	return TEE_SUCCESS;
}

/* An open that fails: the core hears of it before the client does. */
static void fail_open(struct rt_session *s, TEE_Result res, uint32_t origin)
{
	ctl_send(MSG_CTL_SESSION_CLOSED, s->id);
	reply(s, res, origin, 0, NULL);
	session_remove(s, false);
}

static void run_open(struct rt_session *s, struct buf_reader *r, struct msg_fds *fds)
{
	TEE_Param params[TEE_NUM_PARAMS];
	uint32_t types = 0;
	TEE_Result res = TEE_SUCCESS;

	res = map_ctl_page(s, fds);
	if (!res)
		res = rt_params_in(s, r, fds, &types, params);
	if (res) {
		fail_open(s, res, TEE_ORIGIN_TEE);
		return;
	}
	if (rt.load_error) {
		fail_open(s, TEE_ERROR_BAD_FORMAT, TEE_ORIGIN_TEE);
		rt_exit(0);
	}
	rt.current = s;
	if (!rt.created) {
		res = rt.ta.create();
		if (res) {
			log_error("TA_CreateEntryPoint failed: 0x%08x", res);
			rt.current = NULL;
			fail_open(s, res, TEE_ORIGIN_TRUSTED_APP);
			rt_exit(0);
		}
		rt.created = true;
	}
	res = rt.ta.open(types, params, &s->ta_ctx);
	rt.current = NULL;
	if (res) {
		ctl_send(MSG_CTL_SESSION_CLOSED, s->id);
		reply(s, res, TEE_ORIGIN_TRUSTED_APP, types, params);
		session_remove(s, false);
		return;
	}
	s->opened = true;
	if (!reply(s, res, TEE_ORIGIN_TRUSTED_APP, types, params))
		run_close(s, false);
}

/*
 * Runs the close entry point and tells the core, before the client hears
 * back: a client that opens again at once must find the instance gone if
 * this was its last session. An instance no other session can join (not
 * single-instance) ends with its last session: as on OP-TEE its destroy
 * entry point runs and what it holds open is let go before the close
 * returns, so that the client's next session finds its objects free.
 */
static void run_close(struct rt_session *s, bool answer)
{
	rt.current = s;
	rt.ta.close(s->ta_ctx);
	rt.current = NULL;
	ctl_send(MSG_CTL_SESSION_CLOSED, s->id);
	if (rt.nsessions == 1 && !(rt.flags & TA_FLAG_SINGLE_INSTANCE) && rt.created) {
		rt.ta.destroy();
		rt.created = false;
		rt_storage_end();
	}
	if (answer)
		reply(s, TEE_SUCCESS, TEE_ORIGIN_TRUSTED_APP, 0, NULL);
	session_remove(s, false);
}

static void session_readable(struct rt_session *s)
{
	uint8_t in[PROTO_MSG_MAX];
	struct msg_fds fds;
	struct buf_reader r;
	TEE_Param params[TEE_NUM_PARAMS];
	uint32_t type = 0;
	uint32_t cmd = 0;
	uint32_t types = 0;
	TEE_Result res = TEE_SUCCESS;
	ssize_t n = msg_recv(s->fd, in, sizeof(in), &fds);

	if (n == -EAGAIN || n == -EINTR)
		return;
	if (n <= 0) {
		/* The client is gone: close the session as GP requires. */
		if (s->opened)
			run_close(s, false);
		else
			session_remove(s, true);
		return;
	}
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	if (!s->opened) {
		buf_get_u32(&r, &s->serial);
		if (type != MSG_TA_OPEN || !buf_ok(&r)) {
			msg_fds_close(&fds);
			reply(s, TEE_ERROR_BAD_FORMAT, TEE_ORIGIN_TEE, 0, NULL);
			session_remove(s, true);
			return;
		}
		run_open(s, &r, &fds);
		msg_fds_close(&fds);
		return;
	}
	switch (type) {
	case MSG_TA_INVOKE:
		buf_get_u32(&r, &s->serial);
		buf_get_u32(&r, &cmd);
		res = rt_params_in(s, &r, &fds, &types, params);
		msg_fds_close(&fds);
		if (res) {
			if (!reply(s, res, TEE_ORIGIN_TEE, 0, NULL))
				run_close(s, false);
			return;
		}
		rt.current = s;
		res = rt.ta.invoke(s->ta_ctx, cmd, types, params);
		rt.current = NULL;
		if (!reply(s, res, TEE_ORIGIN_TRUSTED_APP, types, params))
			run_close(s, false);
		break;
	case MSG_TA_CLOSE:
		msg_fds_close(&fds);
		run_close(s, true);
		break;
	default:
		msg_fds_close(&fds);
		if (!reply(s, TEE_ERROR_BAD_FORMAT, TEE_ORIGIN_TEE, 0, NULL))
			run_close(s, false);
		break;
	}
}

/* Handles one message the core sent of its own accord. */
static void ctl_handle(const uint8_t *in, size_t n, struct msg_fds *fds_in)
{
	struct msg_fds fds = *fds_in;
	struct buf_reader r;
	struct swtee_uuid identity = {{0}};
	uint32_t type = 0;
	uint32_t id = 0;
	uint32_t login = 0;

	msg_fds_init(fds_in); /* ours now */
	buf_reader_init(&r, in, n);
	buf_get_u32(&r, &type);
	if (type == MSG_CTL_PING && buf_done(&r) && !fds.n) {
		uint8_t out[4];
		struct buf_writer w;

		buf_writer_init(&w, out, sizeof(out));
		buf_put_u32(&w, MSG_CTL_PONG);
		msg_send(rt.ctl_fd, out, buf_written(&w), NULL, 0);
		return;
	}
	if (type == MSG_CTL_DESTROY && buf_done(&r) && !fds.n) {
		if (rt.created)
			rt.ta.destroy();
		/* The TA's own destructors run (gcov writes its counts there). */
		if (rt.ta.handle)
			dlclose(rt.ta.handle);
		rt_debug_end(0);
	}
	buf_get_u32(&r, &id);
	buf_get_u32(&r, &login);
	buf_get_bytes(&r, identity.b, sizeof(identity.b));
	if (rt.nsessions >= RT_SESSIONS_MAX) {
		/* The socket closes: the client sees the instance refuse. */
		log_error("more than %d sessions", RT_SESSIONS_MAX);
		msg_fds_close(&fds);
		ctl_send(MSG_CTL_SESSION_CLOSED, id);
		return;
	}
	if (type != MSG_CTL_NEW_SESSION || !buf_done(&r) || fds.n != 1 ||
	    !session_add(msg_fds_take(&fds, 0), id, login, &identity)) {
		log_error("bad message from the core");
		rt_exit(72);
	}
	msg_fds_close(&fds);
}

static void ctl_readable(void)
{
	uint8_t in[PROTO_MSG_MAX];
	struct msg_fds fds;
	ssize_t n = msg_recv(rt.ctl_fd, in, sizeof(in), &fds);

	if (n == -EAGAIN || n == -EINTR)
		return;
	if (n <= 0)
		rt_exit(0); /* the core is gone */
	ctl_handle(in, (size_t)n, &fds);
}

ssize_t rt_ctl_call(const void *req, size_t len, uint32_t rsp_type, uint8_t *rsp, size_t cap,
		    struct msg_fds *fds)
{
	return rt_ctl_call_fd(req, len, -1, rsp_type, rsp, cap, fds);
}

ssize_t rt_ctl_call_fd(const void *req, size_t len, int give, uint32_t rsp_type, uint8_t *rsp,
		       size_t cap, struct msg_fds *fds)
{
	msg_fds_init(fds);
	if (msg_send(rt.ctl_fd, req, len, give >= 0 ? &give : NULL, give >= 0 ? 1 : 0))
		rt_exit(0); /* the core is gone */
	for (;;) {
		struct buf_reader r;
		uint32_t type = 0;
		ssize_t n = msg_recv(rt.ctl_fd, rsp, cap, fds);

		if (n == -EINTR)
			continue;
		if (n <= 0)
			rt_exit(0);
		buf_reader_init(&r, rsp, (size_t)n);
		buf_get_u32(&r, &type);
		if (type == rsp_type)
			return n;
		/* Not ours: a new session, say. Handle it and keep waiting. */
		ctl_handle(rsp, (size_t)n, fds);
	}
}

uint32_t rt_ctl_request(const void *req, size_t len, int give, uint32_t rsp_type, uint8_t *rsp,
			size_t cap, struct msg_fds *fds, struct buf_reader *r)
{
	ssize_t n = rt_ctl_call_fd(req, len, give, rsp_type, rsp, cap, fds);
	uint32_t type = 0;
	uint32_t res = TEE_ERROR_COMMUNICATION;

	buf_reader_init(r, rsp, n > 0 ? (size_t)n : 0);
	buf_get_u32(r, &type);
	buf_get_u32(r, &res);
	return buf_ok(r) ? res : TEE_ERROR_COMMUNICATION;
}

static void serve(void) __attribute__((noreturn));

/*
 * Standard output is a pipe to the core: line-buffered, as on a terminal,
 * so that each line a TA prints reaches the log when printed.
 */
static void output_lines(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

void rt_instance_zygote_prepare(void)
{
	if (rt_sandbox_prepare())
		log_error("cannot compile the TA sandbox; TAs will be refused");
	rt_mem_prepare();
}

void rt_instance_main(int ctl_fd)
{
	output_lines();
	rt.ctl_fd = ctl_fd;
	prctl(PR_SET_NAME, "swtee-ta");
	rt_instance_zygote_prepare(); /* nothing left to do in a fork of the zygote */
	rt_mem_prepare_process();
	wait_load();
	serve();
}

void rt_instance_main_loaded(int ctl_fd, int elf_fd, int level)
{
	output_lines();
	rt.ctl_fd = ctl_fd;
	prctl(PR_SET_NAME, "swtee-ta");
	if (rt_sandbox_prepare())
		log_error("cannot compile the TA sandbox; TAs will be refused");
	load(elf_fd, level);
	serve();
}

/* After a result, waits awake for a while if the last request came soon. */
static bool wait_awake(struct pollfd *pfd, nfds_t n)
{
	return spin.replied_ns && spin.client_awake && msg_waiter_spin(&spin.wait, pfd, n);
}

static void serve(void)
{
	spin.wait.cap_ns = getenv("SWTEE_NO_SPIN") ? 0 : MSG_SPIN_REQUEST_CAP_NS;
	spin.wait.backoff = &spin.backoff;
	for (;;) {
		static struct pollfd pfd[1 + RT_SESSIONS_MAX];
		static struct rt_session *ss[RT_SESSIONS_MAX];
		nfds_t n = 1;

		pfd[0].fd = rt.ctl_fd;
		pfd[0].events = POLLIN;
		for (struct rt_session *s = rt.sessions; s && n < 1 + RT_SESSIONS_MAX;
		     s = s->next) {
			pfd[n].fd = s->fd;
			pfd[n].events = POLLIN;
			ss[n - 1] = s;
			n++;
		}
		if (!wait_awake(pfd, n) && poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			rt_exit(73);
		}
		if (spin.replied_ns) {
			spin.wait.last_ns = msg_now_ns() - spin.replied_ns;
			spin.replied_ns = 0;
		}
		if (pfd[0].revents)
			ctl_readable();
		for (nfds_t i = 1; i < n; i++)
			if (pfd[i].revents)
				session_readable(ss[i - 1]);
	}
}
