/*
 * filecopy.c - UnixBench's file copy: a file of `maxblocks` KB (fstime's -m,
 * 1 KB blocks whatever the buffer) copied buffer by buffer with read() and
 * write(), at 256, 1024 and 4096 bytes.  The
 * file lives in the runner's private temporary directory and is created in
 * setup(), so only the copying is counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

struct copy {
	size_t bufsize, maxblocks, block;
	int src, dst;
	char *buf;
};

/* fstime's -m counts 1 KB blocks, whatever the buffer: the file is max_kb KB, max_kb * 1024 / bufsize buffers. */
static int copy_setup(struct wl_ctx *ctx, size_t bufsize, size_t max_kb, struct ud_err *err)
{
	size_t maxblocks = max_kb * 1024 / bufsize;
	struct copy *c = calloc(1, sizeof(*c));
	char src[4096], dst[4096];

	if (!c || !(c->buf = malloc(bufsize))) {
		free(c);
		return ud_fail(err, "out of memory");
	}
	c->bufsize = bufsize;
	c->maxblocks = maxblocks;
	memset(c->buf, 'x', bufsize);
	snprintf(src, sizeof(src), "%s/copy-src", ctx->tmpdir);
	snprintf(dst, sizeof(dst), "%s/copy-dst", ctx->tmpdir);
	c->src = open(src, O_RDWR | O_CREAT | O_TRUNC, 0600);
	c->dst = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ctx->state = c;
	if (c->src < 0 || c->dst < 0)
		return ud_fail(err, "%s: %s", ctx->tmpdir, strerror(errno));
	for (size_t i = 0; i < maxblocks; i++)
		if (write(c->src, c->buf, bufsize) != (ssize_t)bufsize)
			return ud_fail(err, "%s: %s", src, strerror(errno));
	lseek(c->src, 0, SEEK_SET);
	ctx->work_per_iter = (double)bufsize / 1024; /* KB an iteration */
	return 0;
}

static int copy_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	struct copy *c = ctx->state;

	for (uint64_t i = 0; i < iters; i++) {
		/* at the end of the file, start the copy over, as fstime does */
		if (c->block == c->maxblocks) {
			lseek(c->src, 0, SEEK_SET);
			lseek(c->dst, 0, SEEK_SET);
			c->block = 0;
		}
		if (read(c->src, c->buf, c->bufsize) != (ssize_t)c->bufsize ||
		    write(c->dst, c->buf, c->bufsize) != (ssize_t)c->bufsize)
			return ud_fail(err, "file copy: %s", errno ? strerror(errno) : "short transfer");
		c->block++;
	}
	return 0;
}

static void copy_teardown(struct wl_ctx *ctx)
{
	struct copy *c = ctx->state;

	if (!c)
		return;
	if (c->src >= 0)
		close(c->src);
	if (c->dst >= 0)
		close(c->dst);
	free(c->buf);
	free(c);
	ctx->state = NULL;
}

/* UnixBench's sizes: bufsize and -m maxblocks (KB) of its three fstime runs. */
static int setup_256(struct wl_ctx *ctx, struct ud_err *err)
{
	return copy_setup(ctx, 256, 500, err);
}

static int setup_1k(struct wl_ctx *ctx, struct ud_err *err)
{
	return copy_setup(ctx, 1024, 2000, err);
}

static int setup_4k(struct wl_ctx *ctx, struct ud_err *err)
{
	return copy_setup(ctx, 4096, 8000, err);
}

const struct ud_workload_def wl_fcopy256 = {
	.name = "filecopy-256", .units = "KBps", .higher_is_better = true,
	.teaches = "copy a 500 KB file in 256-byte reads and writes: system-call cost dominates; UnixBench's fstime "
		   "-c -b 256 -m 500 loop",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = setup_256, .run = copy_run, .teardown = copy_teardown,
};

const struct ud_workload_def wl_fcopy1k = {
	.name = "filecopy-1024", .units = "KBps", .higher_is_better = true,
	.teaches = "copy a 2000 KB file in 1 KB reads and writes through the page cache; UnixBench's fstime -c -b 1024 "
		   "-m 2000 loop",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = setup_1k, .run = copy_run, .teardown = copy_teardown,
};

const struct ud_workload_def wl_fcopy4k = {
	.name = "filecopy-4096", .units = "KBps", .higher_is_better = true,
	.teaches = "copy an 8000 KB file in 4 KB reads and writes: copying bandwidth matters more than call cost; "
		   "UnixBench's fstime -c -b 4096 -m 8000 loop",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = setup_4k, .run = copy_run, .teardown = copy_teardown,
};
