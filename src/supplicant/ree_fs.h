/*
 * The REE file system service of tee-supplicant: the files of swtee's trusted
 * storage, which the supplicant reads and writes for the core. It sees only
 * ciphertext and opaque names, and holds no key.
 */
#ifndef SWTEE_REE_FS_H
#define SWTEE_REE_FS_H

/*
 * Serves one REE FS channel (proto.h, MSG_FS_BATCH) on a thread of its own
 * until the core closes it. root is the storage directory (-f); sock and
 * win_fd are taken over (closed on failure too). Returns 0, or -1 when the
 * channel cannot be served.
 */
int ree_fs_serve_channel(const char *root, int sock, int win_fd);

/*
 * Large files are removed in the background (ree_fs.c). ree_fs_init, before
 * the first channel and after any fork, opens root (the storage path) for
 * that and queues the trash a supplicant that did not finish left there;
 * without it, channels remove every file themselves. ree_fs_finish waits
 * until the queue is done.
 */
void ree_fs_init(const char *root);
void ree_fs_finish(void);

#endif
