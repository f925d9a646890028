/*
 * The numbers of one workload in the diff (SPEC §5, §5.1): speedup, work per
 * run and its unit, factors and their shares, the metrics side by side, the
 * totals per unit of work, the user/kernel split, the CPI stack and whether
 * the speedup is outside the noise.  Nothing here writes text for a person
 * beyond the significance note and the speedup's words, nor JSON.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "diff_thresholds.h"
#include "sort.h"
#include "stats.h"
#include "text.h"
/* MPKI is per thousand instructions; the CPI stack wants per instruction. */
#define PER_KILO 1000.0
#define NS_PER_S 1e9

/* The one table of the factors' names: JSON key and report label. */
static const struct {
	const char *name, *label;
} factors[UD_FACTOR_COUNT] = {
	[UD_FACTOR_PATH_LENGTH] = { "path_length", "path length" },
	[UD_FACTOR_IPC] = { "ipc", "IPC" },
	[UD_FACTOR_FREQUENCY] = { "frequency", "frequency" },
	[UD_FACTOR_UTILIZATION] = { "utilization", "utilization" },
	[UD_FACTOR_CLOCK] = { "clock", "clock" },
	[UD_FACTOR_CYCLES] = { "cycles", "cycles per unit" },
	[UD_FACTOR_UNEXPLAINED] = { "unexplained", "unexplained" },
};

static const char *const work_basis_text[UD_WORK_BASIS_COUNT] = {
	[UD_WORK_UNITS] = "work_units",
	[UD_WORK_SCORE_ELAPSED] = "score x elapsed (assumed: the score is a rate sustained over the whole measured run)",
	[UD_WORK_ONE_RUN] = "one run of the command per measurement (assumed)",
};

static const char *const speedup_basis_names[UD_SPEEDUP_BASIS_COUNT] = {
	[UD_SPEEDUP_SCORE] = "score",
	[UD_SPEEDUP_TASK_CLOCK] = "task-clock",
	[UD_SPEEDUP_NONE] = "none",
};


static const char *const group_names[UD_GROUP_COUNT] = {
	[UD_GROUP_KERNEL_HEAVY] = "kernel-heavy",
	[UD_GROUP_COMPUTE_BOUND] = "compute-bound",
	[UD_GROUP_MIXED] = "mixed",
	[UD_GROUP_UNKNOWN] = "unknown",
};

/* The counting mode of each CPU mode's counters (cycles:u, instructions:k). */
static const enum ud_counting mode_counting[UD_MODE_COUNT] = {
	[UD_MODE_USER] = UD_COUNTING_USER,
	[UD_MODE_KERNEL] = UD_COUNTING_KERNEL,
};

static const char *const sig_method_names[UD_SIG_METHOD_COUNT] = {
	[UD_SIG_MANN_WHITNEY] = "mann-whitney",
	[UD_SIG_WELCH] = "welch",
	[UD_SIG_SINGLE_RUN] = "single-run",
	[UD_SIG_NO_SPREAD] = "no-spread",
	[UD_SIG_NONE] = "none",
};

const char *ud_factor_name(enum ud_factor f)
{
	return factors[f].name;
}

const char *ud_factor_label(enum ud_factor f)
{
	return factors[f].label;
}

int ud_factor_from_name(const char *name, enum ud_factor *out)
{
	for (int f = 0; f < UD_FACTOR_COUNT; f++) {
		if (strcmp(name, factors[f].name) == 0) {
			*out = (enum ud_factor)f;
			return 0;
		}
	}
	return -1;
}

const char *ud_work_basis_text(enum ud_work_basis b)
{
	return work_basis_text[b];
}

const char *ud_sig_method_name(enum ud_sig_method m)
{
	return sig_method_names[m];
}

const char *ud_speedup_basis_name(enum ud_speedup_basis b)
{
	return speedup_basis_names[b];
}

const char *ud_group_name(enum ud_group g)
{
	return group_names[g];
}

/* Below this magnitude a speedup prints with two decimals, below the next with one. */
#define SPEEDUP_TWO_DECIMALS 10.0
#define SPEEDUP_ONE_DECIMAL 100.0
/* From here "%.0f" would print every digit of 1e40: the rule for numbers a person reads takes over. */
#define SPEEDUP_NO_DECIMALS 999.5

/*
 * Two decimals below 10x, one below 100x, none below 1,000x; three where two
 * would read "1.00" and hide the move; from 1,000x the one rule for ratios
 * (text.h: "1,222", "4.87T", "1e+40"), never a long run of digits.
 */
