#ifndef SWTEE_RUN_H
#define SWTEE_RUN_H

/* swtee run [--state DIR] [--ta-path DIR]... -- CMD [ARGS]: see docs. */
int swtee_run_main(int argc, char **argv);

#endif
