/* The checks of the xtest-shaped host program, one file each. */
#ifndef HOST_XTEST_H
#define HOST_XTEST_H

/* Each returns the number of failed checks, having printed each failure. */
int shdr_check(const char *path, const char *uuid);
int pta_check(void);
int sockets_check(void);

#endif
