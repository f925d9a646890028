/*
 * event_list.c - perf's event list syntax, and the planner of counter groups.
 *
 * The syntax is tools/perf/util/parse-events.y's: names separated by
 * commas, groups in braces with their own modifiers
 * ("{cycles,instructions}:u"), commas inside a PMU's terms
 * ("cpu/event=0x3c,umask=0/") belonging to the name.  The planner fits a
 * list onto a core's counters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_mode.h"
#include "events.h"
#include "events_priv.h"

/* One name of the list, with the requested group it is in (-1: none). */
struct item {
	char name[UD_EVENT_NAME_MAX];
	int group;
};

struct list_parse {
	const char *list;
	const char *p;
	struct item *items;
	size_t n, cap;
	int groups;
	struct ud_err *err;
};

static int add_item(struct list_parse *lp, const char *name, size_t len, int group)
{
	if (len >= UD_EVENT_NAME_MAX)
		return ud_fail(lp->err, "event name '%.*s...' is longer than %d characters", 40, name,
			       UD_EVENT_NAME_MAX - 1);
	if (lp->n == lp->cap) {
		size_t cap = lp->cap ? 2 * lp->cap : 16;
		struct item *grown = realloc(lp->items, cap * sizeof(*grown));

		if (!grown)
			return ud_fail(lp->err, "out of memory");
		lp->items = grown;
		lp->cap = cap;
	}
	memcpy(lp->items[lp->n].name, name, len);
	lp->items[lp->n].name[len] = '\0';
	lp->items[lp->n++].group = group;
	return 0;
}

/* One name at lp->p, up to a ',' or '}' outside a PMU's terms; added to group. */
static int read_name(struct list_parse *lp, int group)
{
	const char *start = lp->p;
	int slashes = 0;

	for (; *lp->p; lp->p++) {
		if (*lp->p == '/')
			slashes++;
		else if (slashes % 2 == 0 && (*lp->p == ',' || *lp->p == '}' || *lp->p == '{'))
			break;
	}
	if (*lp->p == '{')
		return ud_fail(lp->err, "malformed group in '%s': groups do not nest, and '{' starts a name only", lp->list);
	if (lp->p == start)
		return ud_fail(lp->err, "empty event name in list '%s'", lp->list);
	if (slashes % 2)
		return ud_fail(lp->err, "'%.*s': a PMU event's terms end with '/' (pmu/term=value,.../)",
			       (int)(lp->p - start), start);
	return add_item(lp, start, (size_t)(lp->p - start), group);
}

/*
 * A group's modifiers join each member's own: "{cycles:k,instructions}:u"
 * is cycles:ku and instructions:u.
 */
static int add_group_modifiers(struct list_parse *lp, size_t first, const char *mods, size_t len)
{
	for (size_t i = first; i < lp->n; i++) {
		char *name = lp->items[i].name;
		size_t at = strlen(name);
		bool has = ud_event_base_len(name) < at || (at > 0 && name[at - 1] == '/');

		if (at + len + 2 > UD_EVENT_NAME_MAX)
			return ud_fail(lp->err, "event name '%s' with its group's modifiers is longer than %d characters",
				       name, UD_EVENT_NAME_MAX - 1);
		snprintf(name + at, UD_EVENT_NAME_MAX - at, "%s%.*s", has ? "" : ":", (int)len, mods);
	}
	return 0;
}

/* "{a,b}" or "{a,b}:MODS" at lp->p. */
static int read_group(struct list_parse *lp)
{
	size_t first = lp->n;
	int group = lp->groups++;
	const char *mods;

	lp->p++;
	for (;;) {
		if (read_name(lp, group) != 0)
			return -1;
		if (*lp->p != ',')
			break;
		lp->p++;
	}
	if (*lp->p != '}')
		return ud_fail(lp->err, "malformed group in '%s': no '}' closes the '{'", lp->list);
	mods = ++lp->p;
	if (*mods == ':') {
		size_t len = strcspn(mods + 1, ",");
		char probe[UD_EVENT_NAME_MAX];

		/* perf's modifier letters, as a name ending ":MODS" would carry them (cpu_mode.h) */
		snprintf(probe, sizeof(probe), "x:%.*s", (int)len, mods + 1);
		if (!len || ud_event_modifiers(probe) != probe + 2)
			return ud_fail(lp->err, "malformed group in '%s': ':' after '}' needs modifiers (u k h I G H p D e W)",
				       lp->list);
		lp->p = mods + 1 + len;
		if (add_group_modifiers(lp, first, mods + 1, len) != 0)
			return -1;
	}
	if (*lp->p && *lp->p != ',')
		return ud_fail(lp->err, "malformed group in '%s': '%c' after its '}'", lp->list, *lp->p);
	return 0;
}

