/*
 * The rules: each turns evidence in the typed diff into a hypothesis a
 * person can check.  A rule is a row of the table below: its id, what it
 * claims, what it looks at (its scope), a condition over the model that
 * writes the evidence when it holds, and what to run to confirm it.
 * Thresholds are named in diff_thresholds.h, with why.
 *
 * Findings come out in a fixed order: rules over the whole diff first, then
 * each workload's; within a scope, in the table's order.  A rule about
 * counters looks at both sides and makes one finding per workload that
 * lists its counters (swapping A and B finds the same).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "diff_thresholds.h"
#include "sort.h"
#include "text.h"

/* What a rule looks at. */
enum scope {
	SCOPE_DIFF,     /* the whole diff, once */
	SCOPE_WORKLOAD, /* each workload in common */
};

struct subject {
	const struct ud_diff *d;
	const struct ud_diff_workload *w; /* workload scope */
};

struct evidence {
	char **v;
	size_t n, cap;
	bool oom;
	const char *confirm; /* set by a rule whose advice depends on what it found; else the table's */
};

/* 1 when the rule holds (evidence written), 0 when not. */
typedef int (*rule_fn)(const struct subject *s, struct evidence *ev);

static void add(struct evidence *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct evidence *ev, const char *fmt, ...)
{
	char *line;
	va_list ap;

	if (ev->n == ev->cap) {
		size_t cap = ev->cap ? 2 * ev->cap : 4;
		char **v = realloc(ev->v, cap * sizeof(*v));

		if (!v) {
			ev->oom = true;
			return;
		}
		ev->v = v;
		ev->cap = cap;
	}
	va_start(ap, fmt);
	line = ud_vprintf_new(fmt, ap);
	va_end(ap);
	if (!line)
		ev->oom = true;
	else
		ev->v[ev->n++] = line;
}

/*
 * v's n strings joined by sep, as long as they are (a profile's warnings
 * and PMU names are its writer's): a new string the caller frees; NULL
 * with ev->oom set when out of memory.
 */
static char *joined(struct evidence *ev, char *const *v, size_t n, const char *sep)
{
	char *s = ud_printf_new("%s", "");

	for (size_t i = 0; s && i < n; i++)
		if (!ud_append(&s, "%s%s", i ? sep : "", v[i])) {
			free(s);
			s = NULL;
		}
	ev->oom = ev->oom || !s;
	return s;
}

static void evidence_free(struct evidence *ev)
{
	for (size_t i = 0; i < ev->n; i++)
		free(ev->v[i]);
	free(ev->v);
	*ev = (struct evidence){ 0 };
}

/*
 * A host fact's text: a string as it is, a null (from an import) "unknown",
 * anything else (a number, a boolean, a list) its JSON text in buf, cut to fit.
 */

/* ---- speculative-execution mitigations ---- */

static bool is_mitigation(const char *field)
{
	return strncmp(field, "vulnerabilities.", strlen("vulnerabilities.")) == 0;
}

/* The kernel's share of CPU time on both hosts together; NAN unless both are known. */
static double mean_sys_share(const struct ud_diff_workload *w)
{
	const struct ud_ab *ss = &w->metric[UD_M_SYS_SHARE];

	return (ss->a + ss->b) / 2;
}

/* A workload the medians and the mitigation rules weigh: a real measurement, with a speedup. */
static bool weighed(const struct ud_diff_workload *w)
{
	return !w->composite && isfinite(w->speedup) && w->speedup > 0;
}

/* The differing mitigations and kernels, then each workload's kernel share; false when no mitigation differs. */
static bool mitigation_evidence(const struct ud_diff *d, struct evidence *ev)
{
	int mitigations = 0;

	for (size_t i = 0; i < d->nenv; i++) {
		const struct ud_env_entry *e = &d->env[i];

		if (is_mitigation(e->field) || strcmp(e->field, "kernel") == 0) {
			/* never cut: kernel and vulnerabilities.* are string facts, which ud_fact_text() returns whole */
			char ta[128], tb[128];

			add(ev, "%s: %s | %s", e->field, ud_fact_text(&e->a, ta, sizeof(ta)), ud_fact_text(&e->b, tb, sizeof(tb)));
			mitigations += is_mitigation(e->field);
		}
	}
	if (!mitigations)
		return false;
	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *w = &d->workloads[i];
		double share = mean_sys_share(w);

		if (isfinite(share) && weighed(w))
			add(ev, "%s: speedup %s, %.0f%% of CPU time in the kernel", w->a->name, UD_RATIO_X(w->speedup),
			    100 * share);
	}
	return true;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The upper median of the finite speedups; NAN when there is none. */
