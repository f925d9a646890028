#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "json_schema.h"

/* Keywords whose values are data, not schemas: a "$ref" key in them is no reference. */
static const char *const data_keywords[] = { "const", "enum", "default", "examples" };

/* The schemas folded in so far (borrowed from schemas.h's table), and which is the root. */
struct bundle {
	const struct ud_schema *root;
	const struct ud_schema *folded[16];
	size_t nfolded;
};

static const struct ud_schema *schema_by_file(const char *file, size_t len)
{
	size_t n;
	const struct ud_schema *s = ud_schemas(&n);

	for (size_t i = 0; i < n; i++)
		if (strlen(s[i].file) == len && strncmp(s[i].file, file, len) == 0)
			return &s[i];
	return NULL;
}

/* Adds s to those to fold in, once; -1 when the table is full (more schemas than uarchdiff publishes). */
static int want(struct bundle *b, const struct ud_schema *s)
{
	if (s == b->root)
		return 0;
	for (size_t i = 0; i < b->nfolded; i++)
		if (b->folded[i] == s)
			return 0;
	if (b->nfolded == sizeof(b->folded) / sizeof(b->folded[0]))
		return -1;
	b->folded[b->nfolded++] = s;
	return 0;
}

/*
 * The reference ref, written in the schema owner (NULL: the root), as it
 * reads inside the bundle: "#/$defs/FILE" + the fragment, or the fragment
 * alone for the root's own.  A new string, the caller's to free.
 */
static char *rewrite(struct bundle *b, const struct ud_schema *owner, const char *ref, struct ud_err *err)
{
	const char *hash = strchr(ref, '#'), *frag = hash ? hash + 1 : "";
	size_t flen = hash ? (size_t)(hash - ref) : strlen(ref);
	const struct ud_schema *target = flen ? schema_by_file(ref, flen) : owner;
	char *out;

	if (flen && !target) {
		ud_fail(err, "%s: refers to '%s', which is no schema of uarchdiff's", (owner ? owner : b->root)->file, ref);
		return NULL;
	}
	if (target && want(b, target) != 0) {
		ud_fail(err, "%s: refers to more schemas than uarchdiff publishes", b->root->file);
		return NULL;
	}
	if (!target || target == b->root)
		out = malloc(strlen(frag) + 2);
	else
		out = malloc(strlen(target->file) + strlen(frag) + 10);
	if (!out) {
		ud_fail(err, "out of memory");
		return NULL;
	}
	if (!target || target == b->root)
		sprintf(out, "#%s", frag);
	else
		sprintf(out, "#/$defs/%s%s", target->file, frag);
	return out;
}

static bool is_data_keyword(const char *key)
{
	for (size_t i = 0; i < sizeof(data_keywords) / sizeof(data_keywords[0]); i++)
		if (strcmp(key, data_keywords[i]) == 0)
			return true;
	return false;
}

/* Every "$ref" in j, a part of owner's schema (NULL: the root's), rewritten in place. */
static int walk(struct bundle *b, const struct ud_schema *owner, json_t *j, struct ud_err *err)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (walk(b, owner, v, err) != 0)
				return -1;
		return 0;
	}
	json_object_foreach(j, key, v) {
		if (strcmp(key, "$ref") == 0 && json_is_string(v)) {
			char *ref = rewrite(b, owner, json_string_value(v), err);

			if (!ref || json_string_set(v, ref) != 0) {
				free(ref);
				return ref ? ud_fail(err, "out of memory") : -1;
			}
			free(ref);
		} else if (!is_data_keyword(key) && walk(b, owner, v, err) != 0) {
			return -1;
		}
	}
	return 0;
}

/* New reference: the schema file s, parsed. */
static json_t *load(const struct ud_schema *s, struct ud_err *err)
{
	json_error_t jerr;
	size_t len;
	char *text = ud_schema_read(s, &len, err);
	json_t *j;

	if (!text)
		return NULL;
	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!j || !json_is_object(j)) {
		json_decref(j);
		ud_fail(err, "%s:%d:%d: %s", s->file, jerr.line, jerr.column, j ? "not an object" : jerr.text);
		return NULL;
	}
	return j;
}

/* Each schema wanted, folded under the root's "$defs" (those it refers to wanted in turn). */
static int fold(struct bundle *b, json_t *root, struct ud_err *err)
{
	json_t *defs = json_object_get(root, "$defs");

	if (!defs && (json_object_set_new(root, "$defs", defs = json_object()) != 0 || !defs))
		return ud_fail(err, "out of memory");
	for (size_t i = 0; i < b->nfolded; i++) {
		json_t *j = load(b->folded[i], err);

		if (!j)
			return -1;
		json_object_del(j, "$schema"); /* a resource's root only: this is a part of the bundle now */
		if (walk(b, b->folded[i], j, err) != 0 || json_object_set_new(defs, b->folded[i]->file, j) != 0) {
			json_decref(j);
			return err->msg[0] ? -1 : ud_fail(err, "out of memory");
		}
	}
	return 0;
}

json_t *ud_schema_bundle(const struct ud_schema *s, struct ud_err *err)
{
	struct bundle b = { .root = s };
	json_t *root = load(s, err);

	if (!root)
		return NULL;
	if (walk(&b, NULL, root, err) != 0 || (b.nfolded && fold(&b, root, err) != 0)) {
		json_decref(root);
		return NULL;
	}
	return root;
}
