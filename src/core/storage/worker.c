/*
 * The storage channels of TA instances. An instance asks once, over its
 * control socket (MSG_CTL_STORAGE); the epoll thread answers with a socket
 * and a bulk window, gives the supplicant a REE FS channel of its own, and
 * starts a worker thread that serves the instance's storage requests from
 * then on, off the epoll loop. Each request locks the TA's store for as long
 * as it takes (store.c): instances of different TAs never wait for each
 * other, instances of one TA take turns.
 *
 * The instance is hostile: requests are parsed whole and bounded, object
 * ids are at most 64 bytes, flags and handles are checked, and a request
 * that does not parse ends the channel. Data in the bulk window is read
 * once (sealed as it is read) and never parsed.
 *
 * This file is the thread and the channel's setup; requests.c dispatches
 * the requests, reads.c and changes.c serve them, handles.c keeps the
 * handles, access.c what they share (worker.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <tee_client_api.h>

#include "core.h"
#include "log.h"
#include "memfd.h"
#include "msg.h"
#include "worker.h"

#define HEAP_MAX ((uint64_t)1 << 32) /* a TA heap is at most 4 GiB (TA_DATA_SIZE) */

#define FINI_WAIT_S 5

#define CONFIRM_IDLE_MS 2

/* The running workers; each thread unlinks and frees its own when it ends. */
static pthread_mutex_t workers_lock = PTHREAD_MUTEX_INITIALIZER;

static pthread_cond_t workers_ended = PTHREAD_COND_INITIALIZER;

static struct worker *workers;

#define RELEASE_WAIT_S 2

/* Whether the instance of worker o has ended (its end of the channel closed). */
static bool instance_ended(const struct worker *o)
{
	struct pollfd p = {.fd = o->sock, .events = POLLIN | POLLRDHUP};

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLRDHUP | POLLERR));
}

/*
 * An object held open by an instance that has just ended is closed by that
 * instance's worker, which may not have got to it yet when the client, told
 * of the end by its own connection, already opens a new session. A conflict
 * then waits (bounded) for the workers of ended instances to be done, and
 * is tried once more. Whether there were any.
 */
static bool releases_wait(const struct worker *self)
{
	struct timespec limit;
	bool any = false;

	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += RELEASE_WAIT_S;
	pthread_mutex_lock(&workers_lock);
	for (;;) {
		bool ending = false;

		for (const struct worker *o = workers; o && !ending; o = o->next)
			ending = o != self && instance_ended(o);
		if (!ending)
			break;
		any = true;
		if (pthread_cond_timedwait(&workers_ended, &workers_lock, &limit))
			break;
	}
	pthread_mutex_unlock(&workers_lock);
	return any;
}

static void worker_release(struct worker *w)
{
	requests_end(w);
	if (w->own_fs.win)
		munmap(w->own_fs.win, PROTO_FS_WINDOW);
	w->own_fs.win = NULL;
	if (w->bulk)
		munmap(w->bulk, PROTO_STOR_WINDOW);
	w->bulk = NULL;
	if (w->heap)
		munmap((void *)w->heap, w->heap_len);
	w->heap = NULL;
}

static void worker_free(struct worker *w)
{
	if (w->own_fs.sock >= 0)
		close(w->own_fs.sock);
	if (w->sock >= 0)
		close(w->sock);
	free(w);
}

/*
 * The last commit wrote blocks in place alongside its record: unless the
 * instance asks for more within CONFIRM_IDLE_MS (the next commit does the
 * same), a record after it, so that a crash cannot take the change back.
 */
static void confirm(struct worker *w)
{
	w->confirm_due = false;
	if (lock(w))
		return;
	if (journal_confirm(w->store))
		log_debug(
		    "storage: a record could not confirm the last commit; its next load checks "
		    "its blocks again");
	w->confirm_due = false;
	store_unlock(w->store);
}

