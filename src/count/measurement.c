#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counting.h"
#include "measurement.h"
#include "symbols.h"
#include "topdown_method.h"

int ud_measurement_detect(struct ud_measurement *m, struct ud_err *err)
{
	if (ud_uarch_db_load(NULL, &m->db, err) != 0 || !(m->u = ud_uarch_detect_file(&m->db, NULL, err)))
		return -1;
	return 0;
}

static void say(const struct ud_measurement_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const struct ud_measurement_opts *o, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!o->notice)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->notice(o->ctx, msg);
}

/* -M's names each a metric the table defines; then they are counted as --topdown counts them. */
static int check_metrics(struct ud_measurement *m, const char *metrics, struct ud_err *err)
{
	char *list, *name, *save = NULL;
	int rc = 0;

	if (!metrics)
		return 0;
	if (!(list = strdup(metrics)))
		return ud_fail(err, "out of memory");
	for (name = strtok_r(list, ",", &save); name && rc == 0; name = strtok_r(NULL, ",", &save))
		rc = ud_td_metric_check(m->u, name, err);
	free(list);
	m->topdown = m->topdown || rc == 0;
	return rc;
}

/*
 * One unknown event in words: "unknown event 'cyles' (did you mean
 * 'cycles'?)".  Refused, a name that is not simply unknown (a bad modifier
 * or term) is given its reason instead; counted, each is just unknown.
 */
static void unknown_words(const struct ud_uarch *u, const struct ud_event *e, bool refused, char *buf, size_t len)
{
	char hint[512];
	bool plain = !refused || strncmp(e->reason, "unknown event", 13) == 0;

	if (plain && ud_event_suggest(e->name, u, hint, sizeof(hint)))
		snprintf(buf, len, "unknown event '%s' (did you mean %s?)", e->name, hint);
	else if (refused)
		snprintf(buf, len, "event '%s': %s", e->name, e->reason);
	else
		snprintf(buf, len, "unknown event '%s'", e->name);
}

/* Every unknown name of the plan: refused in one line (the first, and how many more), or each noticed. */
static int unknown_events(const struct ud_measurement *m, const struct ud_measurement_opts *o, struct ud_err *err)
{
	char first[1024] = "", msg[1024];
	size_t bad = 0;

	for (size_t i = 0; i < m->nev; i++) {
		if (!m->ev[i].unknown)
			continue;
		if (!o->refuse_unknown) {
			unknown_words(m->u, &m->ev[i], false, msg, sizeof(msg));
			say(o, "%s: counted as not_supported", msg);
		} else if (bad++ == 0) {
			unknown_words(m->u, &m->ev[i], true, first, sizeof(first));
		}
	}
	if (bad == 0)
		return 0;
	if (bad == 1)
		return ud_fail(err, "%s: nothing was run", first);
	return ud_fail(err, "%s (and %zu more unknown events): nothing was run", first, bad - 1);
}

int ud_measurement_check_filters(const struct ud_measurement *m, struct ud_err *err)
{
	for (size_t i = 0; i < m->nev; i++)
		if (m->ev[i].filter && ud_counting_check_filter(&m->ev[i], err) != 0)
			return -1;
	return 0;
}

/*
 * m->u read where o's plan needs it: a start-up that parsed every table
 * cost a `stat -e task-clock` 6.2 M instructions, 84% of it (issue 35).
 * A -e list is resolved without a table first to see whether it needs one.
 */
static int table_for(struct ud_measurement *m, const struct ud_measurement_opts *o, struct ud_err *err)
{
	bool needed = !o->events || o->metrics || o->detailed > 0 || m->topdown;
	struct ud_event *ev;
	size_t n;

	if (m->u)
		return 0;
	if (!needed) {
		if (!(n = ud_event_parse_list(o->events, NULL, &ev, err)))
			return -1;
		for (size_t i = 0; i < n; i++)
			needed = needed || ev[i].hardware || ev[i].unknown;
		free(ev);
	}
	if (!needed)
		return 0;
	if (ud_uarch_load_detected(NULL, NULL, &m->host, err) != 0)
		return -1;
	m->u = &m->host;
	return 0;
}