/* The list's names in order, with their requested groups. */
static int split_list(struct list_parse *lp)
{
	if (!*lp->list)
		return ud_fail(lp->err, "empty event list");
	for (lp->p = lp->list;;) {
		int ret = *lp->p == '{' ? read_group(lp) : read_name(lp, -1);

		if (ret != 0)
			return -1;
		if (*lp->p == '}')
			return ud_fail(lp->err, "malformed group in '%s': '}' without its '{'", lp->list);
		if (!*lp->p)
			return 0;
		lp->p++; /* the ',' */
		if (!*lp->p)
			return ud_fail(lp->err, "empty event name in list '%s'", lp->list);
	}
}

/*
 * One counter asked for again ("task-clock,task-clock", "cycles,cpu-cycles";
 * perf's own test counts {cycles,cycles,...}) is counted again, as perf
 * counts it: a counter and a row of its own.  A profile keys its counters by
 * name, so the k-th occurrence is named "NAME#k" (event_names.h), as a
 * repeated workload name is; the report prints perf's name for it.
 */
static int number_repeat(struct ud_event *ev, size_t i, const char *asked, struct ud_err *err)
{
	size_t len = strlen(ev[i].name), k = 1;

	for (size_t j = 0; j < i; j++)
		k += ud_event_repeat_base_len(ev[j].name) == len && strncmp(ev[j].name, ev[i].name, len) == 0;
	if (k == 1)
		return 0;
	if (snprintf(ev[i].name + len, sizeof(ev[i].name) - len, "#%zu", k) >= (int)(sizeof(ev[i].name) - len))
		return ud_fail(err, "event name '%s' is too long to count again (%d characters at most, with its #%zu)",
			       asked, UD_EVENT_NAME_MAX - 1, k);
	return 0;
}

size_t ud_event_parse_list(const char *list, const struct ud_uarch *u, struct ud_event **out,
			   struct ud_err *err)
{
	struct list_parse lp = { .list = list, .err = err };
	struct ud_event *ev = NULL;
	size_t i = 0;

	*out = NULL;
	if (split_list(&lp) == 0 && !(ev = calloc(lp.n, sizeof(*ev))))
		ud_fail(err, "out of memory");
	for (; ev && i < lp.n; i++) {
		if (ud_event_raw_overflows(lp.items[i].name)) {
			ud_fail(err, "'%s': a raw event code must fit in 64 bits", lp.items[i].name);
			break;
		}
		ud_event_resolve_for(u, lp.items[i].name, &ev[i]);
		ev[i].request_group = lp.items[i].group;
		if (number_repeat(ev, i, lp.items[i].name, err) != 0)
			break;
	}
	free(lp.items);
	if (!ev || i < lp.n) {
		free(ev);
		return 0;
	}
	*out = ev;
	return i;
}

int ud_event_request_add(struct ud_event_request *r, const char *arg, struct ud_err *err)
{
	struct list_parse lp = { .list = arg, .err = err };
	size_t len = r->list ? strlen(r->list) + 1 : 0;
	char *grown;
	int ret = split_list(&lp);

	free(lp.items);
	if (ret != 0)
		return -1;
	if (!(grown = realloc(r->list, len + strlen(arg) + 1)))
		return ud_fail(err, "out of memory");
	if (len)
		grown[len - 1] = ',';
	strcpy(grown + len, arg);
	r->list = grown;
	r->last_first = r->nevents;
	r->nevents += lp.n;
	return 0;
}

int ud_event_request_filter(struct ud_event_request *r, const char *filter, struct ud_err *err)
{
	struct ud_event_filter *last = r->nfilters ? &r->filters[r->nfilters - 1] : NULL;
	size_t len = strlen(filter) + (last ? strlen(last->text) + 9 : 1);
	char *text = malloc(len);

	if (!r->list) {
		free(text);
		return ud_fail(err, "--filter option should follow a -e tracepoint option (it filters that -e's events)");
	}
	if (!text)
		return ud_fail(err, "out of memory");
	if (last && last->first == r->last_first) {
		/* perf's evsel__append_tp_filter(): both hold */
		snprintf(text, len, "(%s) && (%s)", last->text, filter);
		free(last->text);
		last->text = text;
		return 0;
	}
	snprintf(text, len, "%s", filter);
	last = realloc(r->filters, (r->nfilters + 1) * sizeof(*last));
	if (!last) {
		free(text);
		return ud_fail(err, "out of memory");
	}
	r->filters = last;
	r->filters[r->nfilters++] = (struct ud_event_filter){ r->last_first, r->nevents, text };
	return 0;
}

