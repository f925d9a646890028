#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derived.h"
#include "diff.h"
#include "stats.h"

enum { F_PATH, F_IPC, F_FREQ, F_UTIL, F_UNEXPLAINED, NFACTORS };

static const char *const factor_names[NFACTORS] = {
	"path_length", "ipc", "frequency", "utilization", "unexplained",
};

/* Rank-test p below which a speedup counts as outside the noise. */
#define ALPHA 0.05

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static double ratio(double num_, double den)
{
	return isfinite(num_) && isfinite(den) && den != 0 ? num_ / den : NAN;
}

static const char *host_label(const struct ud_profile *p, const char *fallback)
{
	const char *l = json_string_value(json_object_get(p->host, "label"));

	return l ? l : fallback;
}

/* The workloads of one profile sorted by name, so pairing is n log n. */
struct index {
	const struct ud_workload **w;
	size_t n;
};

static int cmp_workload(const void *x, const void *y)
{
	return strcmp((*(const struct ud_workload *const *)x)->name, (*(const struct ud_workload *const *)y)->name);
}

static int index_build(struct index *ix, const struct ud_profile *p)
{
	ix->n = p->nworkloads;
	ix->w = malloc((ix->n ? ix->n : 1) * sizeof(*ix->w));
	if (!ix->w)
		return -1;
	for (size_t i = 0; i < ix->n; i++)
		ix->w[i] = &p->workloads[i];
	qsort(ix->w, ix->n, sizeof(*ix->w), cmp_workload);
	return 0;
}

static const struct ud_workload *find_workload(const struct index *ix, const char *name)
{
	struct ud_workload key = { .name = (char *)name };
	const struct ud_workload *k = &key, *const *hit = bsearch(&k, ix->w, ix->n, sizeof(*ix->w), cmp_workload);

	return hit ? *hit : NULL;
}

/* ---- per workload ---- */

struct pair {
	const struct ud_workload *a, *b;
	double speedup;
	double f[NFACTORS];
	const char *work_basis;
};

/* Work per run: work_units where both know it, else what the score implies. */
static void work_per_run(struct pair *pr, double *ua, double *ub)
{
	const struct ud_workload *a = pr->a, *b = pr->b;

	if (isfinite(a->work_units) && isfinite(b->work_units) && a->work_units > 0 && b->work_units > 0) {
		*ua = a->work_units;
		*ub = b->work_units;
		pr->work_basis = "work_units";
	} else if (a->higher_is_better != 0) {
		*ua = a->score.median * a->elapsed_ns / 1e9;
		*ub = b->score.median * b->elapsed_ns / 1e9;
		pr->work_basis = "score x elapsed (assumed: the score is a rate sustained over the whole measured run)";
	} else {
		*ua = *ub = 1;
		pr->work_basis = "one run of the command per measurement (assumed)";
	}
}

static void factors(struct pair *pr)
{
	const struct ud_workload *a = pr->a, *b = pr->b;
	double ua, ub, product = 1;

	work_per_run(pr, &ua, &ub);
	pr->f[F_PATH] = ratio(ratio(ud_workload_value(a, "instructions"), ua), ratio(ud_workload_value(b, "instructions"), ub));
	pr->f[F_IPC] = ratio(ud_metric(b, UD_M_IPC), ud_metric(a, UD_M_IPC));
	pr->f[F_FREQ] = ratio(ud_metric(b, UD_M_GHZ), ud_metric(a, UD_M_GHZ));
	pr->f[F_UTIL] = ratio(ud_metric(b, UD_M_CPUS_UTILIZED), ud_metric(a, UD_M_CPUS_UTILIZED));
	for (int i = 0; i < F_UNEXPLAINED; i++) {
		if (!(pr->f[i] > 0) || !isfinite(pr->f[i]))
			pr->f[i] = NAN;
		else
			product *= pr->f[i];
	}
	/* What the counters do not explain, so that the product is the speedup. */
	pr->f[F_UNEXPLAINED] = pr->speedup / product;
}