static void confirm_when_idle(struct worker *w)
{
	struct pollfd p = {.fd = w->sock, .events = POLLIN};

	if (poll(&p, 1, CONFIRM_IDLE_MS) != 0)
		return; /* a request (or an error) first; confirm_due stays */
	confirm(w);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint8_t *in = malloc(PROTO_MSG_MAX);

	while (in) {
		struct msg_fds fds;
		ssize_t n = 0;

		/* Not in the middle of a write in pieces: the store is locked then. */
		if (w->confirm_due && !w->p.active)
			confirm_when_idle(w);
		n = msg_recv(w->sock, in, PROTO_MSG_MAX, &fds);

		if (n <= 0)
			break;
		if (fds.n) {
			msg_fds_close(&fds);
			break;
		}
		if (!requests_serve(w, in, (size_t)n)) {
			char name[SWTEE_UUID_STR_LEN];

			uuid_format(&w->uuid, name);
			log_error("TA %s instance %u sent a malformed storage request; "
				  "its storage channel is closed",
				  name, w->instance);
			break;
		}
	}
	free(in);
	worker_release(w);
	/*
	 * Nothing of the instance's outlives it. Its descriptors close under
	 * the lock, so storage_fini never shuts down a number reused since.
	 */
	pthread_mutex_lock(&workers_lock);
	for (struct worker **pp = &workers; *pp; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	worker_free(w);
	/*
	 * OpenSSL frees this thread's state (its DRBG) here, not in a key
	 * destructor after the return: storage_fini may already have let the
	 * core exit, and OpenSSL's cleanup at exit deletes that key.
	 */
	OPENSSL_thread_stop();
	pthread_cond_broadcast(&workers_ended);
	pthread_mutex_unlock(&workers_lock);
	return NULL;
}

struct worker *worker_attach(const struct swtee_uuid *uuid, struct reefs *fs, int sock,
			     uint8_t *bulk, const uint8_t *heap, size_t heap_len)
{
	struct worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->buf = malloc(PROTO_STOR_WINDOW);
	if (!w->buf) {
		free(w);
		return NULL;
	}
	w->uuid = *uuid;
	w->fs = fs;
	w->own_fs.sock = -1;
	w->sock = sock;
	w->bulk = bulk;
	w->heap = heap;
	w->heap_len = heap_len;
	w->releases_wait = releases_wait;
	return w;
}

bool worker_request(struct worker *w, const uint8_t *req, size_t n)
{
	return requests_serve(w, req, n);
}

void worker_idle(struct worker *w)
{
	if (w->confirm_due && !w->p.active)
		confirm(w);
}

void worker_detach(struct worker *w)
{
	if (!w)
		return;
	requests_end(w);
	free(w);
}

/*
 * The heap an instance hands over with its storage request: a memfd sealed
 * against shrinking (so that reading it can never fault), mapped read-only.
 * -1 for anything else; 0 with *heap NULL when it cannot be mapped.
 */
static int heap_map(int fd, const uint8_t **heap, size_t *len)
{
	long long size = memfd_safe_size(fd, F_SEAL_SHRINK);
	void *p = MAP_FAILED;

	*heap = NULL;
	*len = 0;
	if (size < 0 || (uint64_t)size > HEAP_MAX)
		return -1;
	p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		log_info("cannot map an instance's heap (%s): its writes come through the window",
			 strerror(errno));
		return 0;
	}
	*heap = p;
	*len = (size_t)size;
	return 0;
}

/* Whether instance has a storage worker already. */
static bool worker_listed(uint32_t instance)
{
	bool found = false;

	pthread_mutex_lock(&workers_lock);
	for (const struct worker *w = workers; w && !found; w = w->next)
		found = w->instance == instance;
	pthread_mutex_unlock(&workers_lock);
	return found;
}

/* Whether trusted storage can serve at all; says why not. */
static bool storage_ready(const struct core *c)
{
	if (!keys_ready()) {
		log_error("trusted storage is off (no secure dir, or its keys could not be "
			  "set up: see the log at start)");
		return false;
	}
	if (!c->supplicant) {
		log_error("trusted storage needs tee-supplicant with -f DIR");
		return false;
	}
	return true;
}

/* A worker not yet started, owning heap (unmapped by worker_release); NULL when out of memory. */
static struct worker *worker_new(const uint8_t *heap, size_t heap_len)
{
	struct worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->sock = -1;
	w->own_fs.sock = -1;
	w->fs = &w->own_fs;
	w->releases_wait = releases_wait;
	w->heap = heap;
	w->heap_len = heap_len;
	return w;
}

/*
 * The instance's side of w: its request window (a sealed memfd, *bulk_fd,
 * mapped as w->bulk) and a socket pair (sv[0] for w, sv[1] for the instance).
 */
