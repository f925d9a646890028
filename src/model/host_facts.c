/*
 * host_facts.c - the typed host (host_facts.h): the table of facts by
 * dotted name, and the lookup, walk, copy and accessors built on it.  Its
 * JSON form is host_json.c's, from the same table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_facts_priv.h"

#define AT(field) offsetof(struct ud_host, field)

/* In the order the host object is written (schemas/profile.schema.json's); groups before their members. */
const struct ud_host_row ud_host_rows[] = {
	{ "label", UD_ROW_STRING, AT(label) },
	{ "hostname", UD_ROW_STRING, AT(hostname) },
	{ "collected_at", UD_ROW_STRING, AT(collected_at) },
	{ "cpu", UD_ROW_GROUP, 0 },
	{ "cpu.isa", UD_ROW_STRING, AT(cpu.isa) },
	{ "cpu.vendor", UD_ROW_STRING, AT(cpu.vendor) },
	{ "cpu.model_name", UD_ROW_STRING, AT(cpu.model_name) },
	{ "cpu.family", UD_ROW_INTEGER, AT(cpu.family) },
	{ "cpu.model", UD_ROW_INTEGER, AT(cpu.model) },
	{ "cpu.stepping", UD_ROW_INTEGER, AT(cpu.stepping) },
	{ "cpu.midr_implementer", UD_ROW_INTEGER, AT(cpu.midr_implementer) },
	{ "cpu.midr_part", UD_ROW_INTEGER, AT(cpu.midr_part) },
	{ "cpu.midr_variant", UD_ROW_INTEGER, AT(cpu.midr_variant) },
	{ "cpu.microcode", UD_ROW_STRING, AT(cpu.microcode) },
	{ "cpu.uarch", UD_ROW_STRING, AT(cpu.uarch) },
	{ "cpu.online_cpus", UD_ROW_INTEGER, AT(cpu.online_cpus) },
	{ "cpu.smt", UD_ROW_TRISTATE, AT(cpu.smt) },
	{ "cpu.caches", UD_ROW_GROUP, 0 },
	{ "cpu.caches.l1d_kb", UD_ROW_INTEGER, AT(cpu.caches.l1d_kb) },
	{ "cpu.caches.l1i_kb", UD_ROW_INTEGER, AT(cpu.caches.l1i_kb) },
	{ "cpu.caches.l2_kb", UD_ROW_INTEGER, AT(cpu.caches.l2_kb) },
	{ "cpu.caches.l3_kb", UD_ROW_INTEGER, AT(cpu.caches.l3_kb) },
	{ "cpu.source", UD_ROW_OPT_STRING, AT(cpu.source) },
	{ "kernel", UD_ROW_STRING, AT(kernel) },
	{ "hypervisor", UD_ROW_STRING, AT(hypervisor) },
	{ "pmu", UD_ROW_STRING, AT(pmu) },
	{ "pmu_reason", UD_ROW_OPT_STRING, AT(pmu_reason) },
	{ "perf_event_paranoid", UD_ROW_INTEGER, AT(perf_event_paranoid) },
	{ "vulnerabilities", UD_ROW_VULNS, 0 },
	{ "cpufreq", UD_ROW_GROUP, 0 },
	{ "cpufreq.governor", UD_ROW_STRING, AT(cpufreq.governor) },
	{ "cpufreq.min_khz", UD_ROW_INTEGER, AT(cpufreq.min_khz) },
	{ "cpufreq.max_khz", UD_ROW_INTEGER, AT(cpufreq.max_khz) },
	/* an import writes core_pmus, then hybrid (import_block.c) */
	{ "core_pmus", UD_ROW_LIST, 0 },
	{ "hybrid", UD_ROW_FLAG, AT(hybrid) },
	{ "stated", UD_ROW_STATED, 0 },
};
const size_t ud_host_nrows = sizeof(ud_host_rows) / sizeof(ud_host_rows[0]);

struct ud_host *ud_host_new(void)
{
	struct ud_host *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	for (size_t i = 0; i < ud_host_nrows; i++)
		if (ud_host_rows[i].kind == UD_ROW_INTEGER)
			*ud_host_row_integer(h, &ud_host_rows[i]) = UD_HOST_UNKNOWN;
	h->cpu.smt = -1;
	return h;
}

void ud_host_free(struct ud_host *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < ud_host_nrows; i++)
		if (ud_host_rows[i].kind == UD_ROW_STRING || ud_host_rows[i].kind == UD_ROW_OPT_STRING)
			free(*ud_host_row_string(h, &ud_host_rows[i]));
	for (size_t i = 0; i < h->nvulns; i++) {
		free(h->vulns[i].name);
		free(h->vulns[i].text);
	}
	free(h->vulns);
	for (size_t i = 0; i < h->ncore_pmus; i++)
		free(h->core_pmus[i]);
	free(h->core_pmus);
	for (size_t i = 0; i < h->nstated; i++)
		free(h->stated[i]);
	free(h->stated);
	free(h);
}

