/*
 * uarchdiff host [--cpuinfo FILE] [--json]: the host facts of SPEC §3.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "builtins.h"
#include "json_io.h"
#include "host.h"
#include "options.h"
#include "text.h"

static struct {
	const char *cpuinfo;
	bool json;
} args;

static const struct ud_option options[] = {
	{ 0, "cpuinfo", UD_OPT_STRING, &args.cpuinfo, "FILE", "take the CPU description from another host's /proc/cpuinfo",
	  0, 0, NULL },
	{ 0, "json", UD_OPT_FLAG, &args.json, NULL, "print JSON (the profile's \"host\" object)", 0, 0, NULL },
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

static void print_value(const char *indent, const char *key, const json_t *v)
{
	const char *k;
	const json_t *sub;
	char kbuf[256], vbuf[1024];

	/* The facts come from files (--cpuinfo, /sys): shown, never obeyed by the terminal. */
	key = ud_visible(key, kbuf, sizeof(kbuf));
	if (json_is_object(v)) {
		char deeper[32];

		printf("%s%s:\n", indent, key);
		snprintf(deeper, sizeof(deeper), "%s  ", indent);
		json_object_foreach((json_t *)v, k, sub)
			print_value(deeper, k, sub);
		return;
	}
	if (json_is_null(v))
		printf("%s%-24s (unknown)\n", indent, key);
	else if (json_is_string(v))
		printf("%s%-24s %s\n", indent, key, ud_visible(json_string_value(v), vbuf, sizeof(vbuf)));
	else if (json_is_integer(v) && strncmp(key, "midr_", 5) == 0)
		printf("%s%-24s 0x%llx\n", indent, key, (long long)json_integer_value(v));
	else if (json_is_integer(v))
		printf("%s%-24s %lld\n", indent, key, (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		printf("%s%-24s %s\n", indent, key, json_is_true(v) ? "yes" : "no");
	else
		printf("%s%-24s %g\n", indent, key, json_number_value(v));
}

int cmd_host(int argc, char **argv)
{
	struct ud_host_opts hopts = { 0 };
	struct ud_uarch_db db;
	struct ud_err err = UD_ERR_INIT;
	int next, status;
	json_t *host;

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
		ud_json_write(host, stdout);
	} else {
		const char *k;
		const json_t *v;

		json_object_foreach(host, k, v)
			print_value("", k, v);
	}
	json_decref(host);
	return ud_stdout_status(&command);
}
