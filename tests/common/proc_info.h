/*
 * What the leak and load tests read of another process in /proc: its open
 * descriptors and the numbers of its status file.
 */
#ifndef SWTEE_TEST_PROC_INFO_H
#define SWTEE_TEST_PROC_INFO_H

#include <sys/types.h>

/* The descriptors pid has open, or -1 when /proc/PID/fd cannot be read. */
long proc_fd_count(pid_t pid);
/* The number of the "KEY:" line of /proc/PID/status (VmRSS in kB, PPid, ...), or -1. */
long proc_status_field(pid_t pid, const char *key);

#endif
