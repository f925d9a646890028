/*
 * uarch_cores.c - events/cores.list: the cores without an event table
 * (uarch_cores.h), one `core NAME field=value ...` line each, and
 * recognising one in a CPU description.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fileio.h"
#include "table_syntax.h"
#include "uarch_cores.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* "0x3c,0x3f,0x45-0x46" into c's model ranges. */
static int parse_models(struct ud_ts_parser *p, char *s, struct ud_core *c)
{
	for (char *save = NULL, *r = strtok_r(s, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(r, '-');

		if (c->nmodels == sizeof(c->models) / sizeof(c->models[0]))
			return ud_ts_error(p, "too many model ranges", NULL);
		if (dash)
			*dash = '\0';
		if (ud_ts_number(p, "x86", r, &c->models[c->nmodels].lo) ||
		    ud_ts_number(p, "x86", dash ? dash + 1 : r, &c->models[c->nmodels].hi))
			return -1;
		c->nmodels++;
	}
	return 0;
}

/* x86=VENDOR:FAMILY:MODELS, as cpuinfo prints them (family in decimal). */
static int parse_x86(struct ud_ts_parser *p, char *v, struct ud_core *c)
{
	char *family = strchr(v, ':'), *models = family ? strchr(family + 1, ':') : NULL;

	if (!models)
		return ud_ts_error(p, "x86 needs VENDOR:FAMILY:MODEL[,MODEL...]", v);
	*family++ = '\0';
	*models++ = '\0';
	copy(c->x86_vendor, sizeof(c->x86_vendor), v);
	return ud_ts_number(p, "x86", family, &c->family) || parse_models(p, models, c) ? -1 : 0;
}

/* midr=0xII:0xPPP[,0xPPP...]: the Arm MIDR implementer and parts. */
static int parse_midr(struct ud_ts_parser *p, char *v, struct ud_core *c)
{
	char *parts = strchr(v, ':');

	if (!parts)
		return ud_ts_error(p, "midr needs IMPLEMENTER:PART[,PART...]", v);
	*parts++ = '\0';
	if (ud_ts_number(p, "midr", v, &c->implementer))
		return -1;
	for (char *save = NULL, *r = strtok_r(parts, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		if (c->nparts == sizeof(c->parts) / sizeof(c->parts[0]))
			return ud_ts_error(p, "too many parts", NULL);
		if (ud_ts_number(p, "midr", r, &c->parts[c->nparts++]))
			return -1;
	}
	return 0;
}

static int core_field(struct ud_ts_parser *p, struct ud_core *c, struct ud_ts_token *t)
{
	static const struct {
		const char *key;
		size_t offset, len;
	} texts[] = {
		{ "title", offsetof(struct ud_core, title), sizeof(((struct ud_core *)0)->title) },
		{ "isa", offsetof(struct ud_core, isa), sizeof(((struct ud_core *)0)->isa) },
		{ "vendor", offsetof(struct ud_core, vendor), sizeof(((struct ud_core *)0)->vendor) },
		{ "aliases", offsetof(struct ud_core, aliases), sizeof(((struct ud_core *)0)->aliases) },
		{ "source", offsetof(struct ud_core, source), sizeof(((struct ud_core *)0)->source) },
		{ "cpu", offsetof(struct ud_core, cpu_names), sizeof(((struct ud_core *)0)->cpu_names) },
	};

	if (!t->has_value)
		return ud_ts_error(p, "expected key=value", t->key);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (strcmp(t->key, texts[i].key) == 0) {
			if (strlen(t->value) >= texts[i].len)
				return ud_ts_error(p, "value too long", t->key);
			copy((char *)c + texts[i].offset, texts[i].len, t->value);
			return 0;
		}
	if (strcmp(t->key, "midr") == 0)
		return parse_midr(p, t->value, c);
	if (strcmp(t->key, "x86") == 0)
		return parse_x86(p, t->value, c);
	return ud_ts_error(p, "unknown core field", t->key);
}

/* One `core NAME ...` line into a new entry of db; blank and comment lines add none. */
static int parse_core(struct ud_ts_parser *p, struct ud_uarch_db *db, char *line)
{
	struct ud_ts_token t[UD_TS_TOKENS];
	struct ud_core *grown, *c;
	int n;

	if (ud_ts_tokenize(p, line, t, &n) != 0)
		return -1;
	if (n == 0)
		return 0;
	if (strcmp(t[0].key, "core") != 0 || t[0].has_value || n < 2 || t[1].has_value)
		return ud_ts_error(p, "expected core NAME field=value ...", t[0].key);
	if (!(grown = realloc(db->cores, (db->ncores + 1) * sizeof(*grown))))
		return ud_ts_error(p, "out of memory", NULL);
	db->cores = grown;
	c = memset(&db->cores[db->ncores++], 0, sizeof(*c));
	c->implementer = c->family = -1;
	copy(c->name, sizeof(c->name), t[1].key);
	for (int i = 2; i < n; i++)
		if (core_field(p, c, &t[i]) != 0)
			return -1;
	if (!c->title[0] || !c->isa[0] || !c->source[0])
		return ud_ts_error(p, "a core needs title, isa and source", c->name);
	return 0;
}

int ud_cores_load(const char *dir, struct ud_uarch_db *db, struct ud_err *err)
{
	char path[4096], *buf, *line = NULL;
	struct ud_ts_parser p = { path, 0, err };
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, UD_CORES_FILE);
	if (!ud_is_regular_file(path))
		return 0;
	if (!(f = ud_open_input(path, UD_INPUT_EVENT_TABLE, &buf, err)))
		return -1;
	while (ret == 0 && getline(&line, &cap, f) > 0) {
		p.line++;
		ret = parse_core(&p, db, line);
	}
	free(line);
	fclose(f);
	free(buf);
	return ret;
}

/* Whether name is one of list's space-separated names, without case (a devicetree name holds commas). */
static bool listed(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *s = list; *s;) {
		size_t n;

		while (isspace((unsigned char)*s))
			s++;
		n = strcspn(s, " \t");
		if (n == len && strncasecmp(s, name, len) == 0)
			return true;
		s += n;
	}
	return false;
}

static bool core_matches(const struct ud_core *c, const struct ud_cpu *cpu)
{
	if (cpu->core && c->cpu_names[0] && listed(c->cpu_names, cpu->core))
		return true;
	if (cpu->is_arm && c->implementer >= 0 && cpu->midr_implementer == c->implementer) {
		for (size_t i = 0; i < c->nparts; i++)
			if (c->parts[i] == cpu->midr_part)
				return true;
		return false;
	}
	if (cpu->is_arm || !c->x86_vendor[0] || !cpu->vendor || strcmp(cpu->vendor, c->x86_vendor) != 0 ||
	    cpu->family != c->family)
		return false;
	for (size_t i = 0; i < c->nmodels; i++)
		if (cpu->model >= c->models[i].lo && cpu->model <= c->models[i].hi)
			return true;
	return false;
}

const struct ud_core *ud_core_detect(const struct ud_uarch_db *db, const struct ud_cpu *cpu)
{
	for (size_t i = 0; i < db->ncores; i++)
		if (core_matches(&db->cores[i], cpu))
			return &db->cores[i];
	return NULL;
}