static json_t *factors_json(const struct pair *pr, json_t **shares)
{
	json_t *f = json_object();
	double l = log(pr->speedup);

	*shares = json_object();
	for (int i = 0; i < NFACTORS; i++) {
		json_object_set_new(f, factor_names[i], num(pr->f[i]));
		/* A speedup of exactly 1 has no log to share out. */
		json_object_set_new(*shares, factor_names[i], num(l != 0 ? log(pr->f[i]) / l : NAN));
	}
	return f;
}

static json_t *metrics_json(const struct ud_workload *a, const struct ud_workload *b)
{
	json_t *m = json_object();

	for (int i = 0; i < UD_METRIC_COUNT; i++) {
		double va = ud_metric(a, (enum ud_metric)i), vb = ud_metric(b, (enum ud_metric)i);

		json_object_set_new(m, ud_metric_name((enum ud_metric)i),
				    json_pack("{s:o s:o s:o}", "a", num(va), "b", num(vb), "ratio", num(ratio(vb, va))));
	}
	return m;
}

static const struct ud_uarch *host_uarch(const struct ud_profile *p, const struct ud_uarch_db *db)
{
	const char *name = json_string_value(json_object_get(json_object_get(p->host, "cpu"), "uarch"));

	return db && name ? ud_uarch_find(db, name) : NULL;
}

static json_t *penalties_json(const struct ud_uarch *u)
{
	if (!u || !isfinite(u->penalty_branch) || !isfinite(u->penalty_l1d))
		return json_pack("{s:o s:n s:n}", "uarch", u ? json_string(u->name) : json_null(), "branch_mispredict",
				 "l1d_miss");
	return json_pack("{s:s s:{s:f s:s} s:{s:f s:s}}", "uarch", u->name, "branch_mispredict", "cycles",
			 u->penalty_branch, "source", u->penalty_branch_source, "l1d_miss", "cycles", u->penalty_l1d,
			 "source", u->penalty_l1d_source);
}

/*
 * ΔCPI = cpi_A - cpi_B split into what branch and L1d misses cost on each
 * host, by its own penalties (the document's "cpi_penalties"); "other" is
 * the residual, which an out-of-order core always leaves (Eyerman et al.,
 * ASPLOS 2006).
 */
static json_t *cpi_stack_json(const struct pair *pr, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	double cpi_a = ud_metric(pr->a, UD_M_CPI), cpi_b = ud_metric(pr->b, UD_M_CPI), delta = cpi_a - cpi_b;
	double pb_a = ua ? ua->penalty_branch : NAN, pb_b = ub ? ub->penalty_branch : NAN;
	double pl_a = ua ? ua->penalty_l1d : NAN, pl_b = ub ? ub->penalty_l1d : NAN;
	double branch = (ud_metric(pr->a, UD_M_BRANCH_MPKI) * pb_a - ud_metric(pr->b, UD_M_BRANCH_MPKI) * pb_b) / 1000;
	double l1d = (ud_metric(pr->a, UD_M_L1D_MPKI) * pl_a - ud_metric(pr->b, UD_M_L1D_MPKI) * pl_b) / 1000;
	double other = delta - (isfinite(branch) ? branch : 0) - (isfinite(l1d) ? l1d : 0);

	return json_pack("{s:o s:o s:o s:o s:o s:o}", "cpi_a", num(cpi_a), "cpi_b", num(cpi_b), "delta_cpi",
			 num(delta), "branch", num(branch), "l1d", num(l1d), "other", num(other));
}

/* The smallest p the rank test can give for these sample sizes: complete separation. */
static double best_possible_p(size_t na, size_t nb)
{
	double *a = malloc(na * sizeof(double)), *b = malloc(nb * sizeof(double)), p = 1;

	if (a && b) {
		for (size_t i = 0; i < na; i++)
			a[i] = -(double)i;
		for (size_t i = 0; i < nb; i++)
			b[i] = 1 + (double)i;
		p = ud_mann_whitney_p(a, na, b, nb);
	}
	free(a);
	free(b);
	return p;
}