static double median_speedup(const struct ud_diff *d)
{
	double *speed = malloc((d->nworkloads + 1) * sizeof(double)), median;
	size_t n = 0;

	if (!speed)
		return NAN;
	for (size_t i = 0; i < d->nworkloads; i++)
		if (weighed(&d->workloads[i]))
			speed[n++] = d->workloads[i].speedup;
	ud_sort(speed, n, sizeof(double), cmp_double);
	median = n ? speed[n / 2] : NAN;
	free(speed);
	return median;
}

/* Did the workloads at or above the median speedup spend clearly more of their time in the kernel? */
static bool kernel_heavy_gained_most(const struct ud_diff *d)
{
	double median = median_speedup(d), hi = 0, lo = 0;
	size_t nhi = 0, nlo = 0;

	for (size_t i = 0; i < d->nworkloads; i++) {
		double share = mean_sys_share(&d->workloads[i]);

		if (!isfinite(share) || !weighed(&d->workloads[i]))
			continue;
		if (d->workloads[i].speedup >= median) {
			hi += share;
			nhi++;
		} else {
			lo += share;
			nlo++;
		}
	}
	return nhi && nlo && hi / (double)nhi > lo / (double)nlo + UD_KERNEL_HEAVY_MARGIN;
}

/*
 * Whether any mitigation differs, asked before the evidence is written: of
 * the two rules below only one holds, and the other's evidence (a line per
 * workload) would be written only to be freed.
 */
static bool mitigations_differ(const struct ud_diff *d)
{
	for (size_t i = 0; i < d->nenv; i++)
		if (is_mitigation(d->env[i].field))
			return true;
	return false;
}

static int rule_kernel_heavy_gained_most(const struct subject *s, struct evidence *ev)
{
	return mitigations_differ(s->d) && kernel_heavy_gained_most(s->d) && mitigation_evidence(s->d, ev);
}

static int rule_mitigations_differ(const struct subject *s, struct evidence *ev)
{
	return mitigations_differ(s->d) && !kernel_heavy_gained_most(s->d) && mitigation_evidence(s->d, ev);
}

/* ---- kernel-heavy work ---- */

static const struct ud_per_unit *per_unit(const struct ud_diff_workload *w, const char *name)
{
	for (size_t i = 0; i < w->nper_unit; i++)
		if (strcmp(w->per_unit[i].name, name) == 0)
			return &w->per_unit[i];
	return NULL;
}

/* Whether a host's profile lacks the facts that tell kernels apart (imported without --host). */
static bool facts_missing(const struct ud_diff_host *h)
{
	const struct ud_host *host = h->profile->host;

	return !host->kernel || !host->vulnerabilities_known;
}

static void kernel_heavy_workload(struct evidence *ev, const struct ud_diff *d, const struct ud_diff_workload *w)
{
	const struct ud_ab *ss = &w->metric[UD_M_SYS_SHARE];
	const struct ud_mode_part *k = &w->mode[UD_MODE_KERNEL];
	char words[48], ta[32], tb[32], sa[16], sb[16];

	ud_speedup_words(w->speedup, w->sig.significant, true, words, sizeof(words));
	add(ev, "%s: %s -> %s of CPU time in the kernel; %s is %s %s", w->a->name,
	    ud_format_num("%.0f%%", 100 * ss->a, sa, sizeof(sa)), ud_format_num("%.0f%%", 100 * ss->b, sb, sizeof(sb)),
	    d->host[UD_SIDE_B].label, words, d->host[UD_SIDE_A].label);
	ud_format_ns(k->a, ta, sizeof(ta));
	ud_format_ns(k->b, tb, sizeof(tb));
	/* a share outside 0..1: user and kernel time moved opposite ways, or the total did not move */
	if (isfinite(k->a) && isfinite(k->b) && k->share >= 0 && k->share <= 1)
		add(ev, "%s: kernel time per %s %s -> %s, %.0f%% of the change in CPU time per %s", w->a->name,
		    w->work.unit, ta, tb, 100 * k->share, w->work.unit);
	else if (isfinite(k->a) && isfinite(k->b))
		add(ev, "%s: kernel time per %s %s -> %s", w->a->name, w->work.unit, ta, tb);
}

