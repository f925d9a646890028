/*
 * import_request.c - an import as `uarchdiff import` asks it
 * (import_request.h): the request's options folded into the importers'
 * and the host's, every file read into one profile.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "host_import.h"
#include "import_request.h"
#include "outfile.h"

int ud_import_request_fact(struct ud_import_request *rq, const char *arg, struct ud_err *err)
{
	const char **grown = realloc(rq->facts, (rq->nfacts + 1) * sizeof(*grown));

	if (!grown)
		return ud_fail(err, "out of memory");
	rq->facts = grown;
	rq->facts[rq->nfacts++] = arg;
	return 0;
}

/*
 * Without --label the host is named later, after the files: one that names
 * its host (a robot table names its commit) is heard first, and the first
 * file's name is the fallback (label_by_file).
 */
static struct ud_host *imported_host(const struct ud_import_request *rq, struct ud_err *err)
{
	struct ud_host_import o = { .label = rq->label, .host_path = rq->host, .cpuinfo_path = rq->cpuinfo,
				    .uarch = rq->uarch, .facts = rq->facts, .nfacts = rq->nfacts };

	return ud_host_for_import(&o, err);
}

/*
 * The first file's name as the label where neither --label nor the files
 * named the host; a --host file's own label (or none) stands, as before.
 */
static int label_by_file(const struct ud_import_request *rq, struct ud_host *h, const char *first)
{
	const char *base = strrchr(first, '/');

	return h->label || rq->host ? 0 : ud_host_set_string(&h->label, base ? base + 1 : first);
}

/* Imports every file into p; a --score must land on exactly one workload. */
static int import_files(const struct ud_import_request *rq, struct ud_profile *p, char **files, int nfiles,
			size_t *firsts, struct ud_err *err)
{
	for (int i = 0; i < nfiles; i++) {
		struct ud_import_warnings warn = { 0 };
		size_t before = p->nworkloads;
		int ret = ud_import_file_warn(p, files[i], &rq->o, &warn, err);

		for (size_t k = 0; k < warn.n && rq->warn; k++)
			rq->warn(rq->ctx, warn.lines[k]);
		ud_import_warnings_free(&warn);
		if (ret != 0)
			return -1;
		if (rq->o.nscores && p->nworkloads - before != 1)
			return ud_fail(err, "%s: --score names one workload, and the file holds %zu", files[i],
				       p->nworkloads - before);
		firsts[i] = before;
	}
	return 0;
}

/*
 * -o checked before anything is read, as ud_outfile_check() checks it, and
 * refused when it names a file read: a paste, --host or --cpuinfo.
 */
static int check_output(const struct ud_import_request *rq, char **files, int nfiles, struct ud_err *err)
{
	const char **inputs = calloc((size_t)nfiles + 2, sizeof(*inputs));
	size_t n = 0;
	int ret;

	if (!inputs)
		return ud_fail(err, "out of memory");
	for (int i = 0; i < nfiles; i++)
		inputs[n++] = files[i];
	if (rq->host)
		inputs[n++] = rq->host;
	if (rq->cpuinfo)
		inputs[n++] = rq->cpuinfo;
	ret = ud_outfile_check_inputs("-o", rq->output, inputs, n, err);
	free(inputs);
	return ret;
}

struct ud_profile *ud_import_request_run(struct ud_import_request *rq, char **files, int nfiles, size_t **firsts,
					 struct ud_err *err)
{
	struct ud_profile *p = NULL;
	struct ud_host *host;

	*firsts = NULL;
	rq->o.runs = (int)rq->runs;
	/* one set for all the files: a workload pasted in two of them is refused, naming both */
	rq->o.seen = ud_import_seen_new();
	/* -o is checked before the inputs are read, and created only once they all parsed. */
	if (check_output(rq, files, nfiles, err) != 0)
		return NULL;
	host = imported_host(rq, err);
	p = host ? ud_profile_new(host) : NULL;
	*firsts = calloc((size_t)nfiles, sizeof(**firsts));
	if (!*firsts || !rq->o.seen)
		ud_fail(err, "out of memory");
	if (!*firsts || !rq->o.seen || !p || import_files(rq, p, files, nfiles, *firsts, err) != 0)
		goto fail;
	ud_import_classify_by_table(p);
	if (label_by_file(rq, p->host, files[0]) != 0) {
		ud_fail(err, "out of memory");
		goto fail;
	}
	return p;
fail:
	free(*firsts);
	*firsts = NULL;
	ud_profile_free(p);
	return NULL;
}

void ud_import_request_free(struct ud_import_request *rq)
{
	free(rq->o.scores);
	ud_import_seen_free(rq->o.seen);
	free(rq->facts);
	*rq = (struct ud_import_request){ 0 };
}
