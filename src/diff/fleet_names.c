/*
 * fleet_names.c - every host of a fleet named apart, and the host
 * --baseline LABEL names (fleet.h).
 *
 * A fleet of cloned machines often has one label a hundred times
 * ("ubuntu"), and every place that names a host (outliers, noisy hosts,
 * the per-host table, the JSON) would then name a hundred hosts at once.
 * A label that more than one host has is followed by the host's path,
 * "ubuntu (fleet_out/web-17/profile.json)": the path is what the user
 * named and what tells the files apart (compare refuses one file named
 * twice, profile_find.h), where a number would say nothing of which host
 * it is.  A unique label is left as it is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet_priv.h"
#include "sort.h"
#include "text.h"

/*
 * The most rounds of renaming: one round names apart every host of a
 * shared label (their paths differ); a later one is needed only where a
 * host's own label is another's new name ("a (x.json)"), each round
 * lengthening the names that still collide, so a round per host bounds
 * even a fleet crafted to collide.
 */
#define RENAME_ROUNDS(nhosts) ((nhosts) + 1)

/* Room in an error for the candidates' names, the rest of its line said around them (error.h's msg). */
#define CANDIDATES_ROOM 300

static int by_label(const void *x, const void *y)
{
	const struct ud_fleet_host *a = *(struct ud_fleet_host *const *)x, *b = *(struct ud_fleet_host *const *)y;
	int c = strcmp(a->label, b->label);

	return c ? c : (a > b) - (a < b);
}

/* One round: each host whose name another host has gets its path after it; 1 renamed, 0 none, -1 out of memory. */
static int rename_round(struct ud_fleet_host **byname, size_t n)
{
	int renamed = 0;

	ud_sort(byname, n, sizeof(*byname), by_label);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(byname[j]->label, byname[i]->label) == 0; j++)
			;
		for (size_t k = i; j - i > 1 && k < j; k++) {
			if (!ud_append(&byname[k]->label, " (%s)", byname[k]->path))
				return -1;
			renamed = 1;
		}
	}
	return renamed;
}

/* The baseline named by more than one host's label: refused with their names, as many as one line holds. */
static int ambiguous(const struct ud_fleet *f, const char *label, const size_t *match, size_t nmatch,
		     struct ud_err *err)
{
	char *list = ud_printf_new("%s", "");
	size_t listed = 0;

	for (; list && listed < nmatch && strlen(list) + strlen(f->hosts[match[listed]].label) < CANDIDATES_ROOM;
	     listed++)
		if (!ud_append(&list, "%s\"%s\"", listed ? ", " : "", f->hosts[match[listed]].label))
			break;
	if (!list)
		return ud_fail(err, "out of memory");
	if (listed < nmatch && !ud_append(&list, "%sand %zu more (--all-hosts lists them)", listed ? ", " : "",
					  nmatch - listed)) {
		free(list);
		return ud_fail(err, "out of memory");
	}
	ud_fail(err, "--baseline %s: %zu hosts have that label: give one of their names, %s", label, nmatch, list);
	free(list);
	return -1;
}

/* f->ref_host: the host labelled label, or named so once named apart; -1 with err for none or several. */
static int find_baseline(struct ud_fleet *f, const char *label, size_t *match, size_t nmatch, struct ud_err *err)
{
	if (nmatch > 1)
		return ambiguous(f, label, match, nmatch, err);
	for (size_t k = 0; !nmatch && k < f->nhosts; k++)
		if (strcmp(f->hosts[k].label, label) == 0)
			match[nmatch++] = k;
	if (!nmatch)
		return ud_fail(err, "--baseline %s: no host has that label", label);
	f->ref_host = match[0];
	return 0;
}

int ud_fleet_name_hosts(struct ud_fleet *f, const char *baseline, struct ud_err *err)
{
	struct ud_fleet_host **byname = malloc((f->nhosts ? f->nhosts : 1) * sizeof(*byname));
	size_t *match = malloc((f->nhosts ? f->nhosts : 1) * sizeof(*match)), nmatch = 0;
	int ret = 0;

	if (!byname || !match) {
		free(byname);
		free(match);
		return ud_fail(err, "out of memory");
	}
	/* the label as the profiles give it is matched first: it is what the user knows the host by */
	for (size_t k = 0; k < f->nhosts; k++) {
		byname[k] = &f->hosts[k];
		f->hosts[k].given_len = strlen(f->hosts[k].label);
		if (baseline && strcmp(f->hosts[k].label, baseline) == 0)
			match[nmatch++] = k;
	}
	for (size_t round = 0; round < RENAME_ROUNDS(f->nhosts); round++)
		if ((ret = rename_round(byname, f->nhosts)) <= 0)
			break;
	if (ret < 0)
		ret = ud_fail(err, "out of memory");
	else
		ret = baseline ? find_baseline(f, baseline, match, nmatch, err) : 0;
	free(byname);
	free(match);
	return ret;
}
