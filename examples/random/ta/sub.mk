global-incdirs-y += include
srcs-y += random_ta.c