static int rule_kernel_heavy(const struct subject *s, struct evidence *ev)
{
	const struct ud_diff *d = s->d;
	const struct ud_diff_summary *sum = &d->summary;
	bool missing = false;

	bool moved = false;

	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *w = &d->workloads[i];
		double m;

		if (w->group == UD_GROUP_KERNEL_HEAVY && weighed(w) &&
		    ud_speedup_direction(w->speedup, w->sig.significant, &m) != UD_DIR_SAME)
			moved = moved || m >= UD_KERNEL_HEAVY_MIN_MOVE;
	}
	if (!moved) /* nothing kernel-heavy moved enough for its kernel path to matter */
		return 0;
	for (size_t i = 0; i < d->nworkloads; i++)
		if (d->workloads[i].group == UD_GROUP_KERNEL_HEAVY && weighed(&d->workloads[i]))
			kernel_heavy_workload(ev, d, &d->workloads[i]);
	if (sum->group_n[UD_GROUP_COMPUTE_BOUND])
		add(ev, "kernel-heavy workloads: geometric mean %s over %zu; compute-bound ones: %s over %zu",
		    UD_RATIO_X(sum->group_geomean[UD_GROUP_KERNEL_HEAVY]), sum->group_n[UD_GROUP_KERNEL_HEAVY],
		    UD_RATIO_X(sum->group_geomean[UD_GROUP_COMPUTE_BOUND]), sum->group_n[UD_GROUP_COMPUTE_BOUND]);
	else
		add(ev, "no compute-bound workload to set them against: profile both hosts with 'uarchdiff run' "
			"(int, fp) to see what the cores alone gained");
	for (enum ud_side side = UD_SIDE_A; side < UD_SIDE_COUNT; side++) {
		if (facts_missing(&d->host[side])) {
			add(ev, "%s: kernel and mitigations unknown (imported without its host facts)", d->host[side].label);
			missing = true;
		}
	}
	ev->confirm = missing ? "On each host run 'uarchdiff host --json > HOST.json', then import its data with "
				"'uarchdiff import --host HOST.json ...' and diff again: the environment and the "
				"mitigations rule then compare kernels, hypervisors and mitigations."
			      : NULL;
	return 1;
}

/* ---- per workload ---- */

static void ipc_beyond_generation_evidence(struct evidence *ev, const struct ud_diff_workload *w)
{
	const struct ud_per_unit *ins = per_unit(w, "instructions"), *bm = per_unit(w, "branch-misses");
	const struct ud_ab *ss = &w->metric[UD_M_SYS_SHARE];
	char na[32], nb[32];

	add(ev, "%s: IPC %.2f -> %.2f (%s) on nearly the same instructions (path length %s); one core "
		"generation brings about %.1f-%.1fx",
	    w->a->name, w->metric[UD_M_IPC].a, w->metric[UD_M_IPC].b, UD_RATIO_X(w->factor[UD_FACTOR_IPC]),
	    UD_RATIO_X(w->factor[UD_FACTOR_PATH_LENGTH]), UD_GENERATION_IPC_LOW, UD_GENERATION_IPC_HIGH);
	if (ins)
		add(ev, "%s: instructions per %s %s -> %s", w->a->name, w->work.unit,
		    ud_format_num("%.4g", ins->v.a, na, sizeof(na)), ud_format_num("%.4g", ins->v.b, nb, sizeof(nb)));
	if (bm)
		add(ev, "%s: branch misses per %s %s -> %s", w->a->name, w->work.unit,
		    ud_format_num("%.3g", bm->v.a, na, sizeof(na)), ud_format_num("%.3g", bm->v.b, nb, sizeof(nb)));
	if (isfinite(ss->a) && isfinite(ss->b))
		add(ev, "%s: %.0f%% -> %.0f%% of CPU time in the kernel", w->a->name, 100 * ss->a, 100 * ss->b);
}

/* One finding for the diff, with every workload whose IPC moved beyond a generation. */
static int rule_ipc_beyond_generation(const struct subject *s, struct evidence *ev)
{
	for (size_t i = 0; i < s->d->nworkloads; i++)
		if (s->d->workloads[i].ipc_beyond_generation && !s->d->workloads[i].composite)
			ipc_beyond_generation_evidence(ev, &s->d->workloads[i]);
	return ev->n > 0;
}

static int rule_frequency_explains_most(const struct subject *s, struct evidence *ev)
{
	const struct ud_diff_workload *w = s->w;
	double share = w->share[UD_FACTOR_FREQUENCY];

	if (!(isfinite(share) && share >= UD_FREQUENCY_MOST_SHARE))
		return 0;
	add(ev, "%s: GHz %.3g -> %.3g, %.0f%% of ln(speedup %s)", w->a->name, w->metric[UD_M_GHZ].a,
	    w->metric[UD_M_GHZ].b, 100 * share, UD_RATIO_X(w->speedup));
	return 1;
}

