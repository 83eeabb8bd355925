incdirs-y += private
srcs-y += sub.c
cflags-y += -DSUB_FLAG=3
