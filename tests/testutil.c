#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_doc.h"
#include "testutil.h"

static char *slurp_fd(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = '\0';
	return buf;
}

struct run_result run_capture(char *const argv[])
{
	struct run_result r = { 0 };
	char outpath[] = "/tmp/udtest-out-XXXXXX", errpath[] = "/tmp/udtest-err-XXXXXX";
	int outfd = mkstemp(outpath), errfd = mkstemp(errpath), st;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(outfd, 1);
		dup2(errfd, 2);
		execv(argv[0], argv);
		_exit(126);
	}
	waitpid(pid, &st, 0);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	lseek(outfd, 0, SEEK_SET);
	lseek(errfd, 0, SEEK_SET);
	r.out = slurp_fd(outfd);
	r.err = slurp_fd(errfd);
	close(outfd);
	close(errfd);
	unlink(outpath);
	unlink(errpath);
	return r;
}

void run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
}

int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

char *make_tempdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path = malloc(4096);

	snprintf(path, 4096, "%s/udtest-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(path)) {
		free(path);
		return NULL;
	}
	return path;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *read_text(const char *path)
{
	int fd = open(path, O_RDONLY);
	char *s;

	if (fd < 0)
		return NULL;
	s = slurp_fd(fd);
	close(fd);
	return s;
}

void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[n]))
			return 1;
	return 0;
}

int *busy_loops_start(long per_cpu, long *n)
{
	pid_t parent = getpid();
	int *pids;

	*n = per_cpu * sysconf(_SC_NPROCESSORS_ONLN);
	pids = calloc((size_t)*n, sizeof(*pids));
	ck_assert_ptr_nonnull(pids);
	for (long i = 0; i < *n; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if (pids[i] == 0) {
			/* a test that fails before busy_loops_stop() must not leave them spinning */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(0);
			for (volatile unsigned long x = 0;; x++)
				;
		}
	}
	return pids;
}

void busy_loops_stop(int *pids, long n)
{
	for (long i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	free(pids);
}

int spin_workload(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	volatile uint64_t x = 0;

	(void)ctx;
	(void)err;
	for (uint64_t i = 0; i < iters * 100; i++)
		x += i;
	return 0;
}

struct ud_profile *profile_from_tree(const json_t *j, const char *name, struct ud_err *err)
{
	char *text = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
	struct ud_profile *p;

	ck_assert_ptr_nonnull(text);
	p = ud_profile_parse(text, strlen(text), name, err);
	free(text);
	return p;
}

json_t *profile_tree(const struct ud_profile *p)
{
	struct ud_jw *jw = ud_jw_tree();
	json_t *tree = NULL;

	ud_profile_emit(jw, p);
	ck_assert_int_eq(ud_jw_finish(jw, &tree), 0);
	return tree;
}

struct ud_host *host_from_text(const char *fmt, ...)
{
	char text[4096];
	struct ud_err err = UD_ERR_INIT;
	struct ud_jdoc *doc;
	struct ud_host *h;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	doc = ud_jdoc_parse(text, strlen(text), &err);
	ck_assert_msg(doc != NULL, "%s: %s", text, err.msg);
	h = ud_host_read(ud_jdoc_root(doc), "test", &err);
	ck_assert_msg(h != NULL, "%s: %s", text, err.msg);
	ud_jdoc_free(doc);
	return h;
}
