/*
 * teach.c - the labs' words, the knee finder and the verdicts (teach.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "teach.h"

static const struct ud_lab_text texts[UD_LAB_COUNT] = {
	[UD_LAB_BRANCH] = {
		.title = "Branch prediction",
		.explanation = "A processor guesses which way each branch goes long before it knows, and keeps working on the "
			       "guess. When the guess is wrong it throws that work away and starts again, which costs about "
			       "as much as a dozen or more ordinary instructions. Data the predictor cannot guess makes the "
			       "same loop many times slower.",
		.experiment = "One loop adds up the bytes >= 128 of a 1 MB array through a real conditional branch (checked "
			      "with objdump: no conditional move). The array is sorted, or random, or taken at random "
			      "positions with a chosen share (0% to 50%); 1 MB is far more than any predictor's history, so "
			      "it cannot learn the random data.",
		.expected = "Sorted data costs about a cycle an element; random data many times more (13x measured on "
			    "Zen 5). The cost rises with the share of taken branches, as mispredicts per element rise with "
			    "it, up to 50%, where the best guess is a coin toss.",
		.x_label = "share of elements taking the branch, at random positions", .x_unit = "%", .x_log = false,
		.y_label = "time per element", .y_unit = "ns",
		.metric = "ns per element",
	},
	[UD_LAB_CACHE] = {
		.title = "The memory hierarchy",
		.explanation = "A load from the L1 data cache takes a few cycles; from the L2 about three times that, from the "
			       "L3 ten times, from memory a hundred times. How long a load waits depends on how much data "
			       "the program keeps going through: each time the working set outgrows a cache level, latency "
			       "steps up.",
		.experiment = "A pointer chase: every cache line of a buffer points to the next in one random cycle, so each "
			      "load waits for the last and no prefetcher can guess the next line. Working sets from 4 KB to "
			      "4 times the L3 (capped by free memory); the time per load at each.",
		.expected = "Flat steps with knees where the working set outgrows the L1d, the L2 and the L3, near the sizes "
			    "sysfs gives, then memory latency (about 100 ns).",
		.x_label = "working set", .x_unit = "KB", .x_log = true,
		.y_label = "latency per load", .y_unit = "ns", .y_log = true,
		.metric = "ns per load",
	},
	[UD_LAB_ILP] = {
		.title = "Instruction-level parallelism",
		.explanation = "A core can start several instructions each cycle, but an instruction that needs the result of "
			       "the one before must wait for it. One chain of dependent multiplies runs at the multiply's "
			       "latency; several independent chains overlap, until the core's multiply units are all busy.",
		.experiment = "1 to 8 independent chains of x = x * C + i, the same multiply-adds in each case, counted as "
			      "multiply-adds per nanosecond.",
		.expected = "Throughput rises with the number of chains (about 4x at 4 chains, as a multiply-add's latency "
			    "is about 4 cycles), then levels off where the core's execution width is reached.",
		.x_label = "independent chains", .x_unit = "", .x_log = false,
		.y_label = "throughput", .y_unit = "multiply-adds/ns",
		.metric = "multiply-adds per ns",
	},
};

const char *ud_lab_name(enum ud_lab lab)
{
	static const char *const names[UD_LAB_COUNT] = { "branch", "cache", "ilp" };

	return lab < UD_LAB_COUNT ? names[lab] : "unknown";
}

int ud_lab_parse(const char *name, enum ud_lab *lab)
{
	for (int i = 0; i < UD_LAB_COUNT; i++) {
		if (strcmp(name, ud_lab_name((enum ud_lab)i)) == 0) {
			*lab = (enum ud_lab)i;
			return 0;
		}
	}
	return -1;
}

const struct ud_lab_text *ud_lab_text(enum ud_lab lab)
{
	return &texts[lab < UD_LAB_COUNT ? lab : 0];
}

void ud_lab_result_init(struct ud_lab_result *r, enum ud_lab lab)
{
	memset(r, 0, sizeof(*r));
	r->lab = lab;
	r->reference = NAN;
	r->counters = UD_NOT_COUNTED;
	r->a = r->b = r->ratio = NAN;
	ud_noise_init(&r->noise);
}

void ud_lab_result_free(struct ud_lab_result *r)
{
	free(r->points);
	r->points = NULL;
	r->npoints = 0;
	free(r->measured);
	r->measured = NULL;
	free(r->why_not);
	r->why_not = NULL;
	ud_noise_clear(&r->noise);
}

static double kb_of(const struct ud_host *host, enum ud_host_cache which)
{
	return host ? (double)(ud_host_cache_bytes(host, which) / 1024) : 0;
}

struct ud_cache_kb ud_teach_caches(const struct ud_host *host)
{
	return (struct ud_cache_kb){ kb_of(host, UD_CACHE_L1D), kb_of(host, UD_CACHE_L2), kb_of(host, UD_CACHE_L3) };
}

static double slope(const struct ud_lab_point *p, size_t i)
{
	double dx = log(p[i + 1].x / p[i].x), dy = log(p[i + 1].y / p[i].y);

	return dx > 0 && isfinite(dy) ? dy / dx : -INFINITY;
}

static int by_kb(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

size_t ud_knees_find(const struct ud_lab_point *p, size_t n, double *knees_kb, size_t max)
{
	size_t found = 0, at[UD_TEACH_KNEES_MAX];
	double s[64];

	if (n < 2)
		return 0;
	n = n - 1 > 64 ? 64 : n - 1; /* n slopes from here on */
	for (size_t i = 0; i < n; i++)
		s[i] = slope(p, i);
	max = max > UD_TEACH_KNEES_MAX ? UD_TEACH_KNEES_MAX : max;
	/* steepest first; a slope beside one already taken is the same rise, spread over two steps */
	while (found < max) {
		size_t best = n;

		for (size_t i = 0; i < n; i++) {
			bool beside = false;

			for (size_t k = 0; k < found; k++)
				beside |= i + 1 >= at[k] && i <= at[k] + 1;
			if (!beside && s[i] >= UD_KNEE_MIN_SLOPE && (best == n || s[i] > s[best]))
				best = i;
		}
		if (best == n)
			break;
		at[found++] = best;
	}
	for (size_t k = 0; k < found; k++)
		knees_kb[k] = p[at[k]].x;
	ud_sort(knees_kb, found, sizeof(*knees_kb), by_kb);
	return found;
}
