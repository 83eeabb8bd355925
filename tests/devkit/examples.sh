#!/bin/sh
# examples.sh NAME: builds examples/NAME in a copy, exactly as an OP-TEE user
# builds an example (make -C DIR TA_DEV_KIT_DIR=... TEEC_EXPORT=...), and
# runs its client against a private TEE with the built TA. The client checks
# its own results. Skipped, with the reason, when the TA calls GP functions
# this TA runtime does not provide yet.
. "$(dirname "$0")/common.sh"

name=$1
copy "$SWTEE_SOURCE/examples/$name" "$name"
build "$WORK/$name" || fail "$name does not build"
elf=$(ls "$WORK/$name"/ta/*.elf)
ta=$(ls "$WORK/$name"/ta/*.ta)
[ -f "$ta" ] || fail "$name: no signed .ta"
"$SWTEE" sign --verify --key "$KIT/keys/default_ta.pem" --in "$ta" ||
	fail "$name: the image does not verify with the kit's key"
absent=$(missing_gp "$elf")
if [ -n "$absent" ]; then
	skip "$name builds, but the TA runtime does not provide yet: $absent"
fi
client=$(ls "$WORK/$name"/host/swtee_example_*)
run "$WORK/$name/ta" "$WORK/log" "$client" || fail "$name: the client reports a failure"
echo "PASS: $name"