static void magnitude_text(double m, char *buf, size_t len)
{
	if (m >= SPEEDUP_NO_DECIMALS) {
		ud_format_ratio(m, buf, len);
		return;
	}
	snprintf(buf, len, m < SPEEDUP_TWO_DECIMALS ? "%.2f" : m < SPEEDUP_ONE_DECIMAL ? "%.1f" : "%.0f", m);
	if (strcmp(buf, "1.00") == 0 && m != 1)
		snprintf(buf, len, "%.3f", m);
}

enum ud_direction ud_speedup_direction(double s, int significant, double *magnitude)
{
	*magnitude = NAN;
	if (!isfinite(s) || s <= 0)
		return UD_DIR_NONE;
	*magnitude = s >= 1 ? s : 1 / s;
	if (!isfinite(*magnitude)) { /* 1 / a denormal: no ratio a person can read */
		*magnitude = NAN;
		return UD_DIR_NONE;
	}
	if (significant == 0 || s == 1)
		return UD_DIR_SAME;
	return s > 1 ? UD_DIR_FASTER : UD_DIR_SLOWER;
}

void ud_speedup_words(double s, int significant, bool with_object, char *buf, size_t len)
{
	static const char *const words[][2] = {
		[UD_DIR_FASTER] = { "faster", "faster than" },
		[UD_DIR_SLOWER] = { "slower", "slower than" },
		[UD_DIR_SAME] = { "1.00x", "as fast as" },
		[UD_DIR_NONE] = { "n/a", "not comparable with" },
	};
	double m;
	enum ud_direction d = ud_speedup_direction(s, significant, &m);
	char num[UD_NUMBER_MAX];

	if (d == UD_DIR_NONE || (d == UD_DIR_SAME && with_object)) {
		snprintf(buf, len, "%s", words[d][with_object]);
		return;
	}
	if (d == UD_DIR_SAME && s == 1) { /* a baseline against itself, or an exact tie */
		snprintf(buf, len, "1.00x");
		return;
	}
	if (d == UD_DIR_SAME) { /* benchstat's mark, beside the move the samples gave */
		magnitude_text(m, num, sizeof(num));
		snprintf(buf, len, "~ %sx %s", num, words[s > 1 ? UD_DIR_FASTER : UD_DIR_SLOWER][0]);
		return;
	}
	magnitude_text(m, num, sizeof(num));
	snprintf(buf, len, "%sx %s", num, words[d][with_object]);
}

static double ratio(double num, double den)
{
	return isfinite(num) && isfinite(den) && den != 0 ? num / den : NAN;
}

/*
 * What one unit of work is, read off a rate's units: "KBps" -> "KB",
 * "lps" -> "loop", "calls/s" -> "call".  A unit this cannot read stays
 * "unit" rather than a guess.
 */
static void unit_of_rate(const char *units, char *out, size_t len)
{
	static const char *const per_time[] = { "/s", "/min", "ps", "pm" };
	static const struct {
		const char *short_form, *word;
	} words[] = { { "l", "loop" }, { "elem", "element" }, { "req", "request" }, { "op", "operation" } };
	size_t n = units ? strlen(units) : 0;

	snprintf(out, len, "unit");
	/* "ops", "per_process_ops", "ops_per_sec": operations (a robot table's scores), not "o" per second */
	if (n >= 3 && (strcmp(units + n - 3, "ops") == 0 || strstr(units, "ops_per"))) {
		snprintf(out, len, "operation");
		return;
	}
	for (size_t i = 0; i < sizeof(per_time) / sizeof(per_time[0]); i++) {
		size_t k = strlen(per_time[i]);

		if (n > k && strcmp(units + n - k, per_time[i]) == 0) {
			snprintf(out, len, "%.*s", (int)(n - k), units);
			break;
		}
	}
	n = strlen(out);
	if (n > 2 && out[n - 1] == 's' && out[n - 2] != 's') /* "calls" -> "call" */
		out[n - 1] = '\0';
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(out, words[i].short_form) == 0)
			snprintf(out, len, "%s", words[i].word);
}

/* Work per run: work_units where both know it, else what the score implies. */
static struct ud_work work_per_run(const struct ud_diff_workload *w)
{
	const struct ud_workload *a = w->a, *b = w->b;
	struct ud_work u = { 1, 1, UD_WORK_ONE_RUN, "run" };

