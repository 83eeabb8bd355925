global-incdirs-y += include
srcs-y += acipher_ta.c
