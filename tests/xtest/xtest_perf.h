/*
 * The perf applets, run as "xtest --aes-perf ...", "xtest --hash-perf ..."
 * (alias --sha-perf) and "xtest --asym-perf ...". Each gets the command
 * line from its applet name on (argv[0] is "--aes-perf" etc.) and returns
 * the process exit status. xtest_main.c carries weak stand-ins that report
 * the applet as not built in; the real ones replace them at link time.
 */
#ifndef XTEST_PERF_H
#define XTEST_PERF_H

int aes_perf_runner_cmd_parser(int argc, char *argv[]);
int hash_perf_runner_cmd_parser(int argc, char *argv[]);
int asym_perf_runner_cmd_parser(int argc, char *argv[]);

#endif
