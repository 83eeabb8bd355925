global-incdirs-y += include
srcs-y += x509_ta.c

# Debian's mbedTLS (libmbedtls-dev), linked into the TA from its static
# libraries: the kit takes lib<name>.a where the compiler finds it.
libnames += mbedx509 mbedcrypto
