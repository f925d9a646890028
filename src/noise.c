#include <math.h>
#include <stdio.h>

#include "noise.h"

static int warn_if(struct ud_noise *n, bool crossed, const char *text)
{
	return crossed ? ud_noise_add_warning(n, text) : 0;
}

int ud_noise_assess(struct ud_noise *n, bool single_threaded)
{
	char cpu[160], steal[160], ci[160];

	snprintf(cpu, sizeof(cpu), "ran at %.2f CPUs utilized (below %.1f): something else held its CPU",
		 n->cpus_utilized_min, UD_NOISE_MIN_CPUS);
	snprintf(steal, sizeof(steal), "steal time %.1f%% of the host's CPU time (above %.0f%%): the hypervisor ran "
		 "others on these CPUs", n->steal_pct, UD_NOISE_MAX_STEAL_PCT);
	snprintf(ci, sizeof(ci), "95%% interval %.1f%% (above %.0f%%): the samples disagree", 100 * n->ci95_rel,
		 100 * UD_NOISE_MAX_CI95_REL);
	if (warn_if(n, single_threaded && n->cpus_utilized_min < UD_NOISE_MIN_CPUS, cpu) != 0 ||
	    warn_if(n, n->steal_pct > UD_NOISE_MAX_STEAL_PCT, steal) != 0 ||
	    warn_if(n, n->ci95_rel > UD_NOISE_MAX_CI95_REL, ci) != 0)
		return -1;
	return 0;
}