static json_t *significance_json(const struct pair *pr)
{
	const struct ud_score *sa = &pr->a->score, *sb = &pr->b->score;
	double ca = sa->ci95_rel, cb = sb->ci95_rel;
	char note[160];

	/* The rank test where the samples can reach ALPHA at all (5 and 5 can: p >= 0.008). */
	if (sa->nsamples >= 2 && sb->nsamples >= 2 && best_possible_p(sa->nsamples, sb->nsamples) < ALPHA) {
		double p = ud_mann_whitney_p(sa->samples, sa->nsamples, sb->samples, sb->nsamples);

		snprintf(note, sizeof(note), "Mann-Whitney U on %zu and %zu samples: p = %.4g", sa->nsamples,
			 sb->nsamples, p);
		return json_pack("{s:b s:s s:f s:s}", "significant", p < ALPHA, "method", "mann-whitney", "p", p, "note",
				 note);
	}
	if (isfinite(ca) && isfinite(cb)) {
		snprintf(note, sizeof(note), "speedup %.4g against the two 95%% intervals (+-%.2f%%, +-%.2f%%)",
			 pr->speedup, 100 * ca, 100 * cb);
		return json_pack("{s:b s:s s:n s:s}", "significant", fabs(pr->speedup - 1) > ca + cb, "method", "ci95",
				 "p", "note", note);
	}
	return json_pack("{s:n s:s s:n s:s}", "significant", "method", "single-run", "p", "note",
			 "single runs (imported?): no noise was measured on one side or both");
}

static const char *dominant(const struct pair *pr)
{
	int best = -1;
	double l = log(pr->speedup), top = 0;

	for (int i = 0; i < NFACTORS && l != 0; i++) {
		double share = log(pr->f[i]) / l;

		if (isfinite(share) && fabs(share) > top) {
			top = fabs(share);
			best = i;
		}
	}
	return best < 0 ? NULL : factor_names[best];
}

static void move(char *buf, size_t len, const char *what, double a, double b, const char *fmt)
{
	char fa[32], fb[32];

	snprintf(fa, sizeof(fa), fmt, a);
	snprintf(fb, sizeof(fb), fmt, b);
	snprintf(buf, len, "%s %s -> %s", what, fa, fb);
}

static json_t *explanation(const struct pair *pr, const char *la, const char *lb)
{
	const char *dom = dominant(pr);
	const struct ud_workload *a = pr->a, *b = pr->b;
	double l = log(pr->speedup);
	char first[256], second[512] = "", m1[96], m2[96];

	snprintf(first, sizeof(first), "%s is %.3gx %s on %s.", lb, pr->speedup, la, a->name);
	if (!dom) {
		snprintf(second, sizeof(second), " The two scores are equal.");
	} else if (strcmp(dom, "ipc") == 0) {
		move(m1, sizeof(m1), "branch MPKI", ud_metric(a, UD_M_BRANCH_MPKI), ud_metric(b, UD_M_BRANCH_MPKI), "%.3g");
		move(m2, sizeof(m2), "L1d MPKI", ud_metric(a, UD_M_L1D_MPKI), ud_metric(b, UD_M_L1D_MPKI), "%.3g");
		snprintf(second, sizeof(second), " IPC (%.2f -> %.2f) carries %.0f%% of it, with %s and %s behind it.",
			 ud_metric(a, UD_M_IPC), ud_metric(b, UD_M_IPC), 100 * log(pr->f[F_IPC]) / l, m1, m2);
	} else if (strcmp(dom, "frequency") == 0) {
		snprintf(second, sizeof(second), " Clock frequency (%.3g -> %.3g GHz) carries %.0f%% of it.",
			 ud_metric(a, UD_M_GHZ), ud_metric(b, UD_M_GHZ), 100 * log(pr->f[F_FREQ]) / l);
	} else if (strcmp(dom, "path_length") == 0) {
		snprintf(second, sizeof(second),
			 " Path length carries %.0f%% of it: %s retires %.3gx the instructions per unit of work.",
			 100 * log(pr->f[F_PATH]) / l, la, pr->f[F_PATH]);
	} else if (strcmp(dom, "utilization") == 0) {
		snprintf(second, sizeof(second), " CPU utilization (%.3g -> %.3g CPUs) carries %.0f%% of it.",
			 ud_metric(a, UD_M_CPUS_UTILIZED), ud_metric(b, UD_M_CPUS_UTILIZED), 100 * log(pr->f[F_UTIL]) / l);
	} else {
		snprintf(second, sizeof(second),
			 " The counters do not explain most of it (unexplained factor %.3g): counters are missing on one "
			 "side or the score does not follow the counted work.", pr->f[F_UNEXPLAINED]);
	}
	return json_pack("s++", first, "", second);
}