static int rule_different_binaries(const struct subject *s, struct evidence *ev)
{
	const struct ud_workload *a = s->w->a, *b = s->w->b;

	if (!a->build_id || !b->build_id || strcmp(a->build_id, b->build_id) == 0)
		return 0;
	add(ev, "%s: build-id %s (%s) vs %s (%s)", a->name, a->build_id, a->binary_path ? a->binary_path : "?",
	    b->build_id, b->binary_path ? b->binary_path : "?");
	return 1;
}

/* Each of the workload's counters both sides hold whose vendor events differ in kind (speculative vs retired). */
static int rule_semantics_differ(const struct subject *s, struct evidence *ev)
{
	const struct ud_diff_workload *w = s->w;

	for (size_t i = 0; i < w->a->ncounters; i++) {
		const struct ud_counter *ca = &w->a->counters[i], *cb = w->counter_b[i];

		if (cb && ca->semantics && cb->semantics && strcmp(ca->semantics, cb->semantics) != 0)
			add(ev, "%s, %s: %s (%s) on A, %s (%s) on B", w->a->name, ca->name,
			    ca->vendor_event ? ca->vendor_event : "?", ca->semantics,
			    cb->vendor_event ? cb->vendor_event : "?", cb->semantics);
	}
	for (int m = 0; m < UD_METRIC_COUNT; m++)
		if (w->incomparable[m])
			add(ev, "%s, %s: %s", w->a->name, ud_metric_label((enum ud_metric)m), w->incomparable[m]);
	return ev->n > 0;
}

/* One side's multiplexed counters in one line: "fstime, A: cycles 45.2%, instructions 44.9%". */
static void multiplexed_side(struct evidence *ev, const struct subject *s, enum ud_side side)
{
	const struct ud_workload *x = side == UD_SIDE_B ? s->w->b : s->w->a;
	char *line = NULL;

	for (size_t i = 0; i < x->ncounters && !ev->oom; i++) {
		double pct = ud_counter_running_pct(&x->counters[i]);

		if (isfinite(pct) && pct < UD_MULTIPLEXED_RUNNING_PCT &&
		    !ud_append(&line, "%s%s %.1f%%", line ? ", " : "", x->counters[i].name, pct))
			ev->oom = true;
	}
	if (line && !ev->oom)
		add(ev, "%s, %s (%s): counted only part of the time: %s", s->w->a->name, side == UD_SIDE_B ? "B" : "A",
		    s->d->host[side].label, line);
	free(line);
}

static int rule_multiplexed(const struct subject *s, struct evidence *ev)
{
	for (enum ud_side side = UD_SIDE_A; side < UD_SIDE_COUNT; side++)
		multiplexed_side(ev, s, side);
	return ev->n > 0;
}

static int rule_counting_modes_differ(const struct subject *s, struct evidence *ev)
{
	static const struct {
		const char *name;
		enum ud_counter_class cls;
	} counters[] = { { "cycles", UD_CLASS_CYCLES }, { "instructions", UD_CLASS_INSTRUCTIONS } };
	const struct ud_diff_workload *w = s->w;

	if (!w->modes_differ)
		return 0;
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		struct ud_counted_modes ma, mb;
		char ta[64] = "unknown", tb[64] = "unknown";

		if (ud_count_modes_of(w->a, counters[i].cls, &ma))
			ud_count_modes_words(ma, ta, sizeof(ta));
		if (ud_count_modes_of(w->b, counters[i].cls, &mb))
			ud_count_modes_words(mb, tb, sizeof(tb));
		add(ev, "%s: %s counted in %s on A (%s), in %s on B (%s)", w->a->name, counters[i].name, ta,
		    s->d->host[UD_SIDE_A].label, tb, s->d->host[UD_SIDE_B].label);
	}
	for (enum ud_side side = UD_SIDE_A; side < UD_SIDE_COUNT; side++) {
		const struct ud_workload *x = side == UD_SIDE_B ? w->b : w->a;

		if (x->command)
			add(ev, "%s on %s: counted as '%s'", w->a->name, side == UD_SIDE_B ? "B" : "A", x->command);
	}
	return 1;
}

