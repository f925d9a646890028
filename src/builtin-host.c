/*
 * uarchdiff host [--cpuinfo FILE] [--json]: the host facts of SPEC §3.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "builtins.h"
#include "host.h"

static const char usage_text[] =
	"usage: uarchdiff host [--cpuinfo FILE] [--json]\n"
	"\n"
	"Shows the facts that explain differences between hosts: CPU identity,\n"
	"caches, the detected microarchitecture, kernel, hypervisor, PMU access,\n"
	"perf_event_paranoid,\n"
	"speculative-execution mitigations and the cpufreq policy.  A fact that\n"
	"cannot be read is shown as null, never guessed.\n"
	"\n"
	"    --cpuinfo FILE   take the CPU description from another host's /proc/cpuinfo\n"
	"    --json           print JSON (the profile's \"host\" object)\n";

static void print_value(const char *indent, const char *key, const json_t *v)
{
	const char *k;
	const json_t *sub;

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
		printf("%s%-24s %s\n", indent, key, json_string_value(v));
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
	static const struct option opts[] = {
		{ "cpuinfo", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ud_host_opts hopts = { 0 };
	struct ud_uarch_db db;
	struct ud_err err;
	int json = 0, c;
	json_t *host;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': hopts.cpuinfo_path = optarg; break;
		case 'j': json = 1; break;
		case 'h': fputs(usage_text, stdout); return UD_EXIT_OK;
		default: fputs(usage_text, stderr); return UD_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "uarchdiff host: unexpected argument '%s'\n", argv[optind]);
		return UD_EXIT_USAGE;
	}
	if (ud_uarch_db_load(NULL, &db, &err) != 0) {
		fprintf(stderr, "uarchdiff host: %s\n", err.msg);
		return UD_EXIT_USAGE;
	}
	hopts.db = &db;
	host = ud_host_collect(&hopts, &err);
	ud_uarch_db_free(&db);
	if (!host) {
		fprintf(stderr, "uarchdiff host: %s\n", err.msg);
		return UD_EXIT_USAGE;
	}
	if (json) {
		json_dumpf(host, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
	} else {
		const char *k;
		const json_t *v;

		json_object_foreach(host, k, v)
			print_value("", k, v);
	}
	json_decref(host);
	return fflush(stdout) == 0 ? UD_EXIT_OK : UD_EXIT_RUN_FAILED;
}
