/*
 * The published JSON Schemas (schemas/) against the code that writes the
 * documents: every closed set a schema enumerates is exactly the C name
 * table the writer takes its words from (a finding id added to diff_rules.c
 * without its schema entry fails here, naming the file and the place); each
 * document's "schema" constant is the writer's; the schema table of
 * `uarchdiff schema` names every file; every enumerated field the profile
 * reader takes is exactly its schema's enum, both ways (issue 36).  Then the
 * compatibility promise of /1: every earlier form of a profile
 * (tests/data/profiles-v1, from the tool's history) still loads and diffs.
 *
 * That the documents themselves validate is tests/schemas.sh's, with a
 * packaged validator.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "count_status.h"
#include "counting.h"
#include "cpu_mode.h"
#include "fleet.h"
#include "derived.h"
#include "diff.h"
#include "profile.h"
#include "schemas.h"
#include "stat_record.h"
#include "teach.h"
#include "testutil.h"
#include "topdown.h"

/* More names than any table here has. */
#define NAMES_MAX 64

struct names {
	const char *v[NAMES_MAX];
	size_t n;
	const char *from; /* the C function the words come from, for the message */
};

static void add(struct names *s, const char *name)
{
	ck_assert_uint_lt(s->n, NAMES_MAX);
	s->v[s->n++] = name;
}

static struct names count_statuses(void)
{
	struct names s = { .from = "ud_count_status_name()" };

	add(&s, ud_count_status_name(UD_COUNTED));
	add(&s, ud_count_status_name(UD_NOT_SUPPORTED));
	add(&s, ud_count_status_name(UD_NOT_COUNTED));
	return s;
}

static struct names pmu_states(void)
{
	struct names s = { .from = "ud_pmu_state_name()" };

	add(&s, ud_pmu_state_name(UD_PMU_AVAILABLE));
	add(&s, ud_pmu_state_name(UD_PMU_ABSENT));
	add(&s, ud_pmu_state_name(UD_PMU_RESTRICTED));
	return s;
}

static struct names modes(void)
{
	struct names s = { .from = "ud_mode_name()" };

	for (int m = 0; m < UD_MODE_COUNT; m++)
		add(&s, ud_mode_name((enum ud_mode)m));
	return s;
}

/* A profile's record always has a method: the reader refuses "none". */
static struct names profile_topdown_methods(void)
{
	struct names s = { .from = "ud_topdown_method_name()" };

	add(&s, ud_topdown_method_name(UD_TD_SLOTS));
	add(&s, ud_topdown_method_name(UD_TD_CYCLE_ACCOUNTING));
	return s;
}

static struct names topdown_methods(void)
{
	struct names s = profile_topdown_methods();

	add(&s, ud_topdown_method_name(UD_TD_METHOD_NONE));
	return s;
}

static struct names topdown_sources(void)
{
	struct names s = { .from = "ud_topdown_source_name()" };

	add(&s, ud_topdown_source_name(UD_TD_COUNTED));
	add(&s, ud_topdown_source_name(UD_TD_PERF_METRICS));
	add(&s, ud_topdown_source_name(UD_TD_PERF_TOPDOWN_EVENTS));
	return s;
}

static struct names buckets(int level)
{
	struct names s = { .from = "ud_topdown_bucket_name()" };

	for (int b = 0; b < UD_TD_NBUCKETS; b++)
		if (level == 0 || ud_topdown_bucket_level(b) == level)
			add(&s, ud_topdown_bucket_name(b));
	return s;
}

/* The top-down record's own fields: the level-1 buckets and what every record has. */
static struct names topdown_fields(void)
{
	struct names s = buckets(1);
	static const char *const own[] = { "method", "level", "source", "residual", "raw_sum", "level2", "reasons",
					   "estimate" };

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		add(&s, own[i]);
	return s;
}

static struct names metrics(void)
{
	struct names s = { .from = "ud_metric_name()" };