static int rule_low_ipc_work(const struct subject *s, struct evidence *ev)
{
	const struct ud_diff_workload *w = s->w;
	const struct ud_per_unit *cyc = per_unit(w, "cycles"), *cpu = per_unit(w, "task-clock");
	char na[32], nb[32];

	if (!w->low_ipc)
		return 0;
	add(ev, "%s: IPC %s on A, %s on B (below %.2g: %.0f cycles or more an instruction)", w->a->name,
	    ud_format_num("%.3g", w->metric[UD_M_IPC].a, na, sizeof(na)),
	    ud_format_num("%.3g", w->metric[UD_M_IPC].b, nb, sizeof(nb)), UD_LOW_IPC, 1 / UD_LOW_IPC);
	if (cyc)
		add(ev, "%s: cycles per %s %s -> %s (%s)", w->a->name, w->work.unit,
		    ud_format_num("%.4g", cyc->v.a, na, sizeof(na)), ud_format_num("%.4g", cyc->v.b, nb, sizeof(nb)),
		    UD_RATIO_X(cyc->v.ratio));
	if (cpu) {
		ud_format_ns(cpu->v.a, na, sizeof(na));
		ud_format_ns(cpu->v.b, nb, sizeof(nb));
		add(ev, "%s: CPU time per %s %s -> %s (%s)", w->a->name, w->work.unit, na, nb, UD_RATIO_X(cpu->v.ratio));
	}
	return 1;
}

/* Each hardware counter whose move per unit is notable while the time's was within the noise. */
static int rule_counters_moved_time_did_not(const struct subject *s, struct evidence *ev)
{
	const struct ud_diff_workload *w = s->w;
	int n = 0;

	if (!ud_diff_movers_speak(w))
		return 0;
	for (size_t i = 0; i < w->nper_unit; i++) {
		const struct ud_per_unit *u = &w->per_unit[i];
		char na[32], nb[32];

		if (!ud_diff_mover_notable(u))
			continue;
		add(ev, "%s: %s per %s %s -> %s (%s, p = %.2g)", w->a->name, u->name, w->work.unit,
		    ud_format_num("%.4g", u->v.a, na, sizeof(na)), ud_format_num("%.4g", u->v.b, nb, sizeof(nb)),
		    UD_RATIO_X(u->v.ratio), u->p);
		n++;
	}
	if (n)
		add(ev, "%s: the time within the noise: %s", w->a->name, w->sig.note);
	return n > 0;
}

/*
 * Each side's noise warnings (run records them, noise.h), said once for the
 * diff: one line a noisy workload and side, its causes together.
 */
static int rule_noisy_measurement(const struct subject *s, struct evidence *ev)
{
	for (size_t k = 0; k < s->d->nworkloads; k++) {
		for (enum ud_side side = UD_SIDE_A; side < UD_SIDE_COUNT; side++) {
			const struct ud_diff_workload *dw = &s->d->workloads[k];
			const struct ud_workload *w = side == UD_SIDE_B ? dw->b : dw->a;
			char *causes = w->noise && w->noise->nwarnings
					       ? joined(ev, w->noise->warnings, w->noise->nwarnings, "; ")
					       : NULL;

			if (causes && *causes)
				add(ev, "%s on %s (%s): %s", w->name, side == UD_SIDE_B ? "B" : "A", s->d->host[side].label,
				    causes);
			free(causes);
		}
	}
	return ev->n > 0;
}

/* ---- sampled symbols ---- */

/* A named kernel symbol (not the one [kernel] row of unreadable kallsyms, not an [unknown] address). */
static bool named_kernel_symbol(const struct ud_hotspot_move *m)
{
	return m->mode == UD_MODE_KERNEL && m->symbol[0] != '[';
}

static void one_host_evidence(struct evidence *ev, const struct subject *s, const struct ud_hotspot_move *m,
			      enum ud_side on)
{
	const struct ud_diff_workload *w = s->w;
	const struct ud_hotspots *other = on == UD_SIDE_A ? w->b->hotspots : w->a->hotspots;
	const struct ud_hotspot *last = other->nrows ? &other->rows[other->nrows - 1] : NULL;
	double share = on == UD_SIDE_A ? m->a_share : m->b_share, ns = on == UD_SIDE_A ? m->a_ns : m->b_ns;
	bool has_other = last && last->mode == UD_MODE_COUNT;
	char t[32] = "", per[64] = "";

	if (isfinite(ns)) {
		ud_format_ns(ns, t, sizeof(t));
		snprintf(per, sizeof(per), " (%s per %s)", t, w->work.unit);
	}
	add(ev, "%s: kernel symbol %s carries %.0f%% of the CPU time on %s%s, and is not among %s's top %zu symbols%s",
	    w->a->name, m->symbol, 100 * share, s->d->host[on].label, per, s->d->host[!on].label,
	    other->nrows - has_other,
	    has_other && last->share > UD_KERNEL_SYMBOL_ONE_HOST_SHARE ? " (its [other] row is larger: look there first)"
								       : "");
}