	if (w->basis != UD_SPEEDUP_SCORE)
		return u;
	if (isfinite(a->work_units) && isfinite(b->work_units) && a->work_units > 0 && b->work_units > 0) {
		u = (struct ud_work){ a->work_units, b->work_units, UD_WORK_UNITS, "" };
		unit_of_rate(a->units, u.unit, sizeof(u.unit));
	} else if (a->higher_is_better != 0) {
		u = (struct ud_work){ a->score.median * a->elapsed_ns / NS_PER_S, b->score.median * b->elapsed_ns / NS_PER_S,
				      UD_WORK_SCORE_ELAPSED, "" };
		unit_of_rate(a->units, u.unit, sizeof(u.unit));
	}
	return u;
}

static bool splittable(const struct ud_diff_workload *w)
{
	return fabs(log(w->speedup)) >= log1p(UD_SHARE_MIN_MOVE) && w->sig.significant != 0;
}

/* Whether a side's cycles and instructions were counted in user mode alone. */
static bool user_mode_only(const struct ud_workload *x)
{
	return ud_workload_domain(x) == UD_COUNTING_USER;
}

bool ud_count_modes_of(const struct ud_workload *x, enum ud_counter_class cls, struct ud_counted_modes *out)
{
	bool any = false;

	*out = (struct ud_counted_modes){ 0 };
	for (size_t i = 0; i < x->ncounters; i++) {
		const struct ud_counter *c = &x->counters[i];

		if (c->status != UD_COUNTED || ud_counter_class_of(c) != cls || ud_counter_is_per_pmu(c))
			continue;
		struct ud_counted_modes m = ud_counted_modes_of(c->name);

		out->user |= m.user;
		out->kernel |= m.kernel;
		out->host |= m.host;
		out->guest |= m.guest;
		any = true;
	}
	return any;
}

void ud_count_modes_words(struct ud_counted_modes m, char *buf, size_t len)
{
	const char *levels = ud_counted_levels_name(m);

	snprintf(buf, len, "%s%s", strcmp(levels, "all") == 0 ? "all modes" : strcmp(levels, "user") == 0 ? "user mode only"
				   : strcmp(levels, "kernel") == 0 ? "kernel mode only" : "no privilege level",
		 m.host && !m.guest ? ", host only" : m.guest && !m.host ? ", guest only" : "");
}

/* Whether both sides counted cycles or instructions, and in different privilege levels or contexts (domains). */
static bool modes_differ(const struct ud_workload *a, const struct ud_workload *b)
{
	enum ud_counting da = ud_workload_domain(a), db = ud_workload_domain(b);

	return da != UD_COUNTING_COUNT && db != UD_COUNTING_COUNT && da != db;
}

/* A side's counts are its workload's own: counted from its exec, not system-wide or attached (nor pasted from perf stat -a). */
static bool own_work(const struct ud_workload *x)
{
	return ud_workload_counts_own_work(x) && !x->perf_command.system_wide;
}

/* Cycles per wall-clock second on a side, in its compared domain: frequency x utilization in one. */
static double clock_rate(const struct ud_diff_workload *w, enum ud_side s)
{
	const struct ud_workload *x = s == UD_SIDE_A ? w->a : w->b;
	double work = s == UD_SIDE_A ? w->work.a : w->work.b;

	return ratio(w->counting.cycles[s] * work, x->elapsed_ns);
}

/*
 * The CPU time a side's cycles ran in: task-clock, else getrusage's user
 * and sys where they are many ticks (a paste that printed "seconds user"
 * but no task-clock).
 */
static double cpu_time_of(const struct ud_workload *x)
{
	double tc = ud_workload_task_clock_ns(x);

	return isfinite(tc) ? tc : x->user_ns + x->sys_ns >= UD_MIN_RUSAGE_NS ? x->user_ns + x->sys_ns : NAN;
}

/* Cycles of the compared domain over task-clock: a clock only where it is a plausible one (diff_thresholds.h). */
static double plausible_ghz(const struct ud_diff_workload *w, enum ud_side s)
{
	const struct ud_workload *x = s == UD_SIDE_A ? w->a : w->b;
	double work = s == UD_SIDE_A ? w->work.a : w->work.b;
	double ghz = ratio(w->counting.cycles[s] * work, cpu_time_of(x));

	return ghz >= UD_GHZ_PLAUSIBLE_LOW && ghz <= UD_GHZ_PLAUSIBLE_HIGH ? ghz : NAN;
}

/*
 * Path length and IPC where instructions are one unit of work on both
 * sides; else, where they are not (other instruction sets, IPC so low that
 * one instruction does kilobytes), cycles per unit of work in their place,
 * with the reason.
 */