	for (int m = 0; m < UD_METRIC_COUNT; m++)
		add(&s, ud_metric_name((enum ud_metric)m));
	return s;
}

static struct names factors(void)
{
	struct names s = { .from = "ud_factor_name()" };

	for (int f = 0; f < UD_FACTOR_COUNT; f++)
		add(&s, ud_factor_name((enum ud_factor)f));
	return s;
}

static struct names speedup_bases(void)
{
	struct names s = { .from = "ud_speedup_basis_name()" };

	for (int b = 0; b < UD_SPEEDUP_BASIS_COUNT; b++)
		add(&s, ud_speedup_basis_name((enum ud_speedup_basis)b));
	return s;
}

static struct names work_bases(void)
{
	struct names s = { .from = "ud_work_basis_text()" };

	for (int b = 0; b < UD_WORK_BASIS_COUNT; b++)
		add(&s, ud_work_basis_text((enum ud_work_basis)b));
	return s;
}

static struct names groups(void)
{
	struct names s = { .from = "ud_group_name()" };

	for (int g = 0; g < UD_GROUP_COUNT; g++)
		add(&s, ud_group_name((enum ud_group)g));
	return s;
}

static struct names sig_methods(void)
{
	struct names s = { .from = "ud_sig_method_name()" };

	for (int m = 0; m < UD_SIG_METHOD_COUNT; m++)
		add(&s, ud_sig_method_name((enum ud_sig_method)m));
	return s;
}

static struct names findings(void)
{
	struct names s = { .from = "ud_finding_name()" };

	for (int f = 0; f < UD_FINDING_COUNT; f++)
		add(&s, ud_finding_name((enum ud_finding_id)f));
	return s;
}

static struct names target_kinds(void)
{
	struct names s = { .from = "ud_target_kind_name()" };

	add(&s, ud_target_kind_name(UD_TARGET_COMMAND));
	add(&s, ud_target_kind_name(UD_TARGET_SYSTEM_WIDE));
	add(&s, ud_target_kind_name(UD_TARGET_CPUS));
	add(&s, ud_target_kind_name(UD_TARGET_PID));
	add(&s, ud_target_kind_name(UD_TARGET_TID));
	return s;
}

static struct names lab_names(void)
{
	struct names s = { .from = "ud_lab_name()" };

	for (int l = 0; l < UD_LAB_COUNT; l++)
		add(&s, ud_lab_name((enum ud_lab)l));
	return s;
}

static struct names level2_buckets(void)
{
	return buckets(2);
}

/* What a place in a schema holds: an enum's values, an object's property names, or a required list. */
enum place { ENUM, KEYS, REQUIRED };

