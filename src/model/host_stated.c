/*
 * host_stated.c - facts a person states about a host (import --fact
 * KEY=VALUE, host_facts.h): the key found in the one table of facts, the
 * value typed by its row, as the JSON reader types the same fact.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host_facts_priv.h"
#include "text.h"

static const char vulns_prefix[] = "vulnerabilities.";

int ud_fact_statement_split(const char *arg, char *key, const char **value, struct ud_err *err)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return ud_fail(err, "--fact needs KEY=VALUE (a host fact's dotted name, as cpu.isa=riscv64), not '%s'", arg);
	if ((size_t)(eq - arg) >= UD_FACT_NAME_MAX)
		return ud_fail(err, "--fact: '%.*s...' is longer than any host fact's name", 40, arg);
	if (!eq[1])
		return ud_fail(err, "--fact %.*s= needs a value (null states it unknown)", (int)(eq - arg), arg);
	snprintf(key, UD_FACT_NAME_MAX, "%.*s", (int)(eq - arg), arg);
	*value = strcmp(eq + 1, "null") == 0 ? NULL : eq + 1;
	return 0;
}

/* Where a name fits no row: the nearest leaf's name, or the leaf the key starts with ("kernel" of "kernel.release"). */
static int unknown_fact(const char *key, struct ud_err *err)
{
	const char **names = malloc(ud_host_nrows * sizeof(*names)), *near = NULL;
	size_t n = 0;

	for (size_t i = 0; names && i < ud_host_nrows; i++)
		if (ud_host_rows[i].kind != UD_ROW_GROUP && ud_host_rows[i].kind != UD_ROW_STATED)
			names[n++] = ud_host_rows[i].name;
	if (names)
		near = ud_closest(key, names, n);
	for (size_t i = 0; names && !near && i < n; i++) {
		size_t len = strlen(names[i]);

		if (strncmp(key, names[i], len) == 0 && key[len] == '.')
			near = names[i];
	}
	free(names);
	if (near)
		return ud_fail(err, "unknown host fact '%s'; did you mean '%s'? ('uarchdiff host' lists them)", key, near);
	return ud_fail(err, "unknown host fact '%s' ('uarchdiff host' lists them, as cpu.isa or cpufreq.governor)", key);
}

/* An integer as a person writes it: decimal, or 0x hex as `host` shows Arm's MIDR fields. */
static int parse_integer(const char *s, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, strncasecmp(s, "0x", 2) == 0 ? 16 : 10);
	return errno || end == s || *end || *out == UD_HOST_UNKNOWN ? -1 : 0;
}

/* The string fact a name would sit in beside an integer one: "cpu.model_name" for "cpu.model". */
static const char *name_beside(const char *key)
{
	static char buf[UD_FACT_NAME_MAX + 8];

	snprintf(buf, sizeof(buf), "%s_name", key);
	for (size_t i = 0; i < ud_host_nrows; i++)
		if (ud_host_rows[i].kind == UD_ROW_STRING && strcmp(ud_host_rows[i].name, buf) == 0)
			return ud_host_rows[i].name;
	return NULL;
}

static int set_integer(struct ud_host *h, const struct ud_host_row *r, const char *value, struct ud_err *err)
{
	long long v = UD_HOST_UNKNOWN;
	const char *beside = name_beside(r->name);

	if (value && parse_integer(value, &v) != 0)
		return ud_fail(err, "%s needs a whole number, not '%s'%s%s%s", r->name, value, beside ? " (a name goes in " : "",
			       beside ? beside : "", beside ? ")" : "");
	*ud_host_row_integer(h, r) = v;
	return 0;
}

static int set_yes_no(struct ud_host *h, const struct ud_host_row *r, const char *value, struct ud_err *err)
{
	static const char *const yes[] = { "true", "yes" }, *const no[] = { "false", "no" };
	int v = value ? -2 : -1;

	for (size_t i = 0; value && i < 2; i++) {
		if (strcasecmp(value, yes[i]) == 0)
			v = 1;
		if (strcasecmp(value, no[i]) == 0)
			v = 0;
	}
	if (v == -2)
		return ud_fail(err, "%s needs true or false, not '%s'", r->name, value);
	*ud_host_row_tristate(h, r) = v;
	return 0;
}

/* vulnerabilities.NAME: a sysfs file's name, its text replaced or added. */
static int set_vuln(struct ud_host *h, const char *name, const char *value, struct ud_err *err)
{
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			return ud_fail(err, "'vulnerabilities.%s': a vulnerability is named as its file in "
				       "/sys/devices/system/cpu/vulnerabilities (spec_rstack_overflow)", name);
	if (!*name)
		return ud_fail(err, "'vulnerabilities.' names no vulnerability (spec_rstack_overflow, retbleed, ...)");
	for (size_t i = 0; i < h->nvulns; i++)
		if (strcmp(h->vulns[i].name, name) == 0)
			return ud_host_set_string(&h->vulns[i].text, value) == 0 ? 0 : ud_fail(err, "out of memory");
	return ud_host_add_vuln(h, name, value) == 0 ? 0 : ud_fail(err, "out of memory");
}

int ud_host_set_fact(struct ud_host *h, const char *key, const char *value, struct ud_err *err)
{
	const struct ud_host_row *r = NULL;

	if (strncmp(key, vulns_prefix, sizeof(vulns_prefix) - 1) == 0)
		return set_vuln(h, key + sizeof(vulns_prefix) - 1, value, err);
	for (size_t i = 0; i < ud_host_nrows && !r; i++)
		if (strcmp(ud_host_rows[i].name, key) == 0)
			r = &ud_host_rows[i];
	if (!r || r->kind == UD_ROW_STATED)
		return unknown_fact(key, err);
	switch (r->kind) {
	case UD_ROW_STRING:
		return ud_host_set_string(ud_host_row_string(h, r), value) == 0 ? 0 : ud_fail(err, "out of memory");
	case UD_ROW_INTEGER:
		return set_integer(h, r, value, err);
	case UD_ROW_TRISTATE:
		return set_yes_no(h, r, value, err);
	case UD_ROW_GROUP:
	case UD_ROW_VULNS:
		return ud_fail(err, "'%s' is a group of facts: state one of them (%s.NAME)", key, key);
	default:
		/* where cpuinfo was read, why the PMU is absent, an import's core PMUs: what reading found, not facts of the host */
		return ud_fail(err, "'%s' is not stated: it says how the facts were read, not what the host is", key);
	}
}
