#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "options.h"
#include "report.h"
#include "text.h"

/* getopt_long's value for an option without a short name: past any char. */
#define LONG_ONLY_BASE 256

/* No destination, so not UD_FLAG_OPTION: the parser answers --help itself (UD_OPT_HELP). */
static const struct ud_option help_option = {
	.short_name = 'h', .long_name = "help", .kind = UD_OPT_FLAG, .help = "show this help",
};

/* The table's i-th option, -h/--help coming last. */
static const struct ud_option *option_at(const struct ud_command *cmd, size_t i)
{
	return i < cmd->noptions ? &cmd->options[i] : &help_option;
}

static int option_val(const struct ud_option *o, size_t i)
{
	return o->short_name ? (unsigned char)o->short_name : LONG_ONLY_BASE + (int)i;
}

static bool takes_argument(const struct ud_option *o)
{
	switch (o->kind) {
	case UD_OPT_FLAG:
	case UD_OPT_COUNT:
	case UD_OPT_CLEAR: return false;
	case UD_OPT_REFUSED: return o->arg_name != NULL;
	default: return true;
	}
}

/* getopt's tables: "+:" (or ":" to permute) then each short option; long ones in table order. */
static void build_tables(const struct ud_command *cmd, char *shorts, struct option *longs)
{
	size_t k = 0;

	if (!cmd->permute)
		shorts[k++] = '+'; /* stop at the first operand: a command's own options are not ours */
	shorts[k++] = ':'; /* a missing argument returns ':' so that we can word it */
	for (size_t i = 0; i <= cmd->noptions; i++) {
		const struct ud_option *o = option_at(cmd, i);
		bool arg = takes_argument(o);
		/* a refusal takes what the refused option takes, or an argument or none (--iostat[=X]) */
		int has = arg ? required_argument : o->kind == UD_OPT_REFUSED ? optional_argument : no_argument;

		if (o->short_name) {
			shorts[k++] = o->short_name;
			if (arg)
				shorts[k++] = ':';
		}
		longs[i] = (struct option){ o->long_name, has, NULL, option_val(o, i) };
	}
	shorts[k] = '\0';
	longs[cmd->noptions + 1] = (struct option){ 0 };
}

/* "-r" or "--suite": how the user spelled an option, for messages. */
static void spelling(const struct ud_option *o, char *buf, size_t len)
{
	if (o->short_name)
		snprintf(buf, len, "-%c", o->short_name);
	else
		snprintf(buf, len, "--%s", o->long_name);
}

static int append_list(char **list, const char *arg)
{
	size_t len = *list ? strlen(*list) + 1 : 0;
	char *grown = realloc(*list, len + strlen(arg) + 1);

	if (!grown)
		return -1;
	if (len)
		grown[len - 1] = ',';
	strcpy(grown + len, arg);
	*list = grown;
	return 0;
}

static int store(const struct ud_option *o, const char *arg, struct ud_err *err)
{
	char name[64], *end;
	long v;

	spelling(o, name, sizeof(name));
	if (o->kind == UD_OPT_REFUSED)
		return ud_fail(err, "%s: %s", name, o->refusal);
	/* No option means anything by "": an empty file name, separator or list is a slip. */
	if (takes_argument(o) && !*arg)
		return ud_fail(err, "%s needs a non-empty argument (%s)", name, o->arg_name);
	switch (o->kind) {
	case UD_OPT_FLAG: *(bool *)o->dest = true; return 0;
	case UD_OPT_CLEAR: *(bool *)o->dest = false; return 0;
	case UD_OPT_REFUSED: return -1;
	case UD_OPT_COUNT: ++*(int *)o->dest; return 0;
	case UD_OPT_STRING: *(const char **)o->dest = arg; return 0;
	case UD_OPT_LIST:
		return append_list(o->dest, arg) == 0 ? 0 : ud_fail(err, "%s: out of memory", name);
	case UD_OPT_PARSE: return o->parse(arg, o->dest, err);
	case UD_OPT_LONG: break;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < o->min || v > o->max)
		return ud_fail(err, "%s needs a whole number from %ld to %ld, not '%s'", name, o->min, o->max, arg);
	*(long *)o->dest = v;
	return 0;
}