static void work_factors(struct ud_diff_workload *w)
{
	const struct ud_counting_info *c = &w->counting;
	double *f = w->factor;
	const char *why = c->cross_isa ? "the two hosts run different instruction sets: an instruction is not one "
					 "unit of work on both, so cycles per unit of work compares them"
			  : w->low_ipc ? "at an IPC below 0.1 instructions are not the unit of work: cycles per unit "
					 "of work compares them"
				       : NULL;

	f[UD_FACTOR_PATH_LENGTH] = w->foreign_counts ? NAN : ratio(c->instructions[UD_SIDE_A], c->instructions[UD_SIDE_B]);
	f[UD_FACTOR_IPC] = ratio(ratio(c->instructions[UD_SIDE_B], c->cycles[UD_SIDE_B]),
				 ratio(c->instructions[UD_SIDE_A], c->cycles[UD_SIDE_A]));
	f[UD_FACTOR_CYCLES] = NAN;
	if (!why)
		return;
	f[UD_FACTOR_CYCLES] = w->foreign_counts ? NAN : ratio(c->cycles[UD_SIDE_A], c->cycles[UD_SIDE_B]);
	f[UD_FACTOR_PATH_LENGTH] = f[UD_FACTOR_IPC] = NAN;
	w->factor_notes[UD_FACTOR_PATH_LENGTH] = w->factor_notes[UD_FACTOR_IPC] = why;
}

/*
 * Where both sides counted cycles or instructions but their domains do not
 * compare, or one covers too little of its CPU time, no factor reads them,
 * and each says why.
 */
static void domain_notes(struct ud_diff_workload *w)
{
	const struct ud_counting_info *c = &w->counting;
	const char *why = ud_diff_domain_too_narrow(w)
				  ? "the counted mode covers under half of a side's CPU time: its counters cannot split "
				    "the speedup"
			  : isnan(c->cycles[UD_SIDE_A]) && c->domain[UD_SIDE_A] != UD_COUNTING_COUNT &&
					  c->domain[UD_SIDE_B] != UD_COUNTING_COUNT
				  ? "the two sides counted cycles and instructions in modes that do not compare"
				  : NULL;

	if (!why)
		return;
	for (int k = UD_FACTOR_PATH_LENGTH; k <= UD_FACTOR_CYCLES; k++) {
		if (k == UD_FACTOR_UTILIZATION)
			continue;
		w->factor[k] = NAN;
		w->factor_notes[k] = why;
	}
}

/*
 * The counted factors, in the domain the two sides' counts compare in
 * (struct ud_counting_info).  Where a side's domain covers too little of
 * its CPU time, none that reads cycles or instructions: the counters
 * cannot split what they did not see.  A derived clock that is no
 * plausible clock is no frequency factor.  Where a side has no task-clock
 * (a benchmark log) but both have cycles and elapsed time, one clock factor
 * stands for frequency and utilization.
 */
static void counted_factors(struct ud_diff_workload *w)
{
	double *f = w->factor;

	for (int k = 0; k < UD_FACTOR_COUNT; k++)
		w->factor_notes[k] = NULL;
	work_factors(w);
	f[UD_FACTOR_FREQUENCY] = ratio(plausible_ghz(w, UD_SIDE_B), plausible_ghz(w, UD_SIDE_A));
	if (isnan(f[UD_FACTOR_FREQUENCY]) && isfinite(ratio(w->counting.cycles[UD_SIDE_B] * w->work.b, cpu_time_of(w->b))) &&
	    isfinite(cpu_time_of(w->a)) && isfinite(w->counting.cycles[UD_SIDE_A]))
		w->factor_notes[UD_FACTOR_FREQUENCY] = "the counted cycles over task-clock are no plausible clock on "
						       "a side (the counted mode covers part of the time, or a VM's "
						       "vCPU was halted within task-clock)";
	/* A speedup in CPU time does not depend on how many CPUs shared the work. */
	f[UD_FACTOR_UTILIZATION] = w->basis == UD_SPEEDUP_TASK_CLOCK
					   ? NAN
					   : ratio(ud_metric(w->b, UD_M_CPUS_UTILIZED), ud_metric(w->a, UD_M_CPUS_UTILIZED));
	f[UD_FACTOR_CLOCK] = NAN;
	/* cycles of a whole machine (perf stat -a) over the elapsed time are no one workload's clock */
	if (w->foreign_counts && isfinite(w->counting.cycles[UD_SIDE_A]) && isfinite(w->counting.cycles[UD_SIDE_B]))
		w->factor_notes[UD_FACTOR_CLOCK] = "a side's counts are the machine's (system-wide or CPUs), not the "
						   "workload's: their cycles per second are no clock of it";
	else if (w->basis == UD_SPEEDUP_SCORE && isnan(f[UD_FACTOR_FREQUENCY]) && !w->factor_notes[UD_FACTOR_FREQUENCY] &&
	    isfinite(ratio(clock_rate(w, UD_SIDE_B), clock_rate(w, UD_SIDE_A)))) {
		f[UD_FACTOR_CLOCK] = ratio(clock_rate(w, UD_SIDE_B), clock_rate(w, UD_SIDE_A));
		f[UD_FACTOR_UTILIZATION] = NAN;
	}
	domain_notes(w);
}

