# swtee: tpm2-tools reach the firmware TPM of the system TEE (swtee-tpm.service)
# when no TCTI is chosen. Only the members of the "tee" group see its socket.
if [ -z "${TPM2TOOLS_TCTI:-}" ] && [ -S /run/swtee-tpm/swtpm ]; then
	TPM2TOOLS_TCTI=swtpm:path=/run/swtee-tpm/swtpm
	export TPM2TOOLS_TCTI
fi