static int rule_kernel_symbol_one_host(const struct subject *s, struct evidence *ev)
{
	const struct ud_diff_workload *w = s->w;
	const char *ea = w->a->hotspots ? w->a->hotspots->sampling.event : NULL;
	const char *eb = w->b->hotspots ? w->b->hotspots->sampling.event : NULL;

	for (size_t i = 0; i < w->nhotspots; i++) {
		const struct ud_hotspot_move *m = &w->hotspots[i];

		if (!named_kernel_symbol(m))
			continue;
		if (!isfinite(m->b_share) && m->a_share > UD_KERNEL_SYMBOL_ONE_HOST_SHARE)
			one_host_evidence(ev, s, m, UD_SIDE_A);
		else if (!isfinite(m->a_share) && m->b_share > UD_KERNEL_SYMBOL_ONE_HOST_SHARE)
			one_host_evidence(ev, s, m, UD_SIDE_B);
	}
	if (ev->n && ea && eb && strcmp(ea, eb) != 0)
		add(ev, "%s: sampled on %s on %s and on %s on %s: shares of different clocks", w->a->name, ea,
		    s->d->host[UD_SIDE_A].label, eb, s->d->host[UD_SIDE_B].label);
	return ev->n > 0;
}

/* ---- per host ---- */

static bool counted_instructions(const struct ud_profile *p)
{
	for (size_t i = 0; i < p->nworkloads; i++)
		if (isfinite(ud_workload_domain_value(&p->workloads[i], UD_CLASS_INSTRUCTIONS)))
			return true;
	return false;
}

/* One finding for the diff, naming each host without hardware counts. */
static int rule_no_hardware_counters(const struct subject *s, struct evidence *ev)
{
	for (enum ud_side side = UD_SIDE_A; side < UD_SIDE_COUNT; side++) {
		const struct ud_diff_host *h = &s->d->host[side];
		const char *pmu = h->profile->host->pmu;

		if (h->profile->nworkloads && !counted_instructions(h->profile))
			add(ev, "%s: no workload has a counted 'instructions'; pmu: %s", h->label, pmu ? pmu : "unknown");
	}
	return ev->n > 0;
}

/* One finding naming each host whose CPU has cores of two or more kinds (import marks it). */
static int rule_hybrid_cpu(const struct subject *s, struct evidence *ev)
{
	for (enum ud_side side = UD_SIDE_A; side < UD_SIDE_COUNT; side++) {
		const struct ud_diff_host *h = &s->d->host[side];
		const struct ud_host *host = h->profile->host;
		char *names;

		if (!host->hybrid)
			continue;
		names = joined(ev, host->core_pmus, host->ncore_pmus, ", ");
		if (names)
			add(ev, "%s: hybrid CPU (%s): counters kept per core type, IPC per core type in derived_per_pmu",
			    h->label, *names ? names : "core types unknown");
		free(names);
	}
	return ev->n > 0;
}

/* One finding naming each profile whose run was stopped early (run's Ctrl-C, an unfinished UnixBench log). */
static int rule_incomplete_profile(const struct subject *s, struct evidence *ev)
{
	for (enum ud_side side = UD_SIDE_A; side < UD_SIDE_COUNT; side++) {
		const struct ud_diff_host *h = &s->d->host[side];

		if (h->profile->incomplete)
			add(ev, "%s (%s): marked incomplete; %zu workloads in it", h->label, h->file,
			    h->profile->nworkloads);
	}
	return ev->n > 0;
}

/* ---- the table ---- */

