/* Process log on stderr: "<prog>: <message>" (prog "": the message alone). Never pass secrets. */
#ifndef SWTEE_LOG_H
#define SWTEE_LOG_H

enum { LOG_LVL_ERROR = 1, LOG_LVL_INFO = 2, LOG_LVL_DEBUG = 3 };

void log_init(const char *prog, int level);
int log_level(void);
void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_error(...) log_msg(LOG_LVL_ERROR, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LVL_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LVL_DEBUG, __VA_ARGS__)

#endif