/* 0, or -1 with err for a score the ratios cannot use. */
static int check_score(const struct ud_workload *w, const char *file, struct ud_err *err)
{
	if (!isfinite(w->score.median))
		return 0;
	if (w->score.median <= 0)
		return ud_fail(err, "%s: workload '%s': score %g: a score must be positive", file, w->name,
			       w->score.median);
	return 0;
}

static json_t *workload_json(struct pair *pr, const struct ud_uarch *ua, const struct ud_uarch *ub, const char *la,
			     const char *lb)
{
	const struct ud_workload *a = pr->a, *b = pr->b;
	json_t *j, *shares, *f, *sig;

	pr->speedup = a->higher_is_better == 0 ? a->score.median / b->score.median : b->score.median / a->score.median;
	factors(pr);
	f = factors_json(pr, &shares);
	j = json_pack("{s:s s:o s:o s:{s:o s:o} s:o s:s s:o s:o s:o s:o s:o}", "name", a->name, "units",
		      a->units ? json_string(a->units) : json_null(), "higher_is_better", json_boolean(a->higher_is_better != 0),
		      "score", "a", num(a->score.median), "b", num(b->score.median), "speedup", num(pr->speedup),
		      "work_basis", pr->work_basis, "factors", f, "shares", shares, "metrics", metrics_json(a, b),
		      "cpi_stack", cpi_stack_json(pr, ua, ub),
		      "significance", sig = significance_json(pr));
	json_object_set(j, "significant", json_object_get(sig, "significant"));
	json_object_set_new(j, "explanation", explanation(pr, la, lb));
	return j;
}

/* ---- environment ---- */

static bool not_environment(const char *path)
{
	static const char *const skip[] = { "label", "hostname", "collected_at", "pmu_reason", "cpu.source" };

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strcmp(path, skip[i]) == 0)
			return true;
	return false;
}

/* Every leaf both hosts know and disagree on, by dotted path. */
static void env_walk(json_t *out, const char *prefix, const json_t *a, const json_t *b)
{
	const char *key;
	json_t *va;

	json_object_foreach((json_t *)a, key, va) {
		const json_t *vb = json_object_get(b, key);
		char path[256];

		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", key);
		if (!vb || not_environment(path) || json_is_null(va) || json_is_null(vb))
			continue;
		if (json_is_object(va) && json_is_object(vb))
			env_walk(out, path, va, vb);
		else if (!json_equal(va, vb))
			json_array_append_new(out, json_pack("{s:s s:O s:O}", "field", path, "a", va, "b", vb));
	}
}

/* ---- findings ---- */