static const struct rule {
	const char *name;
	enum scope scope;
	rule_fn holds;
	const char *hypothesis;
	const char *confirm; /* what to run to confirm it; NULL where the rule has nothing to propose yet */
} rules[UD_FINDING_COUNT] = {
	[UD_FINDING_INCOMPLETE_PROFILE] = {
		"incomplete-profile", SCOPE_DIFF, rule_incomplete_profile,
		"A profile is incomplete: its run was stopped before every workload ran, so workloads may be missing "
		"and the means cover only those measured.",
		"Profile that host again and let 'uarchdiff run' finish, then diff again." },
	[UD_FINDING_KERNEL_HEAVY] = {
		"kernel-heavy", SCOPE_DIFF, rule_kernel_heavy,
		"Some workloads spend most of their CPU time in the kernel, so their speedup measures the system-call "
		"path as much as the cores: speculative-execution mitigations (retpolines, SRSO 'Safe RET', IBPB on "
		"entry and exit), the kernel's version and configuration, and virtualisation can each move them "
		"several times over.",
		"Compare the hosts' kernels, mitigations and hypervisors (the Environment section); count per mode "
		"on both hosts, 'uarchdiff stat -e cycles:u,instructions:u,cycles:k,instructions:k -- CMD', to see "
		"whose IPC moved; on a test host, boot with mitigations=off and measure again." },
	[UD_FINDING_KERNEL_HEAVY_GAINED_MOST] = {
		"kernel-heavy-gained-most", SCOPE_DIFF, rule_kernel_heavy_gained_most,
		"The workloads that gained most are the kernel-heavy ones, while compute-bound ones moved less, and the "
		"hosts differ in speculative-execution mitigations: kernel entry and exit costs, not the cores, may "
		"explain much of the difference.", NULL },
	[UD_FINDING_MITIGATIONS_DIFFER] = {
		"mitigations-differ", SCOPE_DIFF, rule_mitigations_differ,
		"The hosts differ in speculative-execution mitigations: kernel-heavy work (system calls, pipes, file "
		"copies, process creation) may move for that reason rather than the hardware's.", NULL },
	[UD_FINDING_IPC_BEYOND_GENERATION] = {
		"ipc-beyond-generation", SCOPE_DIFF, rule_ipc_beyond_generation,
		"IPC moved far more than a core generation brings on the same instructions: what those instructions "
		"wait on changed (kernel entry and exit, mitigations, virtualisation, the memory system), not only "
		"the core.",
		"Count user and kernel mode apart on both hosts, 'uarchdiff stat -e "
		"cycles:u,instructions:u,cycles:k,instructions:k -- CMD', and diff: the mode whose IPC moved is where "
		"to look." },
	[UD_FINDING_FREQUENCY_EXPLAINS_MOST] = {
		"frequency-explains-most", SCOPE_WORKLOAD, rule_frequency_explains_most,
		"Clock frequency explains most of the speedup, not the microarchitecture.", NULL },
	[UD_FINDING_DIFFERENT_BINARIES] = {
		"different-binaries", SCOPE_WORKLOAD, rule_different_binaries,
		"The two hosts ran different binaries, so path length (instructions per unit of work) is not "
		"comparable: compiler and library differences count as the hardware's.", NULL },
	[UD_FINDING_SEMANTICS_DIFFER] = {
		"semantics-differ", SCOPE_WORKLOAD, rule_semantics_differ,
		"The events behind one generic name count different things on the two hosts (speculative vs "
		"retired, another vendor's definition, or a rate above 100%): their ratio mixes meanings, so those "
		"metrics are shown but not charged in the CPI stack or named as causes.", NULL },
	[UD_FINDING_MULTIPLEXED] = {
		"multiplexed", SCOPE_WORKLOAD, rule_multiplexed,
		"Counters ran under half the time (multiplexing): their scaled values are estimates; count with "
		"fewer events or --exact.", NULL },
	[UD_FINDING_COUNTING_MODES_DIFFER] = {
		"counting-modes-differ", SCOPE_WORKLOAD, rule_counting_modes_differ,
		"The two sides counted cycles and instructions in different privilege levels (user only on one, "
		"user and kernel on the other): their path length, IPC and frequency compare different work, "
		"approximately where the one mode covers most of its side's CPU time, not at all where it covers "
		"little of it (the unexplained factor then carries the speedup).",
		"Count both hosts the same way: 'uarchdiff stat -e cycles:u,instructions:u,cycles:k,instructions:k "
		"-- CMD' on each (or perf stat with the same modifiers, and neither --all-user nor --all-kernel on "
		"one side only), then import and diff again." },
	[UD_FINDING_LOW_IPC_WORK] = {
		"low-ipc-work", SCOPE_WORKLOAD, rule_low_ipc_work,
		"Instructions are not the unit of work here: at this IPC one instruction does a great deal (a 'rep "
		"stos' or 'rep movs' string instruction zeroing or copying kilobytes) or the core waits on one "
		"thing nearly all the time, so the split between path length and IPC is arbitrary (a kernel that "
		"turns a loop into one string instruction moves work from one to the other).",
		"Compare cycles and CPU time per unit of work (the per-unit table) instead of path length and IPC; "
		"to see what the instructions do, sample it ('uarchdiff run --hotspots -w NAME', or perf record and "
		"perf annotate on the hottest symbol)." },
	[UD_FINDING_COUNTERS_MOVED_TIME_DID_NOT] = {
		"counters-moved-time-did-not", SCOPE_WORKLOAD, rule_counters_moved_time_did_not,
		"Counters moved outside their noise while the time did not: the change did alter what the core does "
		"(fewer instructions, fewer misses) but not what the workload waits on, or the score's own noise hides "
		"a gain smaller than it.  Where the counters show less work done, that work was off the critical path: "
		"the cycles are spent elsewhere.",
		"Look at what the cycles are spent on (stalled-cycles-backend, top-down, or 'uarchdiff run --hotspots'), "
		"and measure with more runs ('perf stat -r 20', 'uarchdiff run -r 20') to see whether a gain smaller "
		"than today's noise is there." },
	[UD_FINDING_HYBRID_CPU] = {
		"hybrid-cpu", SCOPE_DIFF, rule_hybrid_cpu,
		"A host has cores of two or more kinds (performance and efficiency cores): a workload's IPC, path "
		"length and frequency mix them, so they stay null where the counters were taken per core type; "
		"compare the core types one by one.",
		"Read each profile's derived_per_pmu (IPC per core type), or pin the workload to one core type "
		"('taskset -c CPUS', or perf stat -e cpu_core/cycles/,cpu_core/instructions/) on both hosts." },
	[UD_FINDING_NOISY_MEASUREMENT] = {
		"noisy-measurement", SCOPE_DIFF, rule_noisy_measurement,
		"Some workloads were measured on a noisy host (another process on their CPU, steal time, or samples "
		"that disagree): part of their speedup may be the noise's, not the hardware's.",
		"Measure them again on that host while it is quiet (nothing else running, load average below its CPU "
		"count): 'uarchdiff run -w NAME,...', and diff again; the noise warnings should be gone." },
	[UD_FINDING_KERNEL_SYMBOL_ONE_HOST] = {
		"kernel-symbol-one-host", SCOPE_WORKLOAD, rule_kernel_symbol_one_host,
		"A kernel function takes a large part of the CPU time on one host and does not show on the other: "
		"the two kernels run different code on this path (a mitigation thunk or barrier, another "
		"configuration or version), which the cores alone do not explain.",
		"Read the symbol's name against /sys/devices/system/cpu/vulnerabilities/* and the kernel command "
		"line on both hosts (srso_*, retbleed_*, __x86_return_thunk, *_untrain_ret, entry_IBPB are "
		"mitigations); 'perf annotate' it, or boot a test host with that mitigation off and run "
		"'uarchdiff run --hotspots -w WORKLOAD' again." },
	[UD_FINDING_NO_HARDWARE_COUNTERS] = {
		"no-hardware-counters", SCOPE_DIFF, rule_no_hardware_counters,
		"Hardware counts are missing on a host: path length, IPC and frequency are null and the 'unexplained' factor "
		"carries them.", NULL },
};

