global-incdirs-y += include
srcs-y += aes_ta.c
