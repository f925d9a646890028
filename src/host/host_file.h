/*
 * host_file.h - a host's facts brought from where they were collected.
 *
 * `uarchdiff host --json` run on a machine prints its facts; `import --host
 * FILE` attaches them to a profile imported from that machine's perf or
 * UnixBench output, so that the diff can compare kernels, hypervisors and
 * mitigations for data that did not come from `run`.  FILE holds either the
 * host object itself or a document with a "host" object in it (a profile).
 */
#ifndef UD_HOST_FILE_H
#define UD_HOST_FILE_H

#include "error.h"
#include "host_facts.h"

/*
 * Reads and checks the host object in path (host_facts.h's reader).
 * Returns the facts, which the caller frees, or NULL with err set to one
 * line naming the file: missing, not JSON (with line:column), not a host
 * object, or a fact of the wrong type.
 */
struct ud_host *ud_host_file_load(const char *path, struct ud_err *err);

#endif