/* The largest share in the direction of the result: a factor that pulled the other way never dominates. */
static void pick_dominant(struct ud_diff_workload *w)
{
	w->has_dominant = false;
	for (int f = 0; f < UD_FACTOR_COUNT; f++) {
		if (w->share[f] > 0 && (!w->has_dominant || w->share[f] > w->share[w->dominant])) {
			w->dominant = (enum ud_factor)f;
			w->has_dominant = true;
		}
	}
}

static void compute_factors(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	double product = 1, l = log(w->speedup);

	w->user_mode_only = user_mode_only(w->a) || user_mode_only(w->b);
	w->modes_differ = modes_differ(w->a, w->b);
	w->foreign_counts = !own_work(w->a) || !own_work(w->b);
	w->work = work_per_run(w);
	ud_diff_counting(w, ua, ub);
	counted_factors(w);
	for (int f = 0; f < UD_FACTOR_UNEXPLAINED; f++) {
		if (!(w->factor[f] > 0) || !isfinite(w->factor[f]))
			w->factor[f] = NAN;
		else
			product *= w->factor[f];
	}
	/* What the counters do not explain, so that the product is the speedup. */
	w->factor[UD_FACTOR_UNEXPLAINED] = w->speedup / product;
	for (int f = 0; f < UD_FACTOR_COUNT; f++) {
		/* A move too small or insignificant has no log worth sharing out (diff_thresholds.h). */
		double share = splittable(w) ? log(w->factor[f]) / l : NAN;

		w->share[f] = isfinite(share) ? share : NAN;
	}
	pick_dominant(w);
}

/* Whether getrusage's user and sys times of x are many ticks, enough to split its CPU time by (UD_MIN_RUSAGE_NS). */
static bool rusage_splits(const struct ud_workload *x)
{
	return x->user_ns + x->sys_ns >= UD_MIN_RUSAGE_NS;
}

/*
 * What the source printed for metric m on a side where the counts give
 * none: that metric's own name, else the reciprocal of IPC's or CPI's
 * (PerfSpect prints CPI alone); NAN where it printed neither, or a clock
 * outside the plausible range.
 */
static double printed_metric(const struct ud_workload *x, enum ud_metric m, double derived)
{
	double v;

	if (isfinite(derived))
		return NAN;
	v = ud_workload_perf_metric(x, ud_metric_name(m));
	if (!isfinite(v) && (m == UD_M_IPC || m == UD_M_CPI))
		v = 1 / ud_workload_perf_metric(x, ud_metric_name(m == UD_M_IPC ? UD_M_CPI : UD_M_IPC));
	/* perf prints ":u" cycles over all of task-clock as 0.02 GHz too: no clock, as the counts' own */
	if (m == UD_M_GHZ && !(v >= UD_GHZ_PLAUSIBLE_LOW && v <= UD_GHZ_PLAUSIBLE_HIGH))
		return NAN;
	return isfinite(v) && v > 0 ? v : NAN;
}

static void compute_metrics(struct ud_diff_workload *w)
{
	for (int m = 0; m < UD_METRIC_COUNT; m++) {
		double a = ud_metric(w->a, (enum ud_metric)m), b = ud_metric(w->b, (enum ud_metric)m), pa, pb;

		/* a few ticks of user and sys time are no split of CPU time (a 350 us echo read 100% kernel, then 0%) */
		if (m == UD_M_SYS_SHARE) {
			a = rusage_splits(w->a) ? a : NAN;
			b = rusage_splits(w->b) ? b : NAN;
		}
		/* cycles of one mode over all of task-clock (0.02 GHz) is no clock, and shown as none */
		if (m == UD_M_GHZ) {
			a = a >= UD_GHZ_PLAUSIBLE_LOW && a <= UD_GHZ_PLAUSIBLE_HIGH ? a : NAN;
			b = b >= UD_GHZ_PLAUSIBLE_LOW && b <= UD_GHZ_PLAUSIBLE_HIGH ? b : NAN;
		}
		w->metric[m] = (struct ud_ab){ a, b, ratio(b, a) };
		pa = printed_metric(w->a, (enum ud_metric)m, a);
		pb = printed_metric(w->b, (enum ud_metric)m, b);
		w->printed[m] = (struct ud_ab){ pa, pb, ratio(isfinite(pb) ? pb : b, isfinite(pa) ? pa : a) };
	}
}

