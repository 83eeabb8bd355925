/*
 * Panic, cancellation and time. Cancellation is a word in the session's
 * control page that the client sets; reading it costs no round trip, and
 * TEE_Wait sleeps on it as a futex so that a cancellation wakes it at once.
 * Cancellation is masked when a session opens and stays as the TA sets it
 * for the session's later operations (as OP-TEE keeps it per session); while
 * masked, TEE_GetCancellationFlag is false and TEE_Wait is not cut short.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <stdio.h>
#include <unistd.h>

#include "runtime.h"

/*
 * The log names the caller of TEE_Panic: its symbol when the TA exports one,
 * else its offset in the TA's ELF (for addr2line).
 */
void TEE_Panic(TEE_Result panicCode)
{
	static char where[160];
	const void *caller = __builtin_extract_return_addr(__builtin_return_address(0));
	Dl_info info = {0};
	int n = -1;

	if (dladdr(caller, &info) && info.dli_sname && info.dli_saddr)
		n = snprintf(where, sizeof(where), "TEE_Panic, called from %s+0x%zx",
			     info.dli_sname,
			     (size_t)((const char *)caller - (const char *)info.dli_saddr));
	else if (info.dli_fbase)
		n = snprintf(where, sizeof(where), "TEE_Panic, called from offset 0x%zx of the TA",
			     (size_t)((const char *)caller - (const char *)info.dli_fbase));
	rt_panic(panicCode, n > 0 ? where : "TEE_Panic");
}

/* An [out] TEE_Time the TA passed: NULL is a programming error. */
static void check_time_out(const TEE_Time *time, const char *func)
{
	if (!time)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
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

#define NS_PER_MS INT64_C(1000000)
#define NS_PER_S INT64_C(1000000000)

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* The whole timeout, to the nanosecond: never a rounded-down millisecond less. */
TEE_Result TEE_Wait(uint32_t timeout)
{
	const struct rt_session *s = rt.current;
	int64_t deadline =
	    timeout == TEE_TIMEOUT_INFINITE ? INT64_MAX : now_ns() + (int64_t)timeout * NS_PER_MS;

	for (;;) {
		int64_t left = deadline - now_ns();
		struct timespec ts = {.tv_sec = 0};
		uint32_t seen = 0;

		if (s && !s->cancel_masked && cancel_requested(s))
			return TEE_ERROR_CANCEL;
		if (left <= 0)
			return TEE_SUCCESS;
		if (left > NS_PER_S)
			left = NS_PER_S; /* re-check now and then even without a wake */
		ts.tv_sec = left / NS_PER_S;
		ts.tv_nsec = (long)(left % NS_PER_S);
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

	check_time_out(time, "TEE_GetSystemTime");
	clock_gettime(CLOCK_MONOTONIC, &ts);
	time->seconds = (uint32_t)ts.tv_sec;
	time->millis = (uint32_t)(ts.tv_nsec / 1000000);
}

void TEE_GetREETime(TEE_Time *time)
{
	struct timespec ts;

	check_time_out(time, "TEE_GetREETime");
	clock_gettime(CLOCK_REALTIME, &ts);
	time->seconds = (uint32_t)ts.tv_sec;
	time->millis = (uint32_t)(ts.tv_nsec / 1000000);
}
