/*
 * builtins.h - one function per subcommand, as git's builtin.h.
 *
 * Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit status (SPEC §1).  A subcommand
 * parses its options through its table (options.h), calls the library and
 * prints: subcommands are the only code that prints to the terminal.
 *
 * Adding a command, every step of it (the tests named check the others):
 *   1. src/builtin/NAME.c with its option table (options.h) and a
 *      `.synopsis` that is its usage line; it calls the library and prints,
 *      and holds no domain logic (that goes in the stage it belongs to);
 *   2. its cmd_NAME() declared here, and its row in main.c's command table
 *      (name, function, one line of help);
 *   3. the file in src/builtin/CMakeLists.txt;
 *   4. its section in doc/uarchdiff.1 with every option (tests/man.sh holds
 *      the man page to `uarchdiff NAME --help`);
 *   5. its name and options in completion/uarchdiff.bash
 *      (tests/completion.sh);
 *   6. a row of the README's command table and its section in doc/commands.md
 *      (where it writes a JSON document: its schema in schemas/, tests/schemas.sh);
 *   7. its bad usages as rows of tests/bad-inputs/cases.tsv (one line, exit
 *      2, nothing written) and a test of what it does.
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
