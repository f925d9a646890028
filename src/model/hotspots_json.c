/* The workload's "hotspots" and "sampling" (SPEC §3.1), written and read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotspots.h"
#include "json_doc.h"
#include "json_emit.h"

static void sampling_emit(struct ud_jw *jw, const struct ud_sampling *s)
{
	ud_jw_object(jw, "sampling");
	ud_jw_string(jw, "event", s->event);
	ud_jw_number(jw, "frequency_hz", s->frequency_hz);
	ud_jw_number(jw, "samples", s->samples);
	if (isfinite(s->lost))
		ud_jw_number(jw, "lost", s->lost);
	if (isfinite(s->truncated))
		ud_jw_number(jw, "truncated", s->truncated);
	if (s->kernel_symbols)
		ud_jw_string(jw, "kernel_symbols", s->kernel_symbols);
	if (s->ndsos) {
		ud_jw_array(jw, "dsos");
		for (size_t i = 0; i < s->ndsos; i++) {
			ud_jw_object(jw, NULL);
			ud_jw_string(jw, "path", s->dsos[i].path);
			ud_jw_string(jw, "build_id", s->dsos[i].build_id);
			ud_jw_end(jw);
		}
		ud_jw_end(jw);
	}
	ud_jw_end(jw);
}

void ud_hotspots_emit(struct ud_jw *jw, const struct ud_hotspots *h)
{
	ud_jw_array(jw, "hotspots");
	for (size_t i = 0; i < h->nrows; i++) {
		const struct ud_hotspot *r = &h->rows[i];

		ud_jw_object(jw, NULL);
		ud_jw_string(jw, "symbol", r->symbol);
		ud_jw_string(jw, "dso", r->dso);
		ud_jw_string(jw, "mode", r->mode == UD_MODE_COUNT ? NULL : ud_mode_name(r->mode));
		ud_jw_number(jw, "share", r->share);
		ud_jw_number(jw, "samples", r->samples);
		ud_jw_end(jw);
	}
	ud_jw_end(jw);
	sampling_emit(jw, &h->sampling);
}

/* ---- reading ---- */

static double opt_num(struct ud_jv o, const char *key, int *bad)
{
	struct ud_jv v = ud_jv_get(o, key);

	if (ud_jv_is_missing(v))
		return NAN;
	if (!ud_jv_is_number(v))
		*bad = 1;
	return ud_jv_number(v);
}

static const char *opt_str(struct ud_jv o, const char *key, int *bad)
{
	struct ud_jv v = ud_jv_get(o, key);

	if (!ud_jv_is_missing(v) && !ud_jv_is_string(v))
		*bad = 1;
	return ud_jv_string(v);
}

static int read_row(struct ud_hotspots *h, struct ud_jv r, int *bad)
{
	const char *symbol = opt_str(r, "symbol", bad), *dso = opt_str(r, "dso", bad), *mode = opt_str(r, "mode", bad);
	double share = opt_num(r, "share", bad), samples = opt_num(r, "samples", bad);
	enum ud_mode m = UD_MODE_COUNT;

	if (!symbol || !isfinite(share) || share < 0 || (mode && ud_mode_from_name(mode, &m) != 0))
		*bad = 1;
	if (*bad)
		return 0;
	return ud_hotspots_add(h, symbol, dso, m, share, samples);
}

static int read_sampling(struct ud_hotspots *h, struct ud_jv s, int *bad)
{
	struct ud_sampling *sm = &h->sampling;
	const char *event = opt_str(s, "event", bad), *ks = opt_str(s, "kernel_symbols", bad);
	struct ud_jv dsos = ud_jv_get(s, "dsos"), d;

	sm->frequency_hz = opt_num(s, "frequency_hz", bad);
	sm->samples = opt_num(s, "samples", bad);
	sm->lost = opt_num(s, "lost", bad);
	sm->truncated = opt_num(s, "truncated", bad);
	if ((event && !(sm->event = strdup(event))) || (ks && !(sm->kernel_symbols = strdup(ks))))
		return -1;
	if (!ud_jv_absent(dsos) && !ud_jv_is_array(dsos))
		*bad = 1;
	ud_jv_foreach(dsos, d) {
		const char *path = opt_str(d, "path", bad), *id = opt_str(d, "build_id", bad);

		if (!path)
			*bad = 1;
		if (*bad)
			return 0;
		if (ud_hotspots_add_dso(h, path, id) != 0)
			return -1;
	}
	return 0;
}

int ud_hotspots_from_doc(struct ud_jv w, const char *where, struct ud_hotspots **out, struct ud_err *err)
{
	struct ud_jv rows = ud_jv_get(w, "hotspots"), s = ud_jv_get(w, "sampling"), r;
	struct ud_hotspots *h;
	int bad = 0, oom = 0;

	*out = NULL;
	if (ud_jv_absent(rows) && ud_jv_absent(s))
		return 0;
	if ((!ud_jv_absent(rows) && !ud_jv_is_array(rows)) || (!ud_jv_absent(s) && !ud_jv_is_object(s)))
		return ud_fail(err, "%s: hotspots: expected an array and sampling an object", where);
	h = ud_hotspots_new();
	if (!h)
		return ud_fail(err, "out of memory");
	ud_jv_foreach(rows, r) {
		if (!ud_jv_is_object(r)) {
			bad = 1;
			break;
		}
		if (read_row(h, r, &bad) != 0) {
			oom = 1;
			break;
		}
		if (bad)
			break;
	}
	if (!bad && !oom && !ud_jv_absent(s) && read_sampling(h, s, &bad) != 0)
		oom = 1;
	if (bad || oom) {
		ud_hotspots_free(h);
		return oom ? ud_fail(err, "out of memory")
			   : ud_fail(err, "%s: hotspots: each row needs a string symbol, a share >= 0 and mode "
					  "user, kernel or null; sampling numbers or null",
				     where);
	}
	*out = h;
	return 0;
}