static const struct {
	const char *file, *pointer;
	enum place place;
	struct names (*names)(void);
} sets[] = {
	{ "profile.schema.json", "/$defs/counter/properties/status/enum", ENUM, count_statuses },
	{ "teach.schema.json", "/$defs/lab/properties/counters/properties/status/enum", ENUM, count_statuses },
	{ "profile.schema.json", "/$defs/host/properties/pmu/enum", ENUM, pmu_states },
	{ "events.schema.json", "/properties/pmu_here/enum", ENUM, pmu_states },
	{ "profile.schema.json", "/$defs/hotspot/properties/mode/enum", ENUM, modes },
	{ "diff.schema.json", "/$defs/hotspot_move/properties/mode/enum", ENUM, modes },
	{ "diff.schema.json", "/$defs/workload/properties/time_split/properties", KEYS, modes },
	{ "diff.schema.json", "/$defs/workload/properties/time_split/required", REQUIRED, modes },
	{ "profile.schema.json", "/$defs/topdown/properties/method/enum", ENUM, profile_topdown_methods },
	{ "events.schema.json", "/$defs/method/properties/method/enum", ENUM, topdown_methods },
	{ "profile.schema.json", "/$defs/topdown/properties/source/enum", ENUM, topdown_sources },
	{ "profile.schema.json", "/$defs/topdown/properties", KEYS, topdown_fields },
	{ "profile.schema.json", "/$defs/topdown/properties/level2/properties", KEYS, level2_buckets },
	{ "profile.schema.json", "/$defs/derived/properties", KEYS, metrics },
	{ "profile.schema.json", "/$defs/derived/required", REQUIRED, metrics },
	{ "diff.schema.json", "/$defs/metric/enum", ENUM, metrics },
	{ "diff.schema.json", "/$defs/metrics/properties", KEYS, metrics },
	{ "diff.schema.json", "/$defs/metrics/required", REQUIRED, metrics },
	{ "diff.schema.json", "/$defs/factor/enum", ENUM, factors },
	{ "diff.schema.json", "/$defs/factors/properties", KEYS, factors },
	{ "diff.schema.json", "/$defs/factors/required", REQUIRED, factors },
	{ "diff.schema.json", "/$defs/speedup_basis/enum", ENUM, speedup_bases },
	{ "diff.schema.json", "/$defs/work_basis/enum", ENUM, work_bases },
	{ "diff.schema.json", "/$defs/group/enum", ENUM, groups },
	{ "diff.schema.json", "/$defs/workload/properties/significance/properties/method/enum", ENUM, sig_methods },
	{ "diff.schema.json", "/$defs/finding/properties/id/enum", ENUM, findings },
	{ "teach.schema.json", "/$defs/lab/properties/name/enum", ENUM, lab_names },
	{ "profile.schema.json", "/$defs/target/properties/kind/enum", ENUM, target_kinds },
};

static json_t *load_schema(const char *file)
{
	char path[4096];
	json_error_t e;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", UD_SCHEMAS_DIR, file);
	j = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
	ck_assert_msg(j != NULL, "schemas/%s:%d:%d: %s", file, e.line, e.column, e.text);
	return j;
}

/* The value at a JSON pointer ("/$defs/counter/properties"), NULL where there is none. */
static const json_t *at(const json_t *root, const char *pointer)
{
	char buf[512], *save = NULL;
	const json_t *v = root;

	snprintf(buf, sizeof(buf), "%s", pointer);
	for (char *part = strtok_r(buf, "/", &save); part && v; part = strtok_r(NULL, "/", &save))
		v = json_is_array(v) ? json_array_get(v, strtoul(part, NULL, 10)) : json_object_get(v, part);
	return v;
}

