/*
 * json_doc.h - a JSON text read once into a flat, read-only array of
 * values, for documents too large for a tree of allocations.
 *
 * jansson builds a value per allocation and a hash table per object, and
 * has no streaming reader: a profile of 1,000 workloads (850 KB) costs it
 * about 23 ms to parse and 10 ms to free, which alone spent a third of
 * issue 9's 100 ms for a whole diff.  Here the text is copied once, strings
 * are decoded in place in that copy, and every value is one 24-byte entry.
 *
 * It accepts exactly the texts json_loadb() accepts with
 * JSON_REJECT_DUPLICATES | JSON_DECODE_ANY (RFC 8259, UTF-8, no "\u0000",
 * integers that fit a long long, reals that do not overflow, nesting to
 * 2048 values deep, a scalar counting as one), and reads the same values,
 * integers apart from reals as jansson keeps them: tests/test_json_doc.c
 * and fuzz/fuzz_json.c hold the two to that on generated and mutated texts.
 * The one difference: a NUL byte right after a number or after true, false
 * or null, which jansson's lexer skips (it takes {"a":2\0} and [true\0])
 * and this reader refuses.  jansson stays the writer, and the tree for the
 * values a caller keeps (ud_jv_to_json).
 *
 * Ownership: ud_jdoc_parse() copies the text; the document owns every
 * value and string it hands out, which live until ud_jdoc_free().
 */
#ifndef UD_JSON_DOC_H
#define UD_JSON_DOC_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct ud_jdoc;

/* A value of a document, passed by value; doc NULL: no value (an absent key, a member past the last). */
struct ud_jv {
	const struct ud_jdoc *doc;
	uint32_t i;
};

enum ud_jtype {
	UD_JABSENT,
	UD_JNULL,
	UD_JTRUE,
	UD_JFALSE,
	UD_JINTEGER,
	UD_JREAL,
	UD_JSTRING,
	UD_JARRAY,
	UD_JOBJECT,
};

/*
 * The document in text[0..len), or NULL with err "LINE:COLUMN: reason" (the
 * column in bytes from 1).  Caller frees (ud_jdoc_free()); text may go
 * after.
 */
struct ud_jdoc *ud_jdoc_parse(const char *text, size_t len, struct ud_err *err);
void ud_jdoc_free(struct ud_jdoc *doc);
struct ud_jv ud_jdoc_root(const struct ud_jdoc *doc);

enum ud_jtype ud_jv_type(struct ud_jv v);

/* obj's member named key; absent if obj is not an object or has none. */
struct ud_jv ud_jv_get(struct ud_jv obj, const char *key);

/*
 * out[i] = ud_jv_get(obj, keys[i]) for each of the n keys, in one walk of
 * obj's members: a reader that asks an object for a dozen keys, most of
 * them absent (a profile's counter), walked the members once a key.
 * Members under other keys are passed over; keys are distinct.  Fastest
 * with keys in the order the document's writer wrote them.
 */
void ud_jv_pick(struct ud_jv obj, const char *const *keys, size_t n, struct ud_jv *out);

/* The string (NUL-terminated, valid UTF-8), or NULL if v is not one.  Borrowed from the document. */
const char *ud_jv_string(struct ud_jv v);

/* An integer's or real's value; NAN for anything else. */
double ud_jv_number(struct ud_jv v);

/* An integer's value; 0 for anything else. */
long long ud_jv_integer(struct ud_jv v);

/* The members of an array or object; 0 for anything else. */
size_t ud_jv_size(struct ud_jv v);

/* The first member of an array or object, then the one after a member: absent past the last. */
struct ud_jv ud_jv_first(struct ud_jv container);
struct ud_jv ud_jv_next(struct ud_jv member);

/* An object member's key; NULL for an array's member or the root.  Borrowed from the document. */
const char *ud_jv_key(struct ud_jv member);

/* v as a new jansson tree (the caller owns the reference); NULL if v is absent or out of memory. */
json_t *ud_jv_to_json(struct ud_jv v);

static inline int ud_jv_absent(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JABSENT;
}

static inline int ud_jv_is_null(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JNULL;
}

/* Absent or null: the profile's "not known" for an optional field. */
static inline int ud_jv_is_missing(struct ud_jv v)
{
	return ud_jv_absent(v) || ud_jv_is_null(v);
}

static inline int ud_jv_is_boolean(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JTRUE || ud_jv_type(v) == UD_JFALSE;
}

static inline int ud_jv_is_true(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JTRUE;
}

static inline int ud_jv_is_integer(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JINTEGER;
}

static inline int ud_jv_is_number(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JINTEGER || ud_jv_type(v) == UD_JREAL;
}

static inline int ud_jv_is_string(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JSTRING;
}

static inline int ud_jv_is_array(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JARRAY;
}

static inline int ud_jv_is_object(struct ud_jv v)
{
	return ud_jv_type(v) == UD_JOBJECT;
}

/* Each member m of an array or object c, in order. */
#define ud_jv_foreach(c, m) for ((m) = ud_jv_first(c); !ud_jv_absent(m); (m) = ud_jv_next(m))

#endif