int ud_host_set_string(char **field, const char *value)
{
	char *copy = value ? strdup(value) : NULL;

	if (value && !copy)
		return -1;
	free(*field);
	*field = copy;
	return 0;
}

int ud_host_add_vuln(struct ud_host *h, const char *name, const char *text)
{
	struct ud_host_vuln *v = realloc(h->vulns, (h->nvulns + 1) * sizeof(*v));

	if (!v)
		return -1;
	h->vulns = v;
	v = &h->vulns[h->nvulns];
	v->name = strdup(name);
	v->text = text ? strdup(text) : NULL;
	if (!v->name || (text && !v->text)) {
		free(v->name);
		free(v->text);
		return -1;
	}
	h->nvulns++;
	h->vulnerabilities_known = true;
	return 0;
}

/* Appends name to the list unless it is there already; -1 when out of memory. */
static int add_once(char ***list, size_t *n, const char *name)
{
	char **grown;

	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], name) == 0)
			return 0;
	grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	*list = grown;
	if (!(grown[*n] = strdup(name)))
		return -1;
	(*n)++;
	return 0;
}

int ud_host_add_core_pmu(struct ud_host *h, const char *pmu)
{
	return add_once(&h->core_pmus, &h->ncore_pmus, pmu);
}

int ud_host_mark_stated(struct ud_host *h, const char *name)
{
	return add_once(&h->stated, &h->nstated, name);
}

bool ud_host_stated(const struct ud_host *h, const char *name)
{
	for (size_t i = 0; h && i < h->nstated; i++)
		if (strcmp(h->stated[i], name) == 0)
			return true;
	return false;
}

/* Copies every string and list of src into the bitwise copy h; -1 when out of memory (h then freeable). */
static int copy_owned(struct ud_host *h, const struct ud_host *src)
{
	int ret = 0;

	for (size_t i = 0; i < ud_host_nrows; i++) {
		const struct ud_host_row *r = &ud_host_rows[i];

		if (r->kind == UD_ROW_STRING || r->kind == UD_ROW_OPT_STRING) {
			char **s = ud_host_row_string(h, r);

			*s = NULL;
			ret |= ud_host_set_string(s, *ud_host_row_string((struct ud_host *)src, r));
		}
	}
	h->vulns = NULL;
	h->nvulns = 0;
	h->core_pmus = NULL;
	h->ncore_pmus = 0;
	h->stated = NULL;
	h->nstated = 0;
	for (size_t i = 0; i < src->nvulns; i++)
		ret |= ud_host_add_vuln(h, src->vulns[i].name, src->vulns[i].text);
	for (size_t i = 0; i < src->ncore_pmus; i++)
		ret |= ud_host_add_core_pmu(h, src->core_pmus[i]);
	for (size_t i = 0; i < src->nstated; i++)
		ret |= ud_host_mark_stated(h, src->stated[i]);
	return ret;
}

struct ud_host *ud_host_copy(const struct ud_host *src)
{
	struct ud_host *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	*h = *src;
	if (copy_owned(h, src) != 0) {
		ud_host_free(h);
		return NULL;
	}
	return h;
}

int ud_host_check_label(const char *what, const char *label, struct ud_err *err)
{
	size_t len = label ? strlen(label) : 0;

	if (len <= UD_LABEL_MAX)
		return 0;
	return ud_fail(err, "%s: %zu bytes: a host label is at most %d (it names the host in every sentence of a "
		       "report): give a shorter one", what, len, UD_LABEL_MAX);
}

const char *ud_host_label(const struct ud_host *h, const char *fallback)
{
	return h && h->label && *h->label ? h->label : fallback;
}

size_t ud_host_cache_bytes(const struct ud_host *h, enum ud_host_cache which)
{
	const struct ud_host_caches *c = &h->cpu.caches;
	long long kb = which == UD_CACHE_L1D ? c->l1d_kb : which == UD_CACHE_L1I ? c->l1i_kb
			: which == UD_CACHE_L2 ? c->l2_kb : c->l3_kb;

	/* UD_HOST_UNKNOWN is negative too; a size past size_t's range is no cache either */
	return kb > 0 && (unsigned long long)kb <= SIZE_MAX / 1024 ? (size_t)kb * 1024 : 0;
}

struct ud_fact ud_host_row_fact(const struct ud_host *h, const struct ud_host_row *r)
{
	struct ud_host *m = (struct ud_host *)h; /* read only: the row accessors serve the writers too */
	struct ud_fact v = { .type = UD_FACT_NULL };

