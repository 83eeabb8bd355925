#!/usr/bin/env python3
"""Prints the GP login identity UUID (version 5 in swtee's login namespace)."""
import sys
import uuid

NS = uuid.UUID("58ac9ca0-2086-4683-a1b8-ec4bc08e01b6")
print(uuid.uuid5(NS, sys.argv[1]))
