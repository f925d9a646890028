#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"

enum check { CHECK_CPUS, CHECK_STEAL, CHECK_CI, CHECK_COUNT };

/* v as printed with digits decimals: a threshold is compared with what the reader sees, never "0.90 below 0.9". */
static double printed(double v, int digits)
{
	double scale = pow(10, digits);

	return round(v * scale) / scale;
}

/* Whether n crosses check's threshold at the precision its sentence prints; unknown (NAN) figures cross nothing. */
static bool crossed(const struct ud_noise *n, enum check c, bool single_threaded)
{
	switch (c) {
	case CHECK_CPUS: return single_threaded && printed(n->cpus_utilized_min, 2) < UD_NOISE_MIN_CPUS;
	case CHECK_STEAL: return printed(n->steal_pct, 1) > UD_NOISE_MAX_STEAL_PCT;
	case CHECK_CI: return printed(100 * n->ci95_rel, 1) > 100 * UD_NOISE_MAX_CI95_REL;
	case CHECK_COUNT: break;
	}
	return false;
}

/* The sentence (long) or the table tag (short) for a crossed check. */
static void describe(const struct ud_noise *n, enum check c, bool brief, char *buf, size_t len)
{
	switch (c) {
	case CHECK_CPUS:
		if (brief)
			snprintf(buf, len, "%.2f CPUs", n->cpus_utilized_min);
		else
			snprintf(buf, len, "ran at %.2f CPUs utilized (below %.2f): something else held its CPU",
				 n->cpus_utilized_min, UD_NOISE_MIN_CPUS);
		break;
	case CHECK_STEAL:
		if (brief)
			snprintf(buf, len, "steal %.1f%%", n->steal_pct);
		else
			snprintf(buf, len, "steal time %.1f%% of the host's CPU time (above %.0f%%): the hypervisor ran "
				 "others on these CPUs", n->steal_pct, UD_NOISE_MAX_STEAL_PCT);
		break;
	case CHECK_CI:
		if (brief)
			snprintf(buf, len, "interval %.1f%%", 100 * n->ci95_rel);
		else
			snprintf(buf, len, "95%% interval %.1f%% (above %.0f%%): the samples disagree", 100 * n->ci95_rel,
				 100 * UD_NOISE_MAX_CI95_REL);
		break;
	case CHECK_COUNT:
		buf[0] = '\0';
		break;
	}
}

int ud_noise_assess(struct ud_noise *n, bool single_threaded)
{
	char text[192];

	for (enum check c = 0; c < CHECK_COUNT; c++) {
		if (!crossed(n, c, single_threaded))
			continue;
		describe(n, c, false, text, sizeof(text));
		if (ud_noise_add_warning(n, text) != 0)
			return -1;
	}
	return 0;
}

void ud_noise_tags(const struct ud_noise *n, bool single_threaded, char *buf, size_t len)
{
	size_t used = 0;
	char tag[32];

	snprintf(buf, len, "-");
	for (enum check c = 0; n && c < CHECK_COUNT && used < len; c++) {
		if (!crossed(n, c, single_threaded))
			continue;
		describe(n, c, true, tag, sizeof(tag));
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", tag);
	}
}

/* The interval's warning, the one ud_noise_assess() wrote, or NULL. */
static char **interval_warning(struct ud_noise *n)
{
	char ci[192];

	describe(n, CHECK_CI, false, ci, sizeof(ci));
	for (size_t i = 0; i < n->nwarnings; i++)
		if (strcmp(n->warnings[i], ci) == 0)
			return &n->warnings[i];
	return NULL;
}

int ud_noise_target_missed(struct ud_noise *n, double target)
{
	char text[256], above[32] = "", **ci = interval_warning(n), *merged;

	n->budget_ran_out = true;
	if (ci)
		snprintf(above, sizeof(above), " (above %.0f%%)", 100 * UD_NOISE_MAX_CI95_REL);
	/* one cause, one sentence: a wide interval and the budget that ran out before narrowing it */
	snprintf(text, sizeof(text),
		 "95%% interval %.1f%% after %d samples%s: %sthe suite's time budget ran out before the %.0f%% target",
		 100 * n->ci95_rel, n->samples_taken, above, ci ? "the samples disagree and " : "", 100 * target);
	if (!ci)
		return ud_noise_add_warning(n, text);
	if (!(merged = strdup(text)))
		return -1;
	free(*ci);
	*ci = merged;
	return 0;
}

void ud_noise_causes(const struct ud_noise *n, bool single_threaded, char *buf, size_t len)
{
	size_t used;

	ud_noise_tags(n, single_threaded, buf, len);
	if (!n || !n->budget_ran_out)
		return;
	used = strcmp(buf, "-") == 0 ? 0 : strlen(buf);
	snprintf(buf + used, len - used, "%sbudget ran out after %d samples", used ? ", " : "", n->samples_taken);
}