static bool has_name(const struct names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

/* The strings of an enum or required array (an enum's null left out), or an object's keys. */
static struct names schema_names(const json_t *v, enum place place)
{
	struct names s = { .from = NULL };
	const json_t *x;
	const char *key;
	size_t i;

	if (place == KEYS) {
		json_object_foreach((json_t *)v, key, x)
			add(&s, key);
		return s;
	}
	json_array_foreach(v, i, x)
		if (json_is_string(x))
			add(&s, json_string_value(x));
	return s;
}

static void check_set(const char *file, const char *pointer, enum place place, struct names c)
{
	json_t *root = load_schema(file);
	const json_t *v = at(root, pointer);
	struct names s;

	ck_assert_msg(v && (place == KEYS ? json_is_object(v) : json_is_array(v)), "schemas/%s #%s: missing", file,
		      pointer);
	s = schema_names(v, place);
	for (size_t i = 0; i < c.n; i++)
		ck_assert_msg(has_name(&s, c.v[i]), "schemas/%s #%s lacks \"%s\", which %s writes: add it%s", file, pointer,
			      c.v[i], c.from, place == KEYS ? " with its description and type" : "");
	for (size_t i = 0; i < s.n; i++)
		ck_assert_msg(has_name(&c, s.v[i]), "schemas/%s #%s has \"%s\", which %s never writes", file, pointer,
			      s.v[i], c.from);
	json_decref(root);
}

START_TEST(test_enums_match_name_tables)
{
	size_t i = (size_t)_i;

	check_set(sets[i].file, sets[i].pointer, sets[i].place, sets[i].names());
}
END_TEST

/* reasons' one pattern names every bucket and the residual, nothing else. */
/*
 * What the profile reader (src/model) takes for each enumerated field: the
 * words its own parse function or table keeps.  Each schema word must be
 * one it takes (else a valid profile fails to load, or loses the field),
 * and each word it takes must be in the schema (else the profile it writes
 * back fails its own schema, as opened_as's "pmu" once did).
 */
static bool is_status(const char *w)
{
	enum ud_count_status v;

	return ud_count_status_parse(w, &v) == 0;
}

static bool is_class(const char *w)
{
	enum ud_counter_class v;

	return ud_counter_class_from_name(w, &v) == 0;
}

static bool is_counting(const char *w)
{
	enum ud_counting v;

	return ud_counting_from_name(w, &v) == 0;
}

static bool is_mode(const char *w)
{
	enum ud_mode v;

	return ud_mode_from_name(w, &v) == 0;
}

static bool in_list(const char *const *list, const char *w)
{
	while (*list && strcmp(*list, w) != 0)
		list++;
	return *list != NULL;
}

static bool is_semantics(const char *w)
{
	return in_list(ud_counter_semantics_words, w);
}

static bool is_opened_as(const char *w)
{
	return in_list(ud_counter_opened_as_words, w);
}

static bool is_rows(const char *w)
{
	enum ud_stat_rows v;

	return ud_stat_rows_parse(w, &v) == 0;
}

static bool is_target_kind(const char *w)
{
	enum ud_target_kind v;

	return ud_target_kind_parse(w, &v) == 0;
}

/* As the reader takes a top-down record's method: "none" is refused there. */
static bool is_profile_method(const char *w)
{
	enum ud_topdown_method v;

	return ud_topdown_method_parse(w, &v) == 0 && v != UD_TD_METHOD_NONE;
}

static bool is_source(const char *w)
{
	enum ud_topdown_source v;

	return ud_topdown_source_parse(w, &v) == 0;
}

static struct names counter_classes(void)
{
	struct names s = { .from = "ud_counter_class_name()" };

	for (int c = 0; c < UD_CLASS_COUNT; c++)
		add(&s, ud_counter_class_name((enum ud_counter_class)c));
	return s;
}

static struct names countings(void)
{
	struct names s = { .from = "ud_counting_name()" };

	for (int c = 0; c < UD_COUNTING_COUNT; c++)
		add(&s, ud_counting_name((enum ud_counting)c));
	return s;
}

static struct names word_list(const char *const *list, const char *from)
{
	struct names s = { .from = from };

	for (; *list; list++)
		add(&s, *list);
	return s;
}

static struct names semantics(void)
{
	return word_list(ud_counter_semantics_words, "ud_counter_semantics_words[]");
}

static struct names opened_as(void)
{
	return word_list(ud_counter_opened_as_words, "ud_counter_opened_as_words[]");
}

static struct names stat_rows(void)
{
	struct names s = { .from = "ud_stat_rows_name()" };

	for (int r = UD_ROWS_WHOLE; r <= UD_ROWS_NODE; r++)
		add(&s, ud_stat_rows_name((enum ud_stat_rows)r));
	return s;
}

static const struct {
	const char *pointer; /* in profile.schema.json */
	struct names (*names)(void);
	bool (*takes)(const char *word);
} readers[] = {
	{ "/$defs/counter/properties/status/enum", count_statuses, is_status },
	{ "/$defs/counter/properties/class/enum", counter_classes, is_class },
	{ "/$defs/counter/properties/mode/enum", countings, is_counting },
	{ "/$defs/counter/properties/semantics/enum", semantics, is_semantics },
	{ "/$defs/counter/properties/opened_as/enum", opened_as, is_opened_as },
	{ "/$defs/hotspot/properties/mode/enum", modes, is_mode },
	{ "/$defs/stat_record/properties/rows/enum", stat_rows, is_rows },
	{ "/$defs/target/properties/kind/enum", target_kinds, is_target_kind },
	{ "/$defs/topdown/properties/method/enum", profile_topdown_methods, is_profile_method },
	{ "/$defs/topdown/properties/source/enum", topdown_sources, is_source },
};

START_TEST(test_reader_words_match_schema)
{
	size_t i = (size_t)_i;
	json_t *root = load_schema("profile.schema.json");
	struct names s, c = readers[i].names();
	const json_t *v = at(root, readers[i].pointer);

	ck_assert_msg(json_is_array(v), "schemas/profile.schema.json #%s: missing", readers[i].pointer);
	s = schema_names(v, ENUM);
	for (size_t k = 0; k < s.n; k++)
		ck_assert_msg(readers[i].takes(s.v[k]), "the profile reader refuses \"%s\", which schemas/profile.schema.json #%s allows",
			      s.v[k], readers[i].pointer);
	for (size_t k = 0; k < c.n; k++)
		ck_assert_msg(readers[i].takes(c.v[k]), "%s names \"%s\", which the profile reader refuses", c.from, c.v[k]);
	json_decref(root);
	check_set("profile.schema.json", readers[i].pointer, ENUM, c);
}
END_TEST

START_TEST(test_topdown_reasons_pattern)
{
	json_t *root = load_schema("profile.schema.json");
	const json_t *pp = at(root, "/$defs/topdown/properties/reasons/patternProperties");
	struct names all = buckets(0);
	char want[1024] = "^(";
	const char *key;
	json_t *v;
	int n = 0;

	for (size_t i = 0; i < all.n; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s|", all.v[i]);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "residual)$");
	json_object_foreach((json_t *)pp, key, v) {
		ck_assert_msg(strcmp(key, want) == 0,
			      "schemas/profile.schema.json #/$defs/topdown/properties/reasons/patternProperties: %s, "
			      "not the buckets of ud_topdown_bucket_name(): %s", key, want);
		n++;
	}
	ck_assert_int_eq(n, 1);
	json_decref(root);
}
END_TEST

/* Each document's "schema" is the writer's constant, in the schema file and in `uarchdiff schema --list`. */
START_TEST(test_document_constants)
{
	static const struct {
		const char *name, *constant;
	} docs[] = {
		{ "profile", UD_PROFILE_SCHEMA },
		{ "diff", UD_DIFF_SCHEMA },
		{ "compare", UD_FLEET_SCHEMA },
		{ "teach", UD_TEACH_SCHEMA },
	};
	struct ud_err err = UD_ERR_INIT;

	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		const struct ud_schema *s = ud_schema_named(docs[i].name, &err);
		json_t *root;

		ck_assert_msg(s != NULL, "%s", err.msg);
		ck_assert_str_eq(s->document, docs[i].constant);
		root = load_schema(s->file);
		ck_assert_msg(json_is_string(at(root, "/properties/schema/const")) &&
				      strcmp(json_string_value(at(root, "/properties/schema/const")), docs[i].constant) == 0,
			      "schemas/%s #/properties/schema/const is not \"%s\"", s->file, docs[i].constant);
		ck_assert_str_eq(json_string_value(at(root, "/title")), docs[i].constant);
		json_decref(root);
	}
}
END_TEST