/*
 * ΔCPI = cpi_A - cpi_B split into what branch and L1d misses cost on each
 * host, by its own penalties (the document's "cpi_penalties"); "other" is
 * the residual, which an out-of-order core always leaves (Eyerman et al.,
 * ASPLOS 2006).
 */
static void compute_cpi_stack(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	const struct ud_ab *cpi = &w->metric[UD_M_CPI], *bm = &w->metric[UD_M_BRANCH_MPKI], *lm = &w->metric[UD_M_L1D_MPKI];
	double pb_a = ua ? ua->penalty_branch : NAN, pb_b = ub ? ub->penalty_branch : NAN;
	double pl_a = ua ? ua->penalty_l1d : NAN, pl_b = ub ? ub->penalty_l1d : NAN;
	struct ud_cpi_stack *s = &w->cpi;

	s->cpi_a = cpi->a;
	s->cpi_b = cpi->b;
	s->delta = cpi->a - cpi->b;
	/* a metric whose events mean different things on the two sides is not charged */
	s->branch = w->incomparable[UD_M_BRANCH_MPKI] ? NAN : (bm->a * pb_a - bm->b * pb_b) / PER_KILO;
	s->l1d = w->incomparable[UD_M_L1D_MPKI] ? NAN : (lm->a * pl_a - lm->b * pl_b) / PER_KILO;
	s->other = s->delta - (isfinite(s->branch) ? s->branch : 0) - (isfinite(s->l1d) ? s->l1d : 0);
	/* The parts charge every miss its full penalty: when they add up to more than ΔCPI, misses overlapped. */
	s->overshoot = (isfinite(s->branch) || isfinite(s->l1d)) && isfinite(s->other) &&
		       ((s->delta > 0 && s->other < 0) || (s->delta < 0 && s->other > 0));
}

static int cmp_counter_name(const void *x, const void *y)
{
	return strcmp((*(const struct ud_counter *const *)x)->name, (*(const struct ud_counter *const *)y)->name);
}

/*
 * For each of from's counters, in's counter of the same name or NULL (a new
 * array, the caller frees it; NULL out of memory), through one sort of in's
 * (a profile of 20,000 counters took 19 s when each was looked up by a scan).
 */
static const struct ud_counter **match_counters(const struct ud_workload *from, const struct ud_workload *in)
{
	const struct ud_counter **sorted = malloc((in->ncounters + 1) * sizeof(*sorted));
	const struct ud_counter **found = calloc(from->ncounters + 1, sizeof(*found));

	if (!sorted || !found) {
		free(sorted);
		free(found);
		return NULL;
	}
	for (size_t i = 0; i < in->ncounters; i++)
		sorted[i] = &in->counters[i];
	ud_sort(sorted, in->ncounters, sizeof(*sorted), cmp_counter_name);
	for (size_t i = 0; i < from->ncounters; i++) {
		const struct ud_counter *key = &from->counters[i], *const *hit =
			ud_bsearch(&key, sorted, in->ncounters, sizeof(*sorted), cmp_counter_name);

		found[i] = hit ? *hit : NULL;
	}
	free(sorted);
	return found;
}

/* from's counters (on side) that it counted and other[i] did not, appended to w->one_sided. */
static void add_one_sided(struct ud_diff_workload *w, const struct ud_workload *from, enum ud_side side,
			  const struct ud_counter *const *other)
{
	for (size_t i = 0; i < from->ncounters; i++) {
		const struct ud_counter *c = &from->counters[i];

		if (c->status == UD_COUNTED && (!other[i] || other[i]->status != UD_COUNTED))
			w->one_sided[w->none_sided++] = (struct ud_one_sided){
				c->name, side, other[i] ? ud_count_status_name(other[i]->status) : "absent"
			};
	}
}

/* w->counter_b, and the counters only one side counted. */
static int match_sides(struct ud_diff_workload *w)
{
	const struct ud_counter **counter_a = match_counters(w->b, w->a);

	w->counter_b = match_counters(w->a, w->b);
	w->one_sided = calloc(w->a->ncounters + w->b->ncounters + 1, sizeof(*w->one_sided));
	if (!counter_a || !w->counter_b || !w->one_sided) {
		free(counter_a);
		return -1;
	}
	add_one_sided(w, w->a, UD_SIDE_A, w->counter_b);
	add_one_sided(w, w->b, UD_SIDE_B, counter_a);
	free(counter_a);
	return 0;
}

