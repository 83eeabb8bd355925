global-incdirs-y += include
srcs-y += ecdsa_ta.c
