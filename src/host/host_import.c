/*
 * host_import.c - the host of an imported profile (host_import.h), and the
 * CPU identity that `host` and an import share.
 */
#include <string.h>

#include "host_file.h"
#include "host_import.h"

static long long known(long v)
{
	return v >= 0 ? v : UD_HOST_UNKNOWN;
}

/*
 * The microarchitecture a person named into h: cpu.uarch (the core's name
 * where it has no table), cpu.isa where the table or core gives one, and
 * cpu.vendor where h has none.  -1 when out of memory.
 */
static int ud_host_set_uarch(struct ud_host *h, const struct ud_uarch *u, const struct ud_core *core)
{
	const char *isa = core ? core->isa : u->isa;
	const char *vendor = core ? core->vendor : ud_uarch_vendor(u);
	int ret = ud_host_set_string(&h->cpu.uarch, ud_uarch_id(u, core));

	if (isa && *isa)
		ret |= ud_host_set_string(&h->cpu.isa, isa);
	if (!h->cpu.vendor && vendor && *vendor)
		ret |= ud_host_set_string(&h->cpu.vendor, vendor);
	return ret;
}

int ud_host_set_cpu(struct ud_host *h, const struct ud_cpu *cpu, const struct ud_uarch_db *db)
{
	struct ud_host_cpu *c = &h->cpu;
	const struct ud_uarch *u;
	const struct ud_core *core;
	int ret;

	c->family = known(cpu->family);
	c->model = known(cpu->model);
	c->stepping = known(cpu->stepping);
	c->midr_implementer = known(cpu->midr_implementer);
	c->midr_part = known(cpu->midr_part);
	c->midr_variant = known(cpu->midr_variant);
	ret = ud_host_set_string(&c->vendor, cpu->vendor) | ud_host_set_string(&c->model_name, cpu->model_name) |
	      ud_host_set_string(&c->microcode, cpu->microcode) | ud_host_set_string(&c->isa, cpu->isa);
	if (!db)
		return ret;
	u = ud_uarch_detect(db, cpu);
	core = u->detect == UD_DETECT_NONE ? ud_core_detect(db, cpu) : NULL;
	ret |= ud_host_set_string(&c->uarch, ud_uarch_id(u, core));
	/* what the text says of the ISA and vendor stands; the core's fill what it does not say */
	if (core && !c->isa && core->isa[0])
		ret |= ud_host_set_string(&c->isa, core->isa);
	if (core && !c->vendor && core->vendor[0])
		ret |= ud_host_set_string(&c->vendor, core->vendor);
	return ret;
}

/* One --fact KEY=VALUE over h, marked stated; cpu.uarch by name or alias, as --uarch. */
static int state(struct ud_host *h, const char *arg, const struct ud_uarch_db *db, struct ud_err *err)
{
	char key[UD_FACT_NAME_MAX];
	const char *value;
	const struct ud_core *core;
	const struct ud_uarch *u;

	if (ud_fact_statement_split(arg, key, &value, err) != 0)
		return -1;
	if (strcmp(key, "cpu.uarch") == 0 && value) {
		if (!(u = ud_uarch_named(db, value, &core, err)))
			return ud_err_prefix(err, "--fact %s", arg), -1;
		if (ud_host_set_uarch(h, u, core) != 0)
			return ud_fail(err, "out of memory");
	} else if (ud_host_set_fact(h, key, value, err) != 0) {
		return ud_err_prefix(err, "--fact %s", arg), -1;
	}
	return ud_host_mark_stated(h, key) == 0 ? 0 : ud_fail(err, "out of memory");
}

/* Where the host starts: the host file's facts, or none but the label and the cpuinfo's CPU. */
static struct ud_host *first_facts(const struct ud_host_import *o, const struct ud_uarch_db *db, struct ud_err *err)
{
	struct ud_host *h;
	struct ud_cpu cpu;
	int ret;

	if (o->host_path) {
		h = ud_host_file_load(o->host_path, err);
		if (h && o->label && ud_host_set_string(&h->label, o->label) != 0) {
			ud_host_free(h);
			return ud_fail(err, "out of memory"), NULL;
		}
		return h;
	}
	if (o->cpuinfo_path && ud_cpuinfo_load(o->cpuinfo_path, &cpu, err) != 0)
		return NULL;
	if ((h = ud_host_new())) {
		ret = ud_host_set_string(&h->label, o->label ? o->label : o->fallback);
		if (o->cpuinfo_path) {
			ret |= ud_host_set_cpu(h, &cpu, db);
			h->cpu.online_cpus = known(cpu.processors);
		}
		if (ret != 0) {
			ud_host_free(h);
			h = NULL;
		}
	}
	if (o->cpuinfo_path)
		ud_cpu_free(&cpu);
	return h ? h : (ud_fail(err, "out of memory"), NULL);
}

/* The named microarchitecture, then every stated fact, over h. */
static int on_top(struct ud_host *h, const struct ud_host_import *o, const struct ud_uarch_db *db,
		  struct ud_err *err)
{
	const struct ud_core *core;
	const struct ud_uarch *u;

	if (o->uarch) {
		if (!(u = ud_uarch_named(db, o->uarch, &core, err)))
			return -1;
		if (ud_host_set_uarch(h, u, core) != 0)
			return ud_fail(err, "out of memory");
	}
	for (size_t i = 0; i < o->nfacts; i++)
		if (state(h, o->facts[i], db, err) != 0)
			return -1;
	return 0;
}

struct ud_host *ud_host_for_import(const struct ud_host_import *o, struct ud_err *err)
{
	struct ud_uarch_db db = { 0 };
	bool need_db = o->cpuinfo_path || o->uarch || o->nfacts;
	struct ud_host *h = NULL;

	/* the tables are read only where a name or a CPU is to be looked up in them */
	if (need_db && ud_uarch_db_load(NULL, &db, err) != 0)
		return NULL;
	h = first_facts(o, need_db ? &db : NULL, err);
	if (h && on_top(h, o, &db, err) != 0) {
		ud_host_free(h);
		h = NULL;
	}
	ud_uarch_db_free(&db);
	return h;
}
