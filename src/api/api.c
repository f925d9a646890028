/*
 * The public library's functions (include/uarchdiff/uarchdiff.h): thin
 * wrappers over the model, the importers, the diff, the fleet and the
 * reports, the calls the diff, import and compare commands make, so that a
 * program links them without the model's structs becoming its ABI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "error.h"
#include "fleet.h"
#include "host_facts.h"
#include "import.h"
#include "profile.h"
#include "report.h"
#include "uarch.h"
#include "uarchdiff/uarchdiff.h"

struct uarchdiff_profile {
	struct ud_profile *model;
};

struct uarchdiff_diff {
	struct ud_diff *model;
	char *names[2];     /* the report's names for the two sides: the model borrows them */
	char *templates;    /* NULL: the default lookup */
	struct ud_uarch_db db;
};

struct uarchdiff_fleet {
	struct ud_fleet *model;
	char **paths;       /* the fleet borrows them, and reads outliers' files again while writing */
	size_t n;
	char *templates;
	struct ud_uarch_db db; /* borrowed by the fleet for the diffs it makes while writing */
};

/* The struct ud_err of the library into the caller's, which may be NULL. */
static void say(struct uarchdiff_error *out, const struct ud_err *err)
{
	if (out)
		snprintf(out->text, sizeof(out->text), "%s", err->msg);
}

/* Says "out of memory" into out; returns NULL, for `return oom(out);`. */
static void *oom(struct uarchdiff_error *out)
{
	struct ud_err err = UD_ERR_INIT;

	ud_fail(&err, "out of memory");
	say(out, &err);
	return NULL;
}

const char *uarchdiff_version(void)
{
	return UD_VERSION;
}

/* model wrapped; a new reference that owns model (freed here on failure). */
static struct uarchdiff_profile *wrap_profile(struct ud_profile *model, struct uarchdiff_error *out)
{
	struct uarchdiff_profile *p = malloc(sizeof(*p));

	if (!p) {
		ud_profile_free(model);
		return oom(out);
	}
	p->model = model;
	return p;
}

struct uarchdiff_profile *uarchdiff_profile_load(const char *path, struct uarchdiff_error *out)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *model = NULL;
	char *paths[1] = { (char *)path };

	if (ud_import_load_profiles(paths, 1, &model, &err) != 0) {
		say(out, &err);
		return NULL;
	}
	return wrap_profile(model, out);
}

/* The empty profile an import fills, a host known by its label alone: a new reference, or NULL with err. */
static struct ud_profile *labelled_profile(const char *label, struct ud_err *err)
{
	struct ud_host *host;
	struct ud_profile *p;

	if (ud_host_check_label("label", label, err) != 0)
		return NULL;
	host = ud_host_new();
	if (!host || ud_host_set_string(&host->label, label) != 0) {
		ud_host_free(host);
		ud_fail(err, "out of memory");
		return NULL;
	}
	if (!(p = ud_profile_new(host)))
		ud_fail(err, "out of memory");
	return p;
}

struct uarchdiff_profile *uarchdiff_profile_import(const char *text, size_t len, const char *name,
						   const char *format, const char *label,
						   struct uarchdiff_error *out)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_import_opts o = { .format = UD_FMT_AUTO, .side = UD_IMPORT_SIDE_NONE };
	struct ud_profile *model;

	if (format && ud_import_format_parse(format, &o.format) != 0) {
		ud_fail(&err, "unknown format '%s' (uarchdiff import -f's names)", format);
		say(out, &err);
		return NULL;
	}
	if (!(model = labelled_profile(label ? label : name, &err)) ||
	    ud_import_buffer(model, text, len, name, &o, &err) != 0) {
		ud_profile_free(model);
		say(out, &err);
		return NULL;
	}
	return wrap_profile(model, out);
}

int uarchdiff_profile_write(const struct uarchdiff_profile *p, FILE *f, struct uarchdiff_error *out)
{
	struct ud_err err = UD_ERR_INIT;

	if (ud_profile_dump(p->model, f) == 0)
		return 0;
	ud_fail(&err, "the profile could not be written (out of memory, or the stream refused it)");
	say(out, &err);
	return -1;
}

const char *uarchdiff_profile_label(const struct uarchdiff_profile *p)
{
	return ud_host_label(p->model->host, "");
}

size_t uarchdiff_profile_workloads(const struct uarchdiff_profile *p)
{
	return p->model->nworkloads;
}

void uarchdiff_profile_free(struct uarchdiff_profile *p)
{
	if (!p)
		return;
	ud_profile_free(p->model);
	free(p);
}

/* data_dir's kind folder, a new string the caller frees (NULL data_dir: NULL, the default lookup); -1 out of memory. */
static int data_subdir(const char *data_dir, const char *kind, char **dir)
{
	size_t len;

	*dir = NULL;
	if (!data_dir)
		return 0;
	len = strlen(data_dir) + strlen(kind) + 2;
	if (!(*dir = malloc(len)))
		return -1;
	snprintf(*dir, len, "%s/%s", data_dir, kind);
	return 0;
}