static void finding(json_t *findings, const char *id, const char *hypothesis, json_t *evidence)
{
	json_array_append_new(findings, json_pack("{s:s s:s s:o}", "id", id, "hypothesis", hypothesis, "evidence", evidence));
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static void finding_mitigations(json_t *findings, const json_t *env, const json_t *workloads)
{
	json_t *ev = json_array(), *w;
	double *speed = calloc(json_array_size(workloads) + 1, sizeof(double)), median, hi = 0, lo = 0;
	size_t i, n = 0, nhi = 0, nlo = 0;
	int mitigations = 0;
	char line[512];

	json_array_foreach((json_t *)env, i, w) {
		const char *field = json_string_value(json_object_get(w, "field"));

		if (strncmp(field, "vulnerabilities.", 16) == 0 || strcmp(field, "kernel") == 0) {
			snprintf(line, sizeof(line), "%s: %s | %s", field, json_string_value(json_object_get(w, "a")),
				 json_string_value(json_object_get(w, "b")));
			json_array_append_new(ev, json_string(line));
			mitigations += strncmp(field, "vulnerabilities.", 16) == 0;
		}
	}
	if (!mitigations || !speed) {
		free(speed);
		json_decref(ev);
		return;
	}
	json_array_foreach((json_t *)workloads, i, w)
		if (json_is_number(json_object_get(w, "speedup")))
			speed[n++] = json_number_value(json_object_get(w, "speedup"));
	qsort(speed, n, sizeof(double), cmp_double);
	median = n ? speed[n / 2] : NAN;
	/* Kernel-heavy = most of the time in the kernel on both hosts. */
	json_array_foreach((json_t *)workloads, i, w) {
		const json_t *ss = json_object_get(json_object_get(w, "metrics"), "sys_share");
		double share = (json_number_value(json_object_get(ss, "a")) + json_number_value(json_object_get(ss, "b"))) / 2;
		double s = json_number_value(json_object_get(w, "speedup"));

		if (!json_is_number(json_object_get(ss, "a")) || !json_is_number(json_object_get(ss, "b")))
			continue;
		if (s >= median) {
			hi += share;
			nhi++;
		} else {
			lo += share;
			nlo++;
		}
		snprintf(line, sizeof(line), "%s: speedup %.3gx, %.0f%% of CPU time in the kernel",
			 json_string_value(json_object_get(w, "name")), s, 100 * share);
		json_array_append_new(ev, json_string(line));
	}
	free(speed);
	if (nhi && nlo && hi / (double)nhi > lo / (double)nlo + 0.2)
		finding(findings, "kernel-heavy-gained-most",
			"The workloads that gained most are the kernel-heavy ones, while compute-bound ones moved less, "
			"and the hosts differ in speculative-execution mitigations: kernel entry and exit costs, not the "
			"cores, may explain much of the difference.", ev);
	else
		finding(findings, "mitigations-differ",
			"The hosts differ in speculative-execution mitigations: kernel-heavy work (system calls, pipes, "
			"file copies, process creation) may move for that reason rather than the hardware's.", ev);
}

static void finding_per_workload(json_t *findings, const struct index *ia, const struct index *ib, json_t *workloads)
{
	json_t *w;
	size_t i;
	char line[512];

	json_array_foreach(workloads, i, w) {
		const char *name = json_string_value(json_object_get(w, "name"));
		const struct ud_workload *a = find_workload(ia, name), *b = find_workload(ib, name);
		double fshare = json_number_value(json_object_get(json_object_get(w, "shares"), "frequency"));
		const json_t *ghz = json_object_get(json_object_get(w, "metrics"), "ghz");

		if (json_is_number(json_object_get(json_object_get(w, "shares"), "frequency")) && fshare >= 0.5) {
			snprintf(line, sizeof(line), "%s: GHz %.3g -> %.3g, %.0f%% of ln(speedup %.3gx)", name,
				 json_number_value(json_object_get(ghz, "a")), json_number_value(json_object_get(ghz, "b")),
				 100 * fshare, json_number_value(json_object_get(w, "speedup")));
			finding(findings, "frequency-explains-most",
				"Clock frequency explains most of the speedup, not the microarchitecture.",
				json_pack("[s]", line));
		}
		if (a->build_id && b->build_id && strcmp(a->build_id, b->build_id) != 0) {
			snprintf(line, sizeof(line), "%s: build-id %s (%s) vs %s (%s)", name, a->build_id,
				 a->binary_path ? a->binary_path : "?", b->build_id, b->binary_path ? b->binary_path : "?");
			finding(findings, "different-binaries",
				"The two hosts ran different binaries, so path length (instructions per unit of work) is not "
				"comparable: compiler and library differences count as the hardware's.",
				json_pack("[s]", line));
		}
		for (size_t c = 0; c < a->ncounters; c++) {
			const struct ud_counter *ca = &a->counters[c], *cb = ud_workload_counter(b, ca->name);

			if (cb && ca->semantics && cb->semantics && strcmp(ca->semantics, cb->semantics) != 0) {
				snprintf(line, sizeof(line), "%s, %s: %s (%s) on A, %s (%s) on B", name, ca->name,
					 ca->vendor_event ? ca->vendor_event : "?", ca->semantics,
					 cb->vendor_event ? cb->vendor_event : "?", cb->semantics);
				finding(findings, "semantics-differ",
					"The vendor events behind one generic name count different things on the two hosts "
					"(speculative vs retired): their ratio mixes meanings.", json_pack("[s]", line));
			}
			for (int side = 0; side < 2; side++) {
				const struct ud_counter *x = side ? cb : ca;
				double pct = x ? ud_counter_running_pct(x) : NAN;

				if (isfinite(pct) && pct < 50) {
					snprintf(line, sizeof(line), "%s, %s on %s: counted %.1f%% of the time", name, x->name,
						 side ? "B" : "A", pct);
					finding(findings, "multiplexed",
						"A counter ran under half the time (multiplexing): its scaled value is an "
						"estimate; count with fewer events or --exact.", json_pack("[s]", line));
				}
			}
		}
	}
}

static void finding_no_counters(json_t *findings, const struct ud_diff_input *in, const char *la, const char *lb)
{
	for (int side = 0; side < 2; side++) {
		const struct ud_profile *p = side ? in->b : in->a;
		bool any = false;
		char line[256];

		for (size_t i = 0; i < p->nworkloads && !any; i++)
			any = isfinite(ud_workload_value(&p->workloads[i], "instructions"));
		if (any || !p->nworkloads)
			continue;
		snprintf(line, sizeof(line), "%s: no workload has a counted 'instructions'; pmu: %s", side ? lb : la,
			 json_string_value(json_object_get(p->host, "pmu")) ? json_string_value(json_object_get(p->host, "pmu"))
									    : "unknown");
		finding(findings, "no-hardware-counters",
			"One host has no hardware counts: path length, IPC and frequency are null and the 'unexplained' "
			"factor carries them.", json_pack("[s]", line));
	}
}

/* ---- the document ---- */

static json_t *names_json(const struct ud_profile *p, const struct index *other)
{
	json_t *a = json_array();

	for (size_t i = 0; i < p->nworkloads; i++)
		if (!find_workload(other, p->workloads[i].name))
			json_array_append_new(a, json_string(p->workloads[i].name));
	return a;
}

static void list_names(const struct ud_profile *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->nworkloads && used + 1 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s'%s'", i ? ", " : "", p->workloads[i].name);
	if (!p->nworkloads)
		snprintf(buf, len, "none");
}

json_t *ud_diff(const struct ud_diff_input *in, struct ud_err *err)
{
	const char *la = host_label(in->a, "A"), *lb = host_label(in->b, "B");
	json_t *workloads = json_array(), *env = json_array(), *findings = json_array(), *doc = NULL;
	const struct ud_uarch *ua = host_uarch(in->a, in->db), *ub = host_uarch(in->b, in->db);
	struct index ia = { 0 }, ib = { 0 };

	if (index_build(&ia, in->a) != 0 || index_build(&ib, in->b) != 0) {
		ud_fail(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < in->a->nworkloads; i++) {
		struct pair pr = { .a = &in->a->workloads[i] };

		pr.b = find_workload(&ib, pr.a->name);
		if (!pr.b)
			continue;
		if (check_score(pr.a, in->a_name, err) || check_score(pr.b, in->b_name, err))
			goto out;
		if (!isfinite(pr.a->score.median) || !isfinite(pr.b->score.median))
			continue; /* nothing to explain without both scores */
		json_array_append_new(workloads, workload_json(&pr, ua, ub, la, lb));
	}
	if (json_array_size(workloads) == 0) {
		char na[512], nb[512];

		list_names(in->a, na, sizeof(na));
		list_names(in->b, nb, sizeof(nb));
		ud_fail(err, "no scored workload in common: %s has %s; %s has %s", in->a_name, na, in->b_name, nb);
		goto out;
	}
	env_walk(env, "", in->a->host, in->b->host);
	finding_mitigations(findings, env, workloads);
	finding_per_workload(findings, &ia, &ib, workloads);
	finding_no_counters(findings, in, la, lb);
	doc = json_pack("{s:s s:{s:s s:s} s:{s:s s:s} s:{s:s s:s} s:O s:{s:o s:o} s:o s:o s:O s:O}", "schema",
			UD_DIFF_SCHEMA, "tool", "name", "uarchdiff", "version", UD_VERSION, "baseline", "label", la, "file",
			in->a_name, "candidate", "label", lb, "file", in->b_name, "workloads", workloads, "cpi_penalties",
			"a", penalties_json(ua), "b", penalties_json(ub),
			"only_in_baseline", names_json(in->a, &ib), "only_in_candidate", names_json(in->b, &ia),
			"environment", env, "findings", findings);
out:
	free(ia.w);
	free(ib.w);
	json_decref(workloads);
	json_decref(env);
	json_decref(findings);
	return doc;
}
