/*
 * import_request.h - an import as `uarchdiff import` asks it: its options
 * folded into one request (the importers' options, the host the pastes
 * were taken on, the output), and the files read into one profile, the
 * output checked before any is read.
 */
#ifndef UD_IMPORT_REQUEST_H
#define UD_IMPORT_REQUEST_H

#include <stddef.h>

#include "import.h"
#include "profile.h"

/* What the options asked (zeroed first); the strings borrowed from the command line. */
struct ud_import_request {
	struct ud_import_opts o;
	const char *label, *cpuinfo, *uarch, *host, *output;
	const char **facts; /* --fact, pointing into argv (owned array, ud_import_request_free()) */
	size_t nfacts;
	long runs;          /* --runs; 0 none */
	/* what an importer noticed but could take (a UnixBench table cut short), a line each, as it comes */
	void (*warn)(void *ctx, const char *line);
	void *ctx;
};

/* --fact KEY=VALUE, kept as given (repeatable), read with the host's other facts.  0, or -1 with err. */
int ud_import_request_fact(struct ud_import_request *rq, const char *arg, struct ud_err *err);

/*
 * Reads files into a new profile, as rq asks: -o checked first (refused
 * where it names an input), the host made from --host, --cpuinfo, --uarch
 * and --fact, each file imported (a --score on exactly one workload), the
 * counters classified, and the host labelled by the first file where
 * nothing named it.  Returns a new profile (ud_profile_free()) with
 * *firsts a new array (caller frees) of each file's first workload, or
 * NULL with err.
 */
struct ud_profile *ud_import_request_run(struct ud_import_request *rq, char **files, int nfiles, size_t **firsts,
					 struct ud_err *err);

/* Frees what the request allocated (the scores, the facts, the seen set); rq zeroed. */
void ud_import_request_free(struct ud_import_request *rq);

#endif
