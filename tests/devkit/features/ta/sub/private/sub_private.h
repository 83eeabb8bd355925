#ifndef SUB_PRIVATE_H
#define SUB_PRIVATE_H

#define SUB_PRIVATE_MAGIC 0x5b

#endif
