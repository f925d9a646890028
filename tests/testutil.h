/* Helpers shared by the tests: running the built binary, temporary dirs. */
#ifndef UD_TESTUTIL_H
#define UD_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "workload.h"

struct run_result {
	int status;   /* exit status, or 128+signal */
	char *out;    /* stdout, NUL-terminated (owned) */
	char *err;    /* stderr */
};

/* Runs argv (NULL-terminated) with stdin from /dev/null, capturing both outputs. */
struct run_result run_capture(char *const argv[]);
void run_free(struct run_result *r);
/* Lines in s. */
int count_lines(const char *s);
/* Entries in dir, hidden ones included. */
int count_entries(const char *dir);
/* A fresh directory under TMPDIR (malloc'ed path); rm_tree removes it. */
char *make_tempdir(void);
void rm_tree(const char *path);
char *read_text(const char *path);
void write_text(const char *path, const char *text);
/* Whether word occurs in text as a word of its own ("nan", not the one in "dominant"). */
int has_word(const char *text, const char *word);
/*
 * Busy loops, per_cpu of them for each online CPU, so that anything
 * measured meanwhile gets a share of a CPU well below one; *n says how many.
 * busy_loops_stop() kills and reaps them and frees the array; they die with
 * the process that started them if it never gets there.
 */
int *busy_loops_start(long per_cpu, long *n);
void busy_loops_stop(int *pids, long n);
/* A workload run() that only spins, 100 additions an iteration: the runner tests' steady work. */
int spin_workload(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err);
/* The profile in the JSON tree j, read back as a file's text would be (ud_profile_parse). */
struct ud_profile *profile_from_tree(const json_t *j, const char *name, struct ud_err *err);
/* The profile's JSON form as a tree (ud_profile_emit()); a new reference. */
json_t *profile_tree(const struct ud_profile *p);
/* A host read from the JSON text that printf's fmt makes (ud_host_read()); the test fails if it does not read. */
struct ud_host *host_from_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Runs a suite and returns the exit status for main(). */
int run_suite(Suite *s);

#endif
