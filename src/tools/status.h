#ifndef SWTEE_STATUS_H
#define SWTEE_STATUS_H

/* swtee status: what the running TEE holds. */
int swtee_status_main(int argc, char **argv);

#endif