/* "unknown option '--labl'; did you mean '--label'?": the nearest of the table's long names. */
static void unknown_long(const struct ud_command *cmd, const char *given, struct ud_err *err)
{
	const char **names = malloc((cmd->noptions + 1) * sizeof(*names)), *near = NULL;
	char word[64];

	for (size_t i = 0; names && i <= cmd->noptions; i++)
		names[i] = option_at(cmd, i)->long_name;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(given + strspn(given, "-"), "="), given + strspn(given, "-"));
	if (names)
		near = ud_closest(word, names, cmd->noptions + 1);
	free(names);
	if (near)
		ud_fail(err, "unknown option '%s'; did you mean '--%s'? (see 'uarchdiff%s%s --help')", given, near,
			cmd->name ? " " : "", cmd->name ? cmd->name : "");
	else
		ud_fail(err, "unknown option '%s'; see 'uarchdiff%s%s --help'", given, cmd->name ? " " : "",
			cmd->name ? cmd->name : "");
}

/* What went wrong with the option getopt just refused, in words. */
static void refused(const struct ud_command *cmd, int c, char **argv, struct ud_err *err)
{
	const char *given = argv[optind - 1];

	for (size_t i = 0; c == ':' && i <= cmd->noptions; i++) {
		const struct ud_option *o = option_at(cmd, i);

		if (optopt == option_val(o, i)) {
			char name[64];

			spelling(o, name, sizeof(name));
			ud_fail(err, "%s needs an argument (%s)", name, o->arg_name);
			return;
		}
	}
	/* An unknown short option inside a cluster ("-jq") is reported alone. */
	if (optopt > 0 && optopt < LONG_ONLY_BASE && strncmp(given, "--", 2) != 0)
		ud_fail(err, "unknown option '-%c'; see 'uarchdiff%s%s --help'", optopt, cmd->name ? " " : "",
			cmd->name ? cmd->name : "");
	else
		unknown_long(cmd, given, err);
}

static enum ud_opt_result parse_with(const struct ud_command *cmd, int argc, char **argv, const char *shorts,
				     const struct option *longs, int *next, struct ud_err *err)
{
	int c;

	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		size_t i = 0;

		while (i <= cmd->noptions && option_val(option_at(cmd, i), i) != c)
			i++;
		if (c == '?' || c == ':' || i > cmd->noptions) {
			refused(cmd, c, argv, err);
			return UD_OPT_ERROR;
		}
		if (i == cmd->noptions)
			return UD_OPT_HELP;
		if (store(option_at(cmd, i), optarg, err) != 0)
			return UD_OPT_ERROR;
	}
	*next = optind;
	if (!cmd->operands && optind < argc) {
		ud_fail(err, "unexpected argument '%s'", argv[optind]);
		return UD_OPT_ERROR;
	}
	return UD_OPT_OK;
}

enum ud_opt_result ud_options_parse(const struct ud_command *cmd, int argc, char **argv, int *next,
				    struct ud_err *err)
{
	char *shorts = malloc(2 * cmd->noptions + 8);
	struct option *longs = calloc(cmd->noptions + 2, sizeof(*longs));
	enum ud_opt_result r = UD_OPT_ERROR;

	if (!shorts || !longs) {
		ud_fail(err, "out of memory");
	} else {
		build_tables(cmd, shorts, longs);
		optind = 0; /* 0, not 1: glibc then forgets a previous parse's state */
		opterr = 0; /* the errors are worded here, in the command's voice */
		r = parse_with(cmd, argc, argv, shorts, longs, next, err);
	}
	free(shorts);
	free(longs);
	return r;
}

/* Prints text with every line after the first indented to col. */
static void print_indented(FILE *f, const char *text, int col)
{
	for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1)
		fprintf(f, "%.*s\n%*s", (int)(nl - text), text, col, "");
	fprintf(f, "%s\n", text);
}

