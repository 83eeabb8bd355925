/*
 * What TA processes write. The zygote and every instance have their
 * standard output and standard error on a pipe of their own whose other end
 * only the core reads: each line goes on the core's log behind a name the
 * core gives (the zygote, a spare, or "TA <uuid>" once the instance is
 * loaded), so no TA can write a line that passes for another's or for the
 * core's, nor reach the terminal or the file the TEE's log goes to. Control
 * characters are written as \xNN; a line longer than the log takes is cut
 * into several. A pipe stays open after its instance record is freed, until
 * the process is gone, so a TA's last words are not lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "log.h"

/* What one line of the log carries of a TA's text, escapes included. */
#define OUTPUT_LINE_MAX 900
/*
 * A process writes at most this many lines per window: past it, its pipe
 * is not read until the window ends, so a flood fills the pipe and blocks
 * the writer alone, never the core, and loses nothing.
 */
#define OUTPUT_WINDOW_MS 100
#define OUTPUT_WINDOW_LINES 200
/* One read: at most this many more lines than the window allows. */
#define OUTPUT_READ 1024

struct ta_output {
	struct endpoint ep;
	uint32_t tag; /* the fork tag of its process; 0 for the zygote */
	char name[48];
	size_t len;
	char line[OUTPUT_LINE_MAX + 1];
	uint32_t lines;	       /* logged in this window */
	struct timespec until; /* the window's end */
	bool paused;	       /* out of the epoll set until then */
	struct ta_output *next;
};

static void output_flush(struct ta_output *o)
{
	if (!o->len)
		return;
	o->line[o->len] = '\0';
	log_msg(LOG_LVL_ERROR, "%s: %s", o->name, o->line);
	o->len = 0;
	o->lines++;
}

/* Appends byte ch of the text, escaped when it is a control character. */
static void output_byte(struct ta_output *o, unsigned char ch)
{
	char esc[5];
	size_t n = 1;

	if (ch == '\n') {
		output_flush(o);
		return;
	}
	esc[0] = (char)ch;
	if (ch < 0x20 || ch == 0x7f) {
		if (ch == '\t')
			esc[0] = ' ';
		else
			n = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", ch);
	}
	if (o->len + n > OUTPUT_LINE_MAX)
		output_flush(o);
	memcpy(o->line + o->len, esc, n);
	o->len += n;
}

static void output_free(struct core *c, struct ta_output *o)
{
	struct ta_output **pp = &c->outputs;

	output_flush(o);
	while (*pp && *pp != o)
		pp = &(*pp)->next;
	if (*pp)
		*pp = o->next;
	if (!o->paused)
		core_unwatch(c, &o->ep);
	close(o->ep.fd);
	free(o);
}

int ta_output_open(struct core *c, uint32_t tag, const char *name)
{
	struct ta_output *o = calloc(1, sizeof(*o));
	int p[2] = {-1, -1};

	if (!o)
		return -1;
	if (pipe2(p, O_CLOEXEC)) {
		free(o);
		return -1;
	}
	/* The core never waits on what a TA writes; the TA waits on the core. */
	if (fcntl(p[0], F_SETFL, O_NONBLOCK)) {
		close(p[0]);
		close(p[1]);
		free(o);
		return -1;
	}
	o->ep.kind = EP_TA_OUTPUT;
	o->ep.fd = p[0];
	o->ep.owner = o;
	o->tag = tag;
	snprintf(o->name, sizeof(o->name), "%s", name);
	if (core_watch(c, &o->ep)) {
		close(p[0]);
		close(p[1]);
		free(o);
		return -1;
	}
	o->next = c->outputs;
	c->outputs = o;
	return p[1];
}

void ta_output_name(struct core *c, uint32_t tag, const struct swtee_uuid *uuid)
{
	char u[SWTEE_UUID_STR_LEN];

	uuid_format(uuid, u);
	for (struct ta_output *o = c->outputs; o; o = o->next) {
		if (o->tag != tag)
			continue;
		/* What the spare wrote before it was given its TA is its own. */
		output_flush(o);
		snprintf(o->name, sizeof(o->name), "TA %s", u);
		return;
	}
}

/*
 * Reads one pipe's worth at most, so that a TA that writes without end
 * takes its turn in the loop like any other peer.
 */
void ta_output_readable(struct core *c, struct ta_output *o)
{
	unsigned char buf[OUTPUT_READ];
	struct timespec now;
	ssize_t n = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (deadline_passed(&o->until, &now)) {
		o->lines = 0;
		deadline_in(&o->until, OUTPUT_WINDOW_MS);
	}
	if (o->lines >= OUTPUT_WINDOW_LINES) {
		/* Its window is used up: the pipe waits for ta_output_tick. */
		core_unwatch(c, &o->ep);
		o->paused = true;
		return;
	}
	n = read(o->ep.fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		output_free(c, o);
		return;
	}
	for (ssize_t i = 0; i < n; i++)
		output_byte(o, buf[i]);
}

bool ta_output_tick(struct core *c, const struct timespec *now)
{
	bool paused = false;

	for (struct ta_output *o = c->outputs; o; o = o->next) {
		if (!o->paused)
			continue;
		if (!deadline_passed(&o->until, now)) {
			paused = true;
			continue;
		}
		o->paused = false;
		if (core_watch(c, &o->ep))
			log_error("%s: its output can no longer be read", o->name);
	}
	return paused;
}

/* At shutdown: what is still in the pipes, until each process is gone or wait_ms has passed. */
void ta_output_drain(struct core *c, int wait_ms)
{
	struct timespec end;
	struct timespec now;

	deadline_in(&end, wait_ms);
	while (c->outputs) {
		struct pollfd p[64];
		struct ta_output *o = c->outputs;
		nfds_t k = 0;
		long left = 0;

		for (; o && k < 64; o = o->next, k++)
			p[k] = (struct pollfd){.fd = o->ep.fd, .events = POLLIN};
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (end.tv_sec - now.tv_sec) * 1000 + (end.tv_nsec - now.tv_nsec) / 1000000;
		if (left <= 0 || poll(p, k, (int)left) <= 0)
			break;
		o = c->outputs;
		for (nfds_t i = 0; i < k && o; i++) {
			struct ta_output *next = o->next;

			/* No windows at shutdown: what is there is logged. */
			o->lines = 0;
			if (!o->paused)
				core_unwatch(c, &o->ep);
			o->paused = true;
			if (p[i].revents)
				ta_output_readable(c, o);
			o = next;
		}
	}
	while (c->outputs)
		output_free(c, c->outputs);
}
