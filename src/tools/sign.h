/* `swtee sign`: sign a TA ELF into <uuid>.ta, or verify a signed image. */
#ifndef SWTEE_SIGN_H
#define SWTEE_SIGN_H

/*
 * argv[0] is the subcommand name ("sign"); options follow.
 * Returns the exit status: 0 success, 1 failure, 2 usage error.
 */
int swtee_sign_main(int argc, char **argv);

#endif
