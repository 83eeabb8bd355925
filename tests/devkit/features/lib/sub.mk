global-incdirs-y += include
srcs-y += featlib.c
