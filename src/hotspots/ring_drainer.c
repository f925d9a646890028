#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "perf_records.h"
#include "ring_drainer.h"

/* The drainer looks at least this often, whether or not the kernel woke it. */
#define DRAIN_POLL_MS 50

/* Messages to the drainer: a ring's fd, go, quit; its one reply is an errno (0: fine). */
enum { MSG_FD = 'f', MSG_GO = 'g', MSG_QUIT = 'q' };

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	uint8_t *data;
};

struct drain {
	int out_fd, status;
	struct ring *rings;
	struct pollfd *pfd; /* the rings, then the socket */
	size_t n;
	uint64_t data_size;
	uint8_t *chunk;
};

/* Moves every unread record out; the kernel writes only whole records, so every chunk ends on one. */
static void drain_all(struct drain *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct ring *r = &d->rings[i];
		uint64_t head, tail;
		size_t got;

		do {
			head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
			tail = r->meta->data_tail;
			got = ud_ring_copy(r->data, d->data_size, tail, head, d->chunk, (size_t)d->data_size);
			if (got && !d->status)
				d->status = ud_write_all(d->out_fd, d->chunk, got);
			__atomic_store_n(&r->meta->data_tail, tail + got, __ATOMIC_RELEASE);
		} while (got);
	}
}

/* One message: its byte, and the fd it carries (or -1).  0 at EOF. */
static ssize_t recv_msg(int sock, char *cmd, int *fd)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { cmd, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	ssize_t k;

	*fd = -1;
	while ((k = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	c = k > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	return k;
}

/* Maps the rings as they come, until go; 0, or the first errno. */
static int receive_rings(struct drain *d, int sock, size_t pages)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (pages + 1) * (size_t)page;
	char cmd = 0;
	int fd, e = 0;

	d->data_size = (uint64_t)pages * (uint64_t)page;
	d->chunk = malloc(d->data_size);
	while (recv_msg(sock, &cmd, &fd) > 0 && cmd == MSG_FD) {
		struct ring *r = realloc(d->rings, (d->n + 1) * sizeof(*r));
		void *m;

		if (!r || !d->chunk)
			e = e ? e : ENOMEM;
		if (r)
			d->rings = r;
		m = e ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			e = e ? e : errno;
			close(fd);
		} else {
			d->rings[d->n++] = (struct ring){ fd, m, (uint8_t *)m + page };
		}
	}
	return cmd == MSG_GO ? e : e ? e : EPIPE;
}

/* Closes every descriptor but a and b (above stderr). */
static void keep_only(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;

	if (lo > 3)
		close_range(3, (unsigned)lo - 1, 0);
	if (hi > lo + 1)
		close_range((unsigned)lo + 1, (unsigned)hi - 1, 0);
	close_range((unsigned)hi + 1, ~0U, 0);
}

static void drainer_main(int sock, int out_fd)
{
	struct drain d = { .out_fd = out_fd };
	size_t pages = 0;
	char cmd = 0;

	keep_only(sock, out_fd);
	if (read(sock, &pages, sizeof(pages)) != (ssize_t)sizeof(pages))
		_exit(1);
	d.status = receive_rings(&d, sock, pages);
	d.pfd = calloc(d.n + 1, sizeof(*d.pfd));
	if (!d.status && !d.pfd)
		d.status = ENOMEM;
	if (ud_write_all(sock, &d.status, sizeof(d.status)) != 0 || d.status)
		_exit(1);
	for (size_t i = 0; i < d.n; i++) /* readable when a ring is half full (the events' watermark) */
		d.pfd[i] = (struct pollfd){ .fd = d.rings[i].fd, .events = POLLIN };
	d.pfd[d.n] = (struct pollfd){ .fd = sock, .events = POLLIN };
	while (cmd != MSG_QUIT) {
		if (poll(d.pfd, d.n + 1, DRAIN_POLL_MS) > 0 && (d.pfd[d.n].revents & (POLLIN | POLLHUP)) &&
		    read(sock, &cmd, 1) != 1)
			_exit(1); /* the sampled process is gone */
		drain_all(&d);
	}
	ud_write_all(sock, &d.status, sizeof(d.status));
	_exit(0);
}

int ud_drainer_start(struct ud_drainer *d, int out_fd, struct ud_err *err)
{
	int sv[2];

	d->pid = -1;
	d->sock = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return ud_fail(err, "sampling: socketpair: %s", strerror(errno));
	d->pid = fork();
	if (d->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return ud_fail(err, "sampling: cannot start the ring drainer: %s", strerror(errno));
	}
	if (d->pid == 0) {
		close(sv[0]);
		drainer_main(sv[1], out_fd);
	}
	close(sv[1]);
	d->sock = sv[0];
	return 0;
}

/* To the drainer: MSG_NOSIGNAL, so a drainer that is gone is an error, not a SIGPIPE. */
static int send_all(int sock, const void *buf, size_t n)
{
	return send(sock, buf, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

static int send_fd(int sock, int fd)
{
	char cmd = MSG_FD, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &cmd, 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;

	memset(ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* The drainer's reply: 0, or the errno it met; EPIPE when it is gone. */
static int reply(const struct ud_drainer *d)
{
	int status;

	return read(d->sock, &status, sizeof(status)) == (ssize_t)sizeof(status) ? status : EPIPE;
}

int ud_drainer_go(struct ud_drainer *d, const int *fds, size_t n, size_t pages, struct ud_err *err)
{
	char go = MSG_GO;
	int e = 0;

	if (send_all(d->sock, &pages, sizeof(pages)) != 0)
		e = EPIPE;
	for (size_t i = 0; !e && i < n; i++)
		if (send_fd(d->sock, fds[i]) != 0)
			e = errno;
	if (!e && send_all(d->sock, &go, 1) != 0)
		e = EPIPE;
	if (!e)
		e = reply(d);
	if (e)
		return ud_fail(err, "sampling: the ring drainer cannot map the rings (%s): perf_event_mlock_kb too small?",
			       strerror(e));
	return 0;
}

int ud_drainer_stop(struct ud_drainer *d, struct ud_err *err)
{
	char quit = MSG_QUIT;
	int e = 0, status;

	if (d->pid < 0)
		return 0;
	if (send_all(d->sock, &quit, 1) == 0)
		e = reply(d);
	close(d->sock);
	while (waitpid(d->pid, &status, 0) < 0 && errno == EINTR)
		;
	d->pid = -1;
	if (e)
		return ud_fail(err, "sampling: writing the records: %s", strerror(e));
	return 0;
}
