#include <math.h>
#include <stdio.h>

#include "noise.h"

enum check { CHECK_CPUS, CHECK_STEAL, CHECK_CI, CHECK_COUNT };

/* Whether n crosses check's threshold; unknown (NAN) figures cross nothing. */
static bool crossed(const struct ud_noise *n, enum check c, bool single_threaded)
{
	switch (c) {
	case CHECK_CPUS: return single_threaded && n->cpus_utilized_min < UD_NOISE_MIN_CPUS;
	case CHECK_STEAL: return n->steal_pct > UD_NOISE_MAX_STEAL_PCT;
	case CHECK_CI: return n->ci95_rel > UD_NOISE_MAX_CI95_REL;
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
			snprintf(buf, len, "cpu %.2f", n->cpus_utilized_min);
		else
			snprintf(buf, len, "ran at %.2f CPUs utilized (below %.1f): something else held its CPU",
				 n->cpus_utilized_min, UD_NOISE_MIN_CPUS);
		break;
	case CHECK_STEAL:
		if (brief)
			snprintf(buf, len, "steal %.0f%%", n->steal_pct);
		else
			snprintf(buf, len, "steal time %.1f%% of the host's CPU time (above %.0f%%): the hypervisor ran "
				 "others on these CPUs", n->steal_pct, UD_NOISE_MAX_STEAL_PCT);
		break;
	case CHECK_CI:
		if (brief)
			snprintf(buf, len, "ci %.0f%%", 100 * n->ci95_rel);
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

int ud_noise_target_missed(struct ud_noise *n, double target)
{
	char text[192];

	snprintf(text, sizeof(text),
		 "95%% interval %.1f%% after %d samples: its time budget ran out before the %.0f%% target",
		 100 * n->ci95_rel, n->samples_taken, 100 * target);
	return ud_noise_add_warning(n, text);
}