int ud_measurement_plan(struct ud_measurement *m, const struct ud_measurement_opts *o, struct ud_err *err)
{
	struct ud_err why = UD_ERR_INIT;

	if (o->nothing) {
		m->nev = 0;
		m->ev = calloc(1, sizeof(*m->ev)); /* an empty plan, never a NULL one */
		return m->ev ? 0 : ud_fail(err, "out of memory");
	}
	m->topdown = o->topdown || o->td_asked;
	if (table_for(m, o, err) != 0)
		return -1;
	if (check_metrics(m, o->metrics, err) != 0 || (o->td_asked && ud_td_level_check(m->u, o->td_level, err) != 0))
		return -1;
	m->sampled = o->hotspots && ud_sampler_choose(UD_SAMPLER_DEFAULT_HZ, &m->sampler, &why) == 0;
	if (o->hotspots && !m->sampled)
		say(o, "--hotspots: %s: %s without hotspots", why.msg, o->without_hotspots);
	m->ev = ud_measure_plan_topdown(m->u, o->events, o->detailed, ud_sampler_counters_held(ud_measurement_sampler(m)),
					m->topdown, o->one_group, &m->nev, err);
	if (!m->ev)
		return -1;
	for (size_t i = 0; o->mode && i < m->nev; i++)
		ud_event_force_mode(&m->ev[i], o->mode == 'k');
	if (o->cgroups && ud_cgroups_apply(o->cgroups, &m->ev, &m->nev, err) != 0)
		return -1;
	/* measure.h named the counters :u; a profile's reader needs to know why, once */
	if (o->say_user_only && ud_counting_user_only())
		say(o, "warning: perf_event_paranoid=%d lets this user count user mode only: counters are named :u "
		       "(run as root or with CAP_PERFMON to count the kernel too)",
		    ud_perf_event_paranoid());
	if (unknown_events(m, o, err) != 0)
		return -1;
	return o->request ? ud_event_request_apply_filters(o->request, m->ev, m->nev, err) : 0;
}

const struct ud_sampler_config *ud_measurement_sampler(const struct ud_measurement *m)
{
	return m->sampled ? &m->sampler : NULL;
}

struct ud_hotspots *ud_measurement_hotspots(const struct ud_measurement *m, const void *records, size_t len,
					    struct ud_err *err)
{
	return ud_symbols_from_records(records, len, m->sampler.event, m->sampler.frequency_hz, m->sampler.kernel_reason,
				       err);
}

int ud_measurement_stat(const struct ud_measurement *m, const struct ud_measure_stat *ms, struct ud_workload *w,
			struct ud_workload *const *aggr, struct ud_launch_result *last, struct ud_err *err)
{
	struct ud_launch_sampling s = { .config = &m->sampler, .records_fd = -1 };
	struct ud_measure_stat sampled = *ms;
	uint8_t *records = NULL;
	size_t len = 0;
	int ret;

	sampled.session.sampling = NULL;
	if (!m->sampled)
		return ud_measure_stat(&sampled, m->ev, m->nev, w, aggr, last, err);
	/* the command's children append their records to one anonymous file, read once it is done */
	if ((s.records_fd = ud_records_fd_new(err)) < 0)
		return UD_LAUNCH_SYSTEM;
	sampled.session.sampling = &s;
	ret = ud_measure_stat(&sampled, m->ev, m->nev, w, aggr, last, err);
	if (ret == UD_LAUNCH_OK && ud_records_fd_read(s.records_fd, &records, &len, err) != 0)
		ret = UD_LAUNCH_SYSTEM;
	if (ret == UD_LAUNCH_OK && !(w->hotspots = ud_measurement_hotspots(m, records, len, err)))
		ret = UD_LAUNCH_SYSTEM;
	free(records);
	close(s.records_fd);
	return ret;
}

void ud_measurement_free(struct ud_measurement *m)
{
	free(m->ev);
	m->ev = NULL;
	ud_uarch_db_free(&m->db);
	ud_uarch_free(&m->host);
	m->u = NULL;
	ud_events_cleanup();
}
