/*
 * uarchdiff host [--cpuinfo FILE] [--json]: the host facts of SPEC §3.
 */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "json_emit.h"
#include "host.h"
#include "options.h"
#include "text.h"

static struct {
	const char *cpuinfo;
	bool json;
} args;

static const struct ud_option options[] = {
	UD_STRING_OPTION(0, "cpuinfo", &args.cpuinfo, "FILE",
	  "take the CPU description from another host's /proc/cpuinfo"),
	UD_FLAG_OPTION(0, "json", &args.json, "print JSON (the profile's \"host\" object)"),
};

static const struct ud_command command = {
	.name = "host",
	.synopsis = "uarchdiff host [--cpuinfo FILE] [--json]",
	.description = "Shows the facts that explain differences between hosts: CPU identity,\n"
		       "caches, the detected microarchitecture, kernel, hypervisor, PMU access,\n"
		       "perf_event_paranoid,\n"
		       "speculative-execution mitigations and the cpufreq policy.  A fact that\n"
		       "cannot be read is shown as null, never guessed.\n",
	.options = UD_OPTIONS(options),
};

/* One fact as `host` lists it: a group as a heading, members indented under it. */
static int print_fact(const char *name, const struct ud_fact *v, void *arg)
{
	const char *dot = strrchr(name, '.'), *key = dot ? dot + 1 : name;
	char indent[32], kbuf[256], vbuf[1024], num[32];
	size_t depth = 0;
	FILE *f = arg;

	for (const char *c = name; *c && depth < sizeof(indent) / 2 - 1; c++)
		depth += *c == '.';
	memset(indent, ' ', 2 * depth);
	indent[2 * depth] = '\0';
	/* The facts come from files (--cpuinfo, /sys): shown, never obeyed by the terminal. */
	key = ud_visible(key, kbuf, sizeof(kbuf));
	if (v->type == UD_FACT_GROUP)
		fprintf(f, "%s%s:\n", indent, key);
	else if (v->type == UD_FACT_NULL)
		fprintf(f, "%s%-24s (unknown)\n", indent, key);
	else if (v->type == UD_FACT_INTEGER && strncmp(key, "midr_", 5) == 0)
		fprintf(f, "%s%-24s 0x%llx\n", indent, key, v->integer);
	else if (v->type == UD_FACT_BOOLEAN)
		fprintf(f, "%s%-24s %s\n", indent, key, v->boolean ? "yes" : "no");
	else
		fprintf(f, "%s%-24s %s\n", indent, key, ud_visible(ud_fact_text(v, num, sizeof(num)), vbuf, sizeof(vbuf)));
	return 0;
}

/* The facts, a line each, fitted to the terminal (a mitigation's text runs long). */
static void print_facts(const struct ud_host *host)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		ud_host_each_fact(host, print_fact, stdout);
		return;
	}
	ud_host_each_fact(host, print_fact, f);
	if (fclose(f) == 0 && text)
		ud_cli_print_fitted(text);
	free(text);
}

int cmd_host(int argc, char **argv)
{
	struct ud_host_opts hopts = { 0 };
	struct ud_uarch_db db;
	struct ud_err err = UD_ERR_INIT;
	int next, status;
	struct ud_host *host;

	args.cpuinfo = NULL;
	args.json = false;
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (ud_uarch_db_load(NULL, &db, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	hopts.db = &db;
	hopts.cpuinfo_path = args.cpuinfo;
	host = ud_host_collect(&hopts, &err);
	ud_uarch_db_free(&db);
	if (!host) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	if (args.json) {
		struct ud_jw *jw = ud_jw_text(stdout);

		ud_host_emit(jw, NULL, host);
		ud_jw_finish(jw, NULL);
	} else {
		print_facts(host);
	}
	ud_host_free(host);
	return ud_stdout_status(&command);
}