static double counted_value(const struct ud_counter *c)
{
	return c && c->status == UD_COUNTED ? c->value : NAN;
}

/* One total per unit of work on each side. */
static struct ud_ab per_unit_of(const struct ud_diff_workload *w, double total_a, double total_b)
{
	double a = ratio(total_a, w->work.a), b = ratio(total_b, w->work.b);

	return (struct ud_ab){ a, b, ratio(b, a) };
}

/* A time per unit of work, whose noise the score's test speaks for. */
static struct ud_per_unit time_per_unit(const struct ud_diff_workload *w, const char *name, double a, double b)
{
	return (struct ud_per_unit){ name, per_unit_of(w, a, b), UD_CLASS_SOFTWARE, UD_COUNTING_ALL, -1, NAN };
}

/* user_ns, sys_ns, task-clock, then every other counter both sides counted, in A's order. */
static int compute_per_unit(struct ud_diff_workload *w)
{
	const struct ud_workload *a = w->a, *b = w->b;
	size_t n = 0;

	w->per_unit = calloc(a->ncounters + 3, sizeof(*w->per_unit));
	if (!w->per_unit || match_sides(w) != 0)
		return -1;
	w->per_unit[n++] = time_per_unit(w, "user_ns", a->user_ns, b->user_ns);
	w->per_unit[n++] = time_per_unit(w, "sys_ns", a->sys_ns, b->sys_ns);
	w->per_unit[n++] = time_per_unit(w, "task-clock", ud_workload_task_clock_ns(a), ud_workload_task_clock_ns(b));
	for (size_t i = 0; i < a->ncounters; i++) {
		const struct ud_counter *ca = &a->counters[i];
		double va = counted_value(ca), vb = counted_value(w->counter_b[i]);

		if (strcmp(ca->name, "task-clock") == 0 || !isfinite(va) || !isfinite(vb))
			continue;
		w->per_unit[n] = (struct ud_per_unit){ ca->name, per_unit_of(w, va, vb), ud_counter_class_of(ca),
						       ud_counter_mode_of(ca), -1, NAN };
		ud_diff_counter_significance(w, ca, w->counter_b[i], &w->per_unit[n++]);
	}
	w->nper_unit = n;
	return 0;
}

/* Each mode's part of the change in cycles per unit of work, from cycles:u and cycles:k. */
static void compute_cycles_split(struct ud_diff_workload *w)
{
	double a[UD_MODE_COUNT], b[UD_MODE_COUNT], change;

	for (int m = 0; m < UD_MODE_COUNT; m++) {
		a[m] = ratio(ud_workload_class_value(w->a, UD_CLASS_CYCLES, mode_counting[m]), w->work.a);
		b[m] = ratio(ud_workload_class_value(w->b, UD_CLASS_CYCLES, mode_counting[m]), w->work.b);
	}
	change = (a[UD_MODE_USER] + a[UD_MODE_KERNEL]) - (b[UD_MODE_USER] + b[UD_MODE_KERNEL]);
	for (int m = 0; m < UD_MODE_COUNT; m++)
		w->mode[m].cycles_share = isfinite(change) && change != 0 ? (a[m] - b[m]) / change : NAN;
}

/*
 * CPU time per unit in each mode and each mode's part of its change:
 * kernel = (s_A - s_B) / ((u_A + s_A) - (u_B + s_B)) (SPEC §5.1), so the two
 * parts sum to 1; undefined when the total did not move.
 */
static void compute_modes(struct ud_diff_workload *w)
{
	struct ud_mode_part *user = &w->mode[UD_MODE_USER], *kernel = &w->mode[UD_MODE_KERNEL];
	double change;

	user->a = ratio(w->a->user_ns, w->work.a);
	user->b = ratio(w->b->user_ns, w->work.b);
	kernel->a = ratio(w->a->sys_ns, w->work.a);
	kernel->b = ratio(w->b->sys_ns, w->work.b);
	change = (user->a + kernel->a) - (user->b + kernel->b);
	kernel->share = isfinite(change) && change != 0 ? (kernel->a - kernel->b) / change : NAN;
	user->share = isfinite(kernel->share) ? 1 - kernel->share : NAN;
	for (int m = 0; m < UD_MODE_COUNT; m++) {
		enum ud_counting c = mode_counting[m];
		double a = ratio(ud_workload_class_value(w->a, UD_CLASS_INSTRUCTIONS, c),
				 ud_workload_class_value(w->a, UD_CLASS_CYCLES, c));
		double b = ratio(ud_workload_class_value(w->b, UD_CLASS_INSTRUCTIONS, c),
				 ud_workload_class_value(w->b, UD_CLASS_CYCLES, c));

		w->mode[m].ipc = (struct ud_ab){ a, b, ratio(b, a) };
	}
	compute_cycles_split(w);
}