const char *ud_finding_name(enum ud_finding_id id)
{
	return rules[id].name;
}

const char *ud_finding_hypothesis(enum ud_finding_id id)
{
	return rules[id].hypothesis;
}

int ud_finding_from_name(const char *name, enum ud_finding_id *out)
{
	for (int id = 0; id < UD_FINDING_COUNT; id++) {
		if (strcmp(name, rules[id].name) == 0) {
			*out = (enum ud_finding_id)id;
			return 0;
		}
	}
	return -1;
}

/* ---- the engine ---- */

struct run {
	struct ud_diff *d;
	size_t cap;
	bool oom;
};

/* Every rule of this scope on one subject; a rule that holds becomes a finding. */
static void apply(struct run *r, enum scope scope, const struct subject *s)
{
	for (int id = 0; id < UD_FINDING_COUNT && !r->oom; id++) {
		struct evidence ev = { 0 };
		struct ud_finding *f;

		if (rules[id].scope != scope || !rules[id].holds(s, &ev) || ev.oom) {
			r->oom = ev.oom;
			evidence_free(&ev);
			continue;
		}
		if (r->d->nfindings == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 8;

			f = realloc(r->d->findings, cap * sizeof(*f));
			if (!f) {
				r->oom = true;
				evidence_free(&ev);
				return;
			}
			r->d->findings = f;
			r->cap = cap;
		}
		r->d->findings[r->d->nfindings++] = (struct ud_finding){ (enum ud_finding_id)id, rules[id].hypothesis,
									  ev.confirm ? ev.confirm : rules[id].confirm,
									  ev.v, ev.n };
	}
}

int ud_diff_rules_apply(struct ud_diff *d)
{
	struct run r = { .d = d };
	struct subject s = { .d = d };

	apply(&r, SCOPE_DIFF, &s);
	for (size_t i = 0; i < d->nworkloads; i++) {
		s.w = &d->workloads[i];
		apply(&r, SCOPE_WORKLOAD, &s);
	}
	return r.oom ? -1 : 0;
}

void ud_diff_findings_free(struct ud_diff *d)
{
	for (size_t i = 0; i < d->nfindings; i++) {
		for (size_t e = 0; e < d->findings[i].nevidence; e++)
			free(d->findings[i].evidence[e]);
		free(d->findings[i].evidence);
	}
	free(d->findings);
	d->findings = NULL;
	d->nfindings = 0;
}