/* The table of `uarchdiff schema` and the folder agree: every file listed, every listed file there, draft 2020-12. */
START_TEST(test_table_names_every_file)
{
	size_t n, found = 0;
	const struct ud_schema *s = ud_schemas(&n);
	DIR *d = opendir(UD_SCHEMAS_DIR);
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		const char *dot = strstr(e->d_name, ".schema.json");
		bool listed = false;

		if (!dot || dot[12])
			continue;
		for (size_t i = 0; i < n; i++)
			listed = listed || strcmp(s[i].file, e->d_name) == 0;
		ck_assert_msg(listed, "schemas/%s is not in src/base/schemas.c's table: `uarchdiff schema` cannot print it",
			      e->d_name);
		found++;
	}
	closedir(d);
	ck_assert_uint_eq(found, n);
	for (size_t i = 0; i < n; i++) {
		json_t *root = load_schema(s[i].file);
		char name[64];

		snprintf(name, sizeof(name), "%s.schema.json", s[i].name);
		ck_assert_str_eq(s[i].file, name);
		ck_assert_str_eq(json_string_value(at(root, "/$schema")), "https://json-schema.org/draft/2020-12/schema");
		json_decref(root);
	}
}
END_TEST

/*
 * Every earlier form of a /1 profile (tests/data/README.md says which
 * commit wrote each) loads and diffs against a profile of its workloads:
 * within /1 nothing a reader needs may go.
 */
