#ifndef SWTEE_STATUS_H
#define SWTEE_STATUS_H

/* swtee status: what the running TEE holds. */
int swtee_status_main(int argc, char **argv);
/*
 * swtee status --properties [TA]: the GP property sets a TA reads; with TA
 * (a UUID of an installed TA, or a .ta file), its TA set too. Returns the
 * exit status.
 */
int swtee_status_props(const char *ta);

#endif
