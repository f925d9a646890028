/*
 * json_emit.h - a JSON document written as a stream of calls, into text or
 * into a jansson tree: a module that writes a document writes it once, and
 * the caller picks where it goes.  A multi-megabyte diff goes straight to
 * its file (building the tree, dumping it and freeing it cost three times
 * the writing); a report view reads the same document as a tree.
 *
 * Text is what jansson's JSON_INDENT(2) prints (two spaces per level, ": "
 * after keys, "{}" and "[]" when empty, UTF-8 unescaped), keys in call
 * order, reals as ud_json_format_double() writes them, a newline at the
 * end, through a 64 KB buffer; except that DEL, C1 controls and the
 * bidirectional and line-separator controls (text.h's ud_visible() rule)
 * are written as \uXXXX escapes, so that a document shown on a terminal
 * cannot drive it or reorder its text (the strings read back the same).
 *
 * Every call takes key: the member's name inside an object, NULL inside an
 * array and for the document itself.  After a failure (out of memory, the
 * stream refused a write, a call out of place) later calls do nothing and
 * ud_jw_finish() reports it; every call takes the NULL a constructor
 * returns when out of memory, and ud_jw_finish() then returns -1.  Strings
 * must be UTF-8, as jansson requires.
 */
#ifndef UD_JSON_EMIT_H
#define UD_JSON_EMIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct ud_jw;

/* A writer of text to f (not closed by the writer), or NULL when out of memory.  ud_jw_finish() frees it. */
struct ud_jw *ud_jw_text(FILE *f);
/* A writer of a tree, handed over by ud_jw_finish(), or NULL when out of memory.  ud_jw_finish() frees it. */
struct ud_jw *ud_jw_tree(void);

void ud_jw_object(struct ud_jw *w, const char *key);
void ud_jw_array(struct ud_jw *w, const char *key);
/* Closes the innermost object or array. */
void ud_jw_end(struct ud_jw *w);

void ud_jw_string(struct ud_jw *w, const char *key, const char *s); /* NULL s writes null */
void ud_jw_real(struct ud_jw *w, const char *key, double v);        /* NaN or an infinity writes null */
void ud_jw_integer(struct ud_jw *w, const char *key, json_int_t v);
/* A measured value: integral ones (counts, nanoseconds) as integers, so that they read back exactly, others as reals. */
void ud_jw_number(struct ud_jw *w, const char *key, double v);
void ud_jw_bool(struct ud_jw *w, const char *key, bool v);
void ud_jw_null(struct ud_jw *w, const char *key);
/* v as it is (a tree writer takes a new reference); NULL writes null. */
void ud_jw_value(struct ud_jw *w, const char *key, const json_t *v);

/*
 * Ends the document and frees w.  0, or -1 when anything failed or an
 * object or array was left open.  A tree writer stores its new reference
 * in *tree (NULL on failure); a text writer ignores tree and has written
 * and flushed its newline.
 */
int ud_jw_finish(struct ud_jw *w, json_t **tree);

#endif
