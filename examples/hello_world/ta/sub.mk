global-incdirs-y += include
srcs-y += hello_world_ta.c

# A flag for one file only, or one the kit sets that a file does without:
# cflags-hello_world_ta.c-y += -Wno-strict-prototypes
# cflags-remove-hello_world_ta.c-y += -Wshadow
