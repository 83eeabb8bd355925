global-incdirs-y += include ../lib/include
srcs-y += features_ta.c
subdirs-y += sub

cflags-y += -DTOP_FLAG=1
cflags-features_ta.c-y += -DFILE_FLAG=2
# A flag the kit itself sets, dropped for this one file.
cflags-remove-features_ta.c-y += -D__SWTEE__=1
