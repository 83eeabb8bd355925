/*
 * Panic, cancellation and time. Cancellation is a word in the session's
 * control page that the client sets; reading it costs no round trip, and
 * TEE_Wait sleeps on it as a futex so that a cancellation wakes it at once.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"

void TEE_Panic(TEE_Result panicCode)
{
	rt_panic(panicCode, NULL);
}

static bool cancel_requested(const struct rt_session *s)
{
	uint32_t v = 0;

	if (!s || !s->ctl)
		return false;
	v = atomic_load((_Atomic uint32_t *)&s->ctl->cancel_serial);
	return v != 0 && v == s->serial;
}

bool TEE_GetCancellationFlag(void)
{
	const struct rt_session *s = rt.current;

	return s && !s->cancel_masked && cancel_requested(s);
}

bool TEE_UnmaskCancellation(void)
{
	struct rt_session *s = rt.current;
	bool was = true;

	if (s) {
		was = s->cancel_masked;
		s->cancel_masked = false;
	}
	return was;
}

bool TEE_MaskCancellation(void)
{
	struct rt_session *s = rt.current;
	bool was = true;

	if (s) {
		was = s->cancel_masked;
		s->cancel_masked = true;
	}
	return was;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

TEE_Result TEE_Wait(uint32_t timeout)
{
	const struct rt_session *s = rt.current;
	int64_t deadline = timeout == TEE_TIMEOUT_INFINITE ? INT64_MAX : now_ms() + timeout;

	for (;;) {
		int64_t left = deadline - now_ms();
		struct timespec ts = { .tv_sec = 0 };
		uint32_t seen = 0;

		if (s && !s->cancel_masked && cancel_requested(s))
			return TEE_ERROR_CANCEL;
		if (left <= 0)
			return TEE_SUCCESS;
		if (left > 1000)
			left = 1000; /* re-check now and then even without a wake */
		ts.tv_sec = left / 1000;
		ts.tv_nsec = (long)(left % 1000) * 1000000;
		if (s && s->ctl) {
			seen = atomic_load((_Atomic uint32_t *)&s->ctl->cancel_serial);
			if (!s->cancel_masked && seen == s->serial && seen)
				continue;
			syscall(SYS_futex, &s->ctl->cancel_serial, FUTEX_WAIT, seen, &ts, NULL, 0);
		} else {
			nanosleep(&ts, NULL);
		}
	}
}

void TEE_GetSystemTime(TEE_Time *time)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	time->seconds = (uint32_t)ts.tv_sec;
	time->millis = (uint32_t)(ts.tv_nsec / 1000000);
}

void TEE_GetREETime(TEE_Time *time)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	time->seconds = (uint32_t)ts.tv_sec;
	time->millis = (uint32_t)(ts.tv_nsec / 1000000);
}
