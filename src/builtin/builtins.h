/*
 * builtins.h - one function per subcommand, as git's builtin.h.
 *
 * Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit status (SPEC §1).  A subcommand
 * parses its options through its table (options.h), calls the library and
 * prints: subcommands are the only code that prints to the terminal.
 */
#ifndef UD_BUILTINS_H
#define UD_BUILTINS_H

int cmd_stat(int argc, char **argv);
int cmd_host(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_teach(int argc, char **argv);
int cmd_schema(int argc, char **argv);

#endif
