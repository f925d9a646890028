# Sourced by the tests that validate documents against schemas/ (schemas.sh, fuzz-roundtrip.sh):
# sets py to a python3 with the jsonschema module, or skips the test (exit 77) saying why.
# Debian's /usr/bin/python3 has python3-jsonschema; a python3 earlier on PATH (pyenv's) may not.
py=
for p in /usr/bin/python3 python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import jsonschema' 2>/dev/null; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "SKIPPED: no python3 with the jsonschema module (Debian: apt-get install python3-jsonschema; scripts/install-deps.sh does)"
	exit 77
fi