static const struct {
	const char *old, *against;
} forms[] = {
	{ "profiles-v1/import-e5-ad0d0e4.json", "../golden/e6.json" },
	{ "profiles-v1/import-g2-ad0d0e4.json", "../golden/g3.json" },
	{ "profiles-v1/import-g2-f431691.json", "../golden/g3.json" },
	{ "profiles-v1/import-e5-eb04867.json", "../golden/e6.json" },
	{ "profiles-v1/import-e5-2aebbb6.json", "../golden/e6.json" },
	{ "profiles-v1/stat-28d6064.json", "profiles-v1/stat-28d6064.json" },
	{ "profiles-v1/run-e3aba48.json", "profiles-v1/run-bf7ebcd.json" },
	{ "profiles-v1/run-f23f8e4.json", "profiles-v1/run-e3aba48.json" },
	{ "profiles-v1/run-bf7ebcd.json", "profiles-v1/run-f23f8e4.json" },
};

START_TEST(test_every_v1_form_loads_and_diffs)
{
	size_t i = (size_t)_i;
	char a[4096], b[4096];
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *pa, *pb;
	struct ud_diff *d;
	struct ud_diff_input in;
	json_t *doc;

	snprintf(a, sizeof(a), "%s/%s", UD_TEST_DATA, forms[i].old);
	snprintf(b, sizeof(b), "%s/%s", UD_TEST_DATA, forms[i].against);
	pa = ud_profile_load(a, &err);
	ck_assert_msg(pa != NULL, "%s", err.msg);
	pb = ud_profile_load(b, &err);
	ck_assert_msg(pb != NULL, "%s", err.msg);
	ck_assert_uint_gt(pa->nworkloads, 0);
	in = (struct ud_diff_input){ pa, pb, a, b, NULL };
	d = ud_diff_build(&in, &err);
	ck_assert_msg(d != NULL, "%s against %s: %s", forms[i].old, forms[i].against, err.msg);
	ck_assert_uint_gt(d->nworkloads, 0);
	doc = ud_diff_to_json(d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "schema")), UD_DIFF_SCHEMA);
	json_decref(doc);
	ud_diff_free(d);
	ud_profile_free(pb);
	ud_profile_free(pa);
}
END_TEST

static Suite *schemas_suite(void)
{
	Suite *s = suite_create("schemas");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_enums_match_name_tables, 0, (int)(sizeof(sets) / sizeof(sets[0])));
	tcase_add_loop_test(tc, test_reader_words_match_schema, 0, (int)(sizeof(readers) / sizeof(readers[0])));
	tcase_add_test(tc, test_topdown_reasons_pattern);
	tcase_add_test(tc, test_document_constants);
	tcase_add_test(tc, test_table_names_every_file);
	tcase_add_loop_test(tc, test_every_v1_form_loads_and_diffs, 0, (int)(sizeof(forms) / sizeof(forms[0])));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(schemas_suite());
}