/* The event tables and templates of data_dir into db and *templates; 0, or -1 with err. */
static int load_data(const char *data_dir, struct ud_uarch_db *db, char **templates, struct ud_err *err)
{
	char *events;
	int ret;

	if (data_subdir(data_dir, "events", &events) != 0 || data_subdir(data_dir, "report-templates", templates) != 0) {
		free(events);
		return ud_fail(err, "out of memory");
	}
	ret = ud_uarch_db_load(events, db, err);
	free(events);
	return ret;
}

void uarchdiff_diff_free(struct uarchdiff_diff *d)
{
	if (!d)
		return;
	ud_diff_free(d->model);
	free(d->names[0]);
	free(d->names[1]);
	free(d->templates);
	ud_uarch_db_free(&d->db);
	free(d);
}

struct uarchdiff_diff *uarchdiff_diff_new(const struct uarchdiff_profile *baseline,
					  const struct uarchdiff_profile *candidate, const char *baseline_name,
					  const char *candidate_name, const char *data_dir,
					  struct uarchdiff_error *out)
{
	struct ud_err err = UD_ERR_INIT;
	struct uarchdiff_diff *d = calloc(1, sizeof(*d));
	struct ud_diff_input in;

	if (!d)
		return oom(out);
	d->names[0] = strdup(baseline_name);
	d->names[1] = strdup(candidate_name);
	if (!d->names[0] || !d->names[1]) {
		uarchdiff_diff_free(d);
		return oom(out);
	}
	in = (struct ud_diff_input){ baseline->model, candidate->model, d->names[0], d->names[1], &d->db };
	if (load_data(data_dir, &d->db, &d->templates, &err) != 0 || !(d->model = ud_diff_build(&in, &err))) {
		uarchdiff_diff_free(d);
		say(out, &err);
		return NULL;
	}
	return d;
}

/* The public format as the reports name it. */
static enum ud_report_format report_format(enum uarchdiff_format f)
{
	switch (f) {
	case UARCHDIFF_FORMAT_JSON:
		return UD_REPORT_JSON;
	case UARCHDIFF_FORMAT_MARKDOWN:
		return UD_REPORT_MD;
	case UARCHDIFF_FORMAT_HTML:
		return UD_REPORT_HTML;
	default:
		return UD_REPORT_TEXT;
	}
}

int uarchdiff_diff_write(const struct uarchdiff_diff *d, enum uarchdiff_format f, FILE *f_out,
			 struct uarchdiff_error *out)
{
	struct ud_err err = UD_ERR_INIT;

	if (ud_report_write(d->model, report_format(f), d->templates, f_out, &err) == 0)
		return 0;
	say(out, &err);
	return -1;
}

void uarchdiff_fleet_free(struct uarchdiff_fleet *f)
{
	if (!f)
		return;
	ud_fleet_free(f->model);
	for (size_t i = 0; i < f->n; i++)
		free(f->paths[i]);
	free(f->paths);
	free(f->templates);
	ud_uarch_db_free(&f->db);
	free(f);
}

/* The paths copied into f; -1 out of memory (f->n says how many were). */
static int copy_paths(struct uarchdiff_fleet *f, const char *const *paths, size_t n)
{
	if (!(f->paths = calloc(n ? n : 1, sizeof(*f->paths))))
		return -1;
	for (; f->n < n; f->n++)
		if (!(f->paths[f->n] = strdup(paths[f->n])))
			return -1;
	return 0;
}

struct uarchdiff_fleet *uarchdiff_fleet_new(const char *const *paths, size_t n, const char *data_dir,
					    struct uarchdiff_error *out)
{
	struct ud_err err = UD_ERR_INIT;
	struct uarchdiff_fleet *f = calloc(1, sizeof(*f));
	struct ud_fleet_input in = { .baseline = UD_FLEET_MEDIAN };

	if (!f || copy_paths(f, paths, n) != 0) {
		uarchdiff_fleet_free(f);
		return oom(out);
	}
	if (n < 2)
		ud_fail(&err, "give at least two profiles");
	else if (load_data(data_dir, &f->db, &f->templates, &err) == 0) {
		in = (struct ud_fleet_input){ f->paths, f->n, NULL, 0, UD_FLEET_MEDIAN, NULL, &f->db };
		f->model = ud_fleet_build(&in, &err);
	}
	if (!f->model) {
		uarchdiff_fleet_free(f);
		say(out, &err);
		return NULL;
	}
	return f;
}

int uarchdiff_fleet_write(const struct uarchdiff_fleet *f, enum uarchdiff_format fmt, FILE *f_out,
			  struct uarchdiff_error *out)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_fleet_report r = { report_format(fmt), false, false, NULL };

	if (ud_fleet_write(f->model, &r, f->templates, f_out, &err) == 0)
		return 0;
	say(out, &err);
	return -1;
}
