global-incdirs-y += include
srcs-y += bugs_ta.c
# The planted bugs must stay as written.
cflags-bugs_ta.c-y += -O0