	switch (r->kind) {
	case UD_ROW_GROUP:
		v.type = UD_FACT_GROUP;
		break;
	case UD_ROW_VULNS:
		v.type = h->vulnerabilities_known ? UD_FACT_GROUP : UD_FACT_NULL;
		break;
	case UD_ROW_STRING:
	case UD_ROW_OPT_STRING:
		v.string = *ud_host_row_string(m, r);
		v.type = v.string ? UD_FACT_STRING : r->kind == UD_ROW_OPT_STRING ? UD_FACT_ABSENT : UD_FACT_NULL;
		break;
	case UD_ROW_INTEGER:
		v.integer = *ud_host_row_integer(m, r);
		v.type = v.integer == UD_HOST_UNKNOWN ? UD_FACT_NULL : UD_FACT_INTEGER;
		break;
	case UD_ROW_TRISTATE:
		v.boolean = *ud_host_row_tristate(m, r) == 1;
		v.type = *ud_host_row_tristate(m, r) < 0 ? UD_FACT_NULL : UD_FACT_BOOLEAN;
		break;
	case UD_ROW_FLAG:
		v.boolean = *ud_host_row_flag(m, r);
		v.type = v.boolean ? UD_FACT_BOOLEAN : UD_FACT_ABSENT;
		break;
	case UD_ROW_LIST:
		v.list = h->core_pmus;
		v.nlist = h->ncore_pmus;
		v.type = h->ncore_pmus || h->hybrid ? UD_FACT_LIST : UD_FACT_ABSENT;
		break;
	case UD_ROW_STATED:
		v.type = UD_FACT_ABSENT;
		break;
	}
	return v;
}

static struct ud_fact vuln_fact(const struct ud_host_vuln *v)
{
	return (struct ud_fact){ .type = v->text ? UD_FACT_STRING : UD_FACT_NULL, .string = v->text };
}

struct ud_fact ud_host_fact(const struct ud_host *h, const char *name)
{
	static const char vprefix[] = "vulnerabilities.";

	if (strncmp(name, vprefix, sizeof(vprefix) - 1) == 0) {
		for (size_t i = 0; h->vulnerabilities_known && i < h->nvulns; i++)
			if (strcmp(h->vulns[i].name, name + sizeof(vprefix) - 1) == 0)
				return vuln_fact(&h->vulns[i]);
		return (struct ud_fact){ .type = UD_FACT_ABSENT };
	}
	for (size_t i = 0; i < ud_host_nrows; i++)
		if (strcmp(ud_host_rows[i].name, name) == 0)
			return ud_host_row_fact(h, &ud_host_rows[i]);
	return (struct ud_fact){ .type = UD_FACT_ABSENT };
}

int ud_host_each_fact(const struct ud_host *h, int (*fn)(const char *name, const struct ud_fact *v, void *arg),
		      void *arg)
{
	for (size_t i = 0; i < ud_host_nrows; i++) {
		struct ud_fact v = ud_host_row_fact(h, &ud_host_rows[i]);
		int ret = v.type == UD_FACT_ABSENT ? 0 : fn(ud_host_rows[i].name, &v, arg);

		if (ret)
			return ret;
		for (size_t k = 0; ud_host_rows[i].kind == UD_ROW_VULNS && h->vulnerabilities_known && k < h->nvulns;
		     k++) {
			char name[256];
			struct ud_fact f = vuln_fact(&h->vulns[k]);

			snprintf(name, sizeof(name), "vulnerabilities.%s", h->vulns[k].name);
			if ((ret = fn(name, &f, arg)))
				return ret;
		}
	}
	return 0;
}

static bool same_string(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

bool ud_fact_equal(const struct ud_fact *a, const struct ud_fact *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case UD_FACT_STRING:
		return same_string(a->string, b->string);
	case UD_FACT_INTEGER:
		return a->integer == b->integer;
	case UD_FACT_BOOLEAN:
		return a->boolean == b->boolean;
	case UD_FACT_LIST:
		if (a->nlist != b->nlist)
			return false;
		for (size_t i = 0; i < a->nlist; i++)
			if (!same_string(a->list[i], b->list[i]))
				return false;
		return true;
	default:
		return true;
	}
}

const char *ud_fact_text(const struct ud_fact *v, char *buf, size_t len)
{
	size_t used;

	switch (v->type) {
	case UD_FACT_STRING:
		return v->string;
	case UD_FACT_INTEGER:
		snprintf(buf, len, "%lld", v->integer);
		return buf;
	case UD_FACT_BOOLEAN:
		return v->boolean ? "true" : "false";
	case UD_FACT_LIST:
		used = (size_t)snprintf(buf, len, "[");
		for (size_t i = 0; i < v->nlist && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s\"%s\"", i ? "," : "", v->list[i]);
		if (used < len)
			snprintf(buf + used, len - used, "]");
		return buf;
	default:
		return "unknown";
	}
}