int ud_event_request_apply_filters(const struct ud_event_request *r, struct ud_event *ev, size_t n, struct ud_err *err)
{
	for (size_t f = 0; f < r->nfilters; f++) {
		const struct ud_event_filter *filter = &r->filters[f];

		for (size_t i = filter->first; i < filter->end && i < n; i++) {
			/* an unresolved one is not counted, with its own reason: nothing to filter */
			if (ev[i].resolved && !(ev[i].opened_as && strcmp(ev[i].opened_as, "tracepoint") == 0))
				return ud_fail(err, "--filter '%s': '%s' is not a tracepoint, and only tracepoints are "
						    "filtered (perf's address filters for HW tracers are not built)",
					       filter->text, ev[i].name);
			ev[i].filter = filter->text;
		}
	}
	return 0;
}

void ud_event_request_free(struct ud_event_request *r)
{
	for (size_t f = 0; f < r->nfilters; f++)
		free(r->filters[f].text);
	free(r->filters);
	free(r->list);
	*r = (struct ud_event_request){ 0 };
}

size_t ud_event_list_length(const char *list, struct ud_err *err)
{
	struct list_parse lp = { .list = list, .err = err };
	size_t n = split_list(&lp) == 0 ? lp.n : 0;

	free(lp.items);
	return n;
}

static bool is_anchor(const struct ud_event *ev)
{
	return ev->resolved && ev->hardware && ev->request_group < 0 &&
	       (strcmp(ev->name, "cycles") == 0 || strcmp(ev->name, "instructions") == 0);
}

static bool is_planned(const struct ud_event *ev)
{
	return ev->resolved && ev->hardware && ev->request_group < 0;
}

/* Numbers the requested groups after the planned ones, in the order their first members come. */
static void number_requested(struct ud_event *out, size_t n, int planned)
{
	int next = planned;

	for (size_t i = 0; i < n; i++) {
		int asked = out[i].request_group;

		if (asked < 0 || out[i].group >= 0)
			continue;
		for (size_t j = i; j < n; j++)
			if (out[j].request_group == asked)
				out[j].group = next;
		next++;
	}
}

struct ud_event *ud_event_plan_groups(const struct ud_event *ev, size_t n, int programmable, int fixed,
				      size_t *out_n)
{
	size_t anchors = 0, others = 0, cap, groups, k;
	struct ud_event *out;
	int slots;

	for (size_t i = 0; i < n; i++) {
		if (is_anchor(&ev[i]))
			anchors++;
		else if (is_planned(&ev[i]))
			others++;
	}
	/* Fixed counters host the anchors first; the rest share the general ones. */
	slots = programmable - (anchors > (size_t)fixed ? (int)(anchors - (size_t)fixed) : 0);
	if (slots < 1)
		slots = 1;
	groups = others ? (others + (size_t)slots - 1) / (size_t)slots : (anchors ? 1 : 0);
	cap = n + (groups > 1 ? (groups - 1) * anchors : 0);
	out = calloc(cap ? cap : 1, sizeof(*out));
	if (!out)
		return NULL;
	memcpy(out, ev, n * sizeof(*ev));
	k = 0;
	for (size_t i = 0; i < n; i++) {
		out[i].group = -1;
		if (is_anchor(&out[i]))
			out[i].group = 0;
		else if (is_planned(&out[i]))
			out[i].group = (int)(k++ / (size_t)slots);
	}
	number_requested(out, n, (int)groups);
	k = n;
	for (size_t g = 1; g < groups; g++) {
		for (size_t i = 0; i < n; i++) {
			if (!is_anchor(&ev[i]))
				continue;
			out[k] = ev[i];
			out[k].copy = true;
			snprintf(out[k].name, sizeof(out[k].name), "%s@g%zu", ev[i].name, g);
			out[k++].group = (int)g;
		}
	}
	*out_n = k;
	return out;
}

int ud_event_group_count(const struct ud_event *ev, size_t n)
{
	int max = -1;

	for (size_t i = 0; i < n; i++)
		if (ev[i].group > max)
			max = ev[i].group;
	return max + 1;
}
