/*
 * What the two sides counted, and whether their counts compare (diff.h's
 * struct ud_counting_info): the counting domain of each side's cycles and
 * instructions and how much of its CPU time that covers, each side's
 * instruction set, and cycles and instructions per unit of work in the
 * domain the factors compare.
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "diff_priv.h"
#include "diff_thresholds.h"

/*
 * Where getrusage does not say, the most a mode's cycles can cover of
 * task-clock: they ran at no slower a clock than UD_GHZ_SLOWEST, so a
 * mode counting 0.02 GHz of cycles over task-clock covers at most a
 * twentieth of it.  Only a bound under UD_COVERAGE_SPLIT is worth having;
 * NAN otherwise.
 */
static double coverage_bound(const struct ud_workload *x, enum ud_counting d)
{
	double bound = ud_workload_class_value(x, UD_CLASS_CYCLES, d) / ud_workload_task_clock_ns(x) / UD_GHZ_SLOWEST;

	return bound < UD_COVERAGE_SPLIT ? bound : NAN;
}

/*
 * How much of x's CPU time domain d covers: all of it for every mode, the
 * user or kernel share of getrusage's time for one (NAN where that time is
 * unknown or too coarse to split, UD_MIN_RUSAGE_NS).
 */
static double coverage_of(const struct ud_workload *x, enum ud_counting d)
{
	double total = x->user_ns + x->sys_ns;

	if (d == UD_COUNTING_ALL)
		return 1;
	if (!(total >= UD_MIN_RUSAGE_NS))
		return coverage_bound(x, d);
	if (d == UD_COUNTING_USER)
		return x->user_ns / total;
	return d == UD_COUNTING_KERNEL ? x->sys_ns / total : NAN;
}

/* What a side's counters say of its instruction set where the host's facts do not: POWER's PM_ events. */
static const char *isa_of_counters(const struct ud_workload *x)
{
	for (size_t i = 0; i < x->ncounters; i++)
		if (strncasecmp(x->counters[i].name, "PM_", 3) == 0)
			return "ppc64";
	return NULL;
}

/*
 * A side's instruction family: its host's stated or read ISA (ppc64le and
 * ppc64 one family: their instructions are one unit), its table's (x86 or
 * Arm), else what its counters name.
 */
static const char *isa_of(const struct ud_host *h, const struct ud_workload *x, const struct ud_uarch *u)
{
	const char *isa = h ? h->cpu.isa : NULL;

	if (isa)
		return strncmp(isa, "ppc64", 5) == 0 ? "ppc64" : strncmp(isa, "arm", 3) == 0 ? "arm" : isa;
	if (u && u->detect == UD_DETECT_X86)
		return "x86_64";
	if (u && u->detect == UD_DETECT_ARM)
		return "aarch64";
	return isa_of_counters(x);
}

/* Whether A's and B's domains compare, and whether only approximately. */
static bool domains_compare(struct ud_counting_info *c, bool *approximate)
{
	enum ud_counting da = c->domain[UD_SIDE_A], db = c->domain[UD_SIDE_B];
	int narrow = da == UD_COUNTING_ALL ? UD_SIDE_B : UD_SIDE_A;

	*approximate = false;
	if (da == UD_COUNTING_COUNT || db == UD_COUNTING_COUNT)
		return false;
	if (da == db)
		return true;
	if (da != UD_COUNTING_ALL && db != UD_COUNTING_ALL)
		return false;
	/* all modes against one mode that covers most of that side's time, or may: compared, approximately */
	*approximate = true;
	return !(c->coverage[narrow] < UD_COVERAGE_SPLIT);
}

void ud_diff_counting(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	struct ud_counting_info *c = &w->counting;
	const struct ud_workload *x[UD_SIDE_COUNT] = { w->a, w->b };
	const double work[UD_SIDE_COUNT] = { w->work.a, w->work.b };
	bool compare;

	memset(c, 0, sizeof(*c));
	c->isa[UD_SIDE_A] = isa_of(w->host[UD_SIDE_A], w->a, ua);
	c->isa[UD_SIDE_B] = isa_of(w->host[UD_SIDE_B], w->b, ub);
	c->cross_isa = c->isa[0] && c->isa[1] && strcmp(c->isa[0], c->isa[1]) != 0;
	for (int s = 0; s < UD_SIDE_COUNT; s++) {
		c->domain[s] = ud_workload_domain(x[s]);
		c->coverage[s] = c->domain[s] == UD_COUNTING_COUNT ? NAN : coverage_of(x[s], c->domain[s]);
		c->coverage_at_most[s] = isfinite(c->coverage[s]) && c->domain[s] != UD_COUNTING_ALL &&
					 !(x[s]->user_ns + x[s]->sys_ns >= UD_MIN_RUSAGE_NS);
	}
	compare = domains_compare(c, &c->approximate);
	for (int s = 0; s < UD_SIDE_COUNT; s++) {
		double ok = compare && work[s] > 0 ? 1 : NAN;

		c->cycles[s] = ok * ud_workload_class_value(x[s], UD_CLASS_CYCLES, c->domain[s]) / work[s];
		c->instructions[s] = ok * ud_workload_class_value(x[s], UD_CLASS_INSTRUCTIONS, c->domain[s]) / work[s];
	}
}

bool ud_diff_domain_too_narrow(const struct ud_diff_workload *w)
{
	const struct ud_counting_info *c = &w->counting;

	return c->coverage[UD_SIDE_A] < UD_COVERAGE_SPLIT || c->coverage[UD_SIDE_B] < UD_COVERAGE_SPLIT;
}