static TEE_Result worker_channel(struct worker *w, int sv[2], int *bulk_fd)
{
	void *bulk = MAP_FAILED;

	w->buf = malloc(PROTO_STOR_WINDOW);
	*bulk_fd = memfd_new_sealed("swtee-storage", PROTO_STOR_WINDOW);
	if (!w->buf || *bulk_fd < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return TEE_ERROR_OUT_OF_MEMORY;
	bulk = mmap(NULL, PROTO_STOR_WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, *bulk_fd, 0);
	if (bulk == MAP_FAILED)
		return TEE_ERROR_OUT_OF_MEMORY;
	w->bulk = bulk; /* unmapped by worker_release */
	return TEE_SUCCESS;
}

/* w's own channel to the supplicant's REE FS. */
static TEE_Result worker_fs_open(struct core *c, struct worker *w)
{
	int fs_win = memfd_new_sealed("swtee-reefs", PROTO_FS_WINDOW);
	int fs_sock = -1;
	TEE_Result res = TEE_ERROR_STORAGE_NOT_AVAILABLE;

	if (fs_win < 0 || supplicant_open_channel(c, MSG_SUPP_FS_CHANNEL, fs_win, &fs_sock) ||
	    reefs_open(&w->own_fs, fs_sock, fs_win))
		goto out;
	fs_sock = -1; /* transferred */
	res = TEE_SUCCESS;
out:
	if (fs_sock >= 0)
		close(fs_sock);
	if (fs_win >= 0)
		close(fs_win);
	return res;
}

/* Lists w and starts its thread, which owns w once this succeeds. */
static TEE_Result worker_start(struct worker *w)
{
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;

	/* Listed before the thread runs: it unlinks itself when it ends. */
	pthread_mutex_lock(&workers_lock);
	if (!pthread_create(&w->thread, NULL, worker_main, w)) {
		pthread_detach(w->thread);
		w->next = workers;
		workers = w;
		res = TEE_SUCCESS;
	}
	pthread_mutex_unlock(&workers_lock);
	return res;
}

void storage_ctl_request(struct core *c, uint32_t instance, const struct swtee_uuid *uuid,
			 struct buf_reader *r, struct msg_fds *fds, struct ta_reply *rep)
{
	struct worker *w = NULL;
	int sv[2] = {-1, -1};
	int bulk_fd = -1;
	const uint8_t *heap = NULL;
	size_t heap_len = 0;
	bool has_heap = false;
	TEE_Result res = TEE_ERROR_STORAGE_NOT_AVAILABLE;

	if (!buf_done(r) || fds->n > 1 || (fds->n && heap_map(fds->fd[0], &heap, &heap_len))) {
		rep->violation = "sent a malformed storage request";
		return;
	}
	has_heap = heap != NULL;
	if (worker_listed(instance)) {
		rep->violation = "asked for a second storage channel";
		if (heap)
			munmap((void *)heap, heap_len);
		return;
	}
	if (!storage_ready(c))
		goto reply;
	res = TEE_ERROR_OUT_OF_MEMORY;
	w = worker_new(heap, heap_len);
	if (!w)
		goto reply;
	heap = NULL; /* transferred */
	res = worker_channel(w, sv, &bulk_fd);
	if (!res)
		res = worker_fs_open(c, w);
	if (res)
		goto reply;
	w->sock = sv[0];
	sv[0] = -1; /* transferred */
	w->instance = instance;
	w->uuid = *uuid;
	res = worker_start(w);
	if (!res)
		w = NULL; /* the thread owns it */
reply:
	rep->type = MSG_CTL_STORAGE_RSP;
	rep->res = res;
	rep->word[0] = !res && has_heap ? 1 : 0;
	rep->nwords = 1;
	if (!res) {
		rep->fd[0] = sv[1];
		rep->fd[1] = bulk_fd;
		rep->nfds = 2;
		sv[1] = bulk_fd = -1; /* transferred */
	}
	if (heap)
		munmap((void *)heap, heap_len);
	if (w) {
		worker_release(w);
		worker_free(w);
	}
	for (int i = 0; i < 2; i++)
		if (sv[i] >= 0)
			close(sv[i]);
	if (bulk_fd >= 0)
		close(bulk_fd);
}

int storage_init(const char *secure_dir)
{
	/*
	 * Workers and store loads use buffers of 1-2 MiB: from mmap always, so
	 * that they go back to the kernel when freed. glibc would otherwise
	 * raise its threshold after the first free and keep them in the arena
	 * of each worker thread (some MiB of resident memory per arena).
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	if (!secure_dir || !*secure_dir) {
		log_info("no secure dir: trusted storage is off");
		return 0;
	}
	if (keys_init(secure_dir)) {
		log_error("cannot set up the storage keys in %s: trusted storage is off",
			  secure_dir);
		return -1;
	}
	return 0;
}

void storage_fini(void)
{
	struct timespec limit;

	/*
	 * Each worker finishes the request it runs, sees its instance's channel
	 * end and leaves its store checkpointed; one that takes longer than
	 * FINI_WAIT_S (a supplicant that stalls) has its REE FS channel cut.
	 */
	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += FINI_WAIT_S;
	pthread_mutex_lock(&workers_lock);
	for (struct worker *w = workers; w; w = w->next)
		shutdown(w->sock, SHUT_RDWR);
	while (workers && !pthread_cond_timedwait(&workers_ended, &workers_lock, &limit))
		;
	for (struct worker *w = workers; w; w = w->next)
		if (w->own_fs.sock >= 0)
			shutdown(w->own_fs.sock, SHUT_RDWR);
	while (workers)
		pthread_cond_wait(&workers_ended, &workers_lock);
	pthread_mutex_unlock(&workers_lock);
	keys_fini();
}