/* "-r, --repeat N" or "    --exact": long names line up under each other. */
static int option_label(const struct ud_option *o, char *buf, size_t len)
{
	char shortpart[8] = "    ";

	if (o->short_name)
		snprintf(shortpart, sizeof(shortpart), "-%c, ", o->short_name);
	return snprintf(buf, len, "%s--%s%s%s", shortpart, o->long_name, o->arg_name ? " " : "",
			o->arg_name ? o->arg_name : "");
}

void ud_options_usage(const struct ud_command *cmd, FILE *f)
{
	int width = 0;
	char label[128];

	fprintf(f, "usage: %s\n", cmd->synopsis);
	if (cmd->description)
		fprintf(f, "\n%s", cmd->description);
	for (size_t i = 0; i <= cmd->noptions; i++) {
		int w = option_at(cmd, i)->help ? option_label(option_at(cmd, i), label, sizeof(label)) : 0;

		width = w > width ? w : width;
	}
	fputc('\n', f);
	for (size_t i = 0; i <= cmd->noptions; i++) {
		const struct ud_option *o = option_at(cmd, i);

		if (!o->help)
			continue;
		option_label(o, label, sizeof(label));
		fprintf(f, "    %-*s   ", width, label);
		print_indented(f, o->help, 4 + width + 3);
	}
	if (cmd->epilogue)
		fprintf(f, "\n%s", cmd->epilogue);
}

int ud_options_cli(const struct ud_command *cmd, int argc, char **argv, int *next)
{
	struct ud_err err = UD_ERR_INIT;

	switch (ud_options_parse(cmd, argc, argv, next, &err)) {
	case UD_OPT_OK: return UD_OPT_GO_ON;
	case UD_OPT_HELP:
		ud_options_usage(cmd, stdout);
		return ud_stdout_status(cmd);
	case UD_OPT_ERROR: break;
	}
	ud_cmd_error(cmd, "%s", err.msg);
	return cmd->usage_status ? cmd->usage_status : UD_EXIT_USAGE;
}

void ud_streams_guard(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* Read-only: a write to it still fails with EBADF, as on the closed stream. */
		got = open("/dev/null", O_RDONLY);
		if (got >= 0 && got != fd) {
			dup2(got, fd);
			close(got);
		}
	}
}

int ud_stdout_status(const struct ud_command *cmd)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return UD_EXIT_OK;
	ud_cmd_error(cmd, "standard output: write failed: %s", strerror(errno ? errno : EIO));
	clearerr(stdout); /* reported: ud_streams_status() does not say it twice */
	return UD_EXIT_RUN_FAILED;
}

int ud_streams_status(const char *name, int status)
{
	const struct ud_command cmd = { .name = name };

	if (fflush(stdout) != 0 || ferror(stdout)) {
		ud_cmd_error(&cmd, "standard output: write failed: %s", strerror(errno ? errno : EIO));
		status = status == UD_EXIT_OK ? UD_EXIT_RUN_FAILED : status;
	}
	/* A message that could not be written cannot say so; the status can. */
	if (ferror(stderr) && status == UD_EXIT_OK)
		status = UD_EXIT_RUN_FAILED;
	return status;
}

void ud_cmd_error(const struct ud_command *cmd, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	fprintf(stderr, "uarchdiff%s%s: ", cmd->name ? " " : "", cmd->name ? cmd->name : "");
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Messages quote input (names, lines of files): one line, shown, never obeyed by the terminal. */
	ud_fputs_visible(stderr, msg);
	fputc('\n', stderr);
}

size_t ud_cli_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long v = env ? strtol(env, &end, 10) : 0;

	if (env && *env && !*end && v > 0 && v < 100000)
		return (size_t)v;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return UD_REPORT_WIDTH;
}

void ud_cli_print_fitted(const char *text)
{
	char *shown = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&shown, &len);

	/* out of memory for the copy: the text shown, unfitted, rather than lost */
	if (!f) {
		ud_fputs_visible_lines(stdout, text);
		return;
	}
	ud_fputs_visible_lines(f, text);
	if (fclose(f) != 0 || !shown)
		ud_fputs_visible_lines(stdout, text);
	else
		ud_text_fit(shown, ud_cli_width(), stdout);
	free(shown);
}