/*
 * A kernel-crossing cost (diff_thresholds.h, UD_CROSSING_BOTH_MOVED): on a
 * kernel-heavy workload, user and kernel time per unit of work both moved
 * that far, the same way.
 */
static bool crossing(const struct ud_diff_workload *w)
{
	const struct ud_mode_part *u = &w->mode[UD_MODE_USER], *k = &w->mode[UD_MODE_KERNEL];
	double ru = ratio(u->a, u->b), rk = ratio(k->a, k->b);

	if (w->group != UD_GROUP_KERNEL_HEAVY || !rusage_splits(w->a) || !rusage_splits(w->b))
		return false;
	return (ru >= UD_CROSSING_BOTH_MOVED && rk >= UD_CROSSING_BOTH_MOVED) ||
	       (ru <= 1 / UD_CROSSING_BOTH_MOVED && rk <= 1 / UD_CROSSING_BOTH_MOVED);
}

/* By the kernel's share of CPU time on the heavier side (diff_thresholds.h). */
static enum ud_group group_of(const struct ud_diff_workload *w)
{
	const struct ud_ab *ss = &w->metric[UD_M_SYS_SHARE];

	/* "on either host": one side's share is enough to call it kernel-heavy */
	if (ss->a >= UD_KERNEL_HEAVY_SYS_SHARE || ss->b >= UD_KERNEL_HEAVY_SYS_SHARE)
		return UD_GROUP_KERNEL_HEAVY;
	if (!isfinite(ss->a) || !isfinite(ss->b))
		return UD_GROUP_UNKNOWN;
	if (ss->a <= UD_COMPUTE_BOUND_SYS_SHARE && ss->b <= UD_COMPUTE_BOUND_SYS_SHARE)
		return UD_GROUP_COMPUTE_BOUND;
	return UD_GROUP_MIXED;
}

/*
 * The scores where both sides have one; else CPU time, which any perf paste
 * has (lower is better: A's task-clock over B's); else nothing.
 */
static void compute_speedup(struct ud_diff_workload *w)
{
	const struct ud_workload *a = w->a, *b = w->b;
	double ta = ud_workload_task_clock_ns(a), tb = ud_workload_task_clock_ns(b);

	if (isfinite(a->score.median) && isfinite(b->score.median)) {
		w->basis = UD_SPEEDUP_SCORE;
		w->speedup = a->higher_is_better == 0 ? a->score.median / b->score.median
						      : b->score.median / a->score.median;
	} else if (ta > 0 && tb > 0) {
		w->basis = UD_SPEEDUP_TASK_CLOCK;
		w->speedup = ta / tb;
	} else {
		w->basis = UD_SPEEDUP_NONE;
		w->speedup = NAN;
	}
}

/* Both cores speak one instruction set, as far as their tables say. */
static bool same_isa(const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	return ua && ub && ua->detect != UD_DETECT_NONE && ua->detect == ub->detect;
}

static bool ipc_beyond_generation(const struct ud_diff_workload *w, const struct ud_uarch *ua,
				  const struct ud_uarch *ub)
{
	double ipc = w->factor[UD_FACTOR_IPC], path = w->factor[UD_FACTOR_PATH_LENGTH];

	return same_isa(ua, ub) && (ipc >= UD_IPC_BEYOND_GENERATION || ipc <= 1 / UD_IPC_BEYOND_GENERATION) &&
	       path >= UD_PATH_LENGTH_SAME_LOW && path <= UD_PATH_LENGTH_SAME_HIGH;
}

int ud_diff_workload_compute(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	w->composite = w->a->composite || w->b->composite;
	compute_speedup(w);
	ud_diff_significance(w); /* before the factors: an insignificant move is not split */
	compute_metrics(w);
	w->low_ipc = w->metric[UD_M_IPC].a < UD_LOW_IPC || w->metric[UD_M_IPC].b < UD_LOW_IPC;
	compute_factors(w, ua, ub);
	if (ud_diff_comparability(w, ua, ub) != 0)
		return -1;
	compute_modes(w);
	w->group = group_of(w);
	w->crossing = crossing(w);
	w->ipc_beyond_generation = ipc_beyond_generation(w, ua, ub);
	compute_cpi_stack(w, ua, ub);
	ud_diff_topdown(w);
	if (compute_per_unit(w) != 0)
		return -1;
	ud_diff_causes(w, ua, ub);
	return ud_diff_verdict(w);
}
