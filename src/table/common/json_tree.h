/*-------------------------------------------------------------------------
 *
 * json_tree.h
 *		JSON text (RFC 8259) parsed into a tree, for table-format metadata:
 *		Delta Lake's log lines, their schemaString and stats, Iceberg's
 *		metadata files.  Numbers keep their text, so that a decimal or a
 *		64-bit bound in a file's statistics is read exactly.
 *
 * Everything is bounded: nesting depth, and the tree is allocated in the
 * current memory context (palloc), never more than a small multiple of the
 * text's length.  Malformed text is refused with a reason that quotes none
 * of it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_JSON_TREE_H
#define PQ_JSON_TREE_H

/* Deeper nesting is refused rather than risking the C stack. */
#define PQ_JV_MAX_DEPTH 256

typedef enum PqJvType
{
	PQ_JV_NULL,
	PQ_JV_FALSE,
	PQ_JV_TRUE,
	PQ_JV_NUMBER,				/* str: the number's text as written */
	PQ_JV_STRING,				/* str: decoded UTF-8, NUL-terminated */
	PQ_JV_ARRAY,				/* items[len] */
	PQ_JV_OBJECT				/* members[len], in the text's order */
} PqJvType;

typedef struct PqJvMember PqJvMember;

typedef struct PqJv
{
	PqJvType	type;
	uint32		len;			/* bytes of str; items; members */
	union
	{
		const char *str;
		struct PqJv *items;
		PqJvMember *members;
	}			u;
} PqJv;

struct PqJvMember
{
	const char *name;			/* decoded, NUL-terminated */
	PqJv		value;
};

/*
 * Parse exactly one JSON value (blanks around it allowed) of len bytes.
 * NULL when malformed: invalid UTF-8, "\u0000" in a string or a name, a
 * name given twice in one object, nesting deeper than PQ_JV_MAX_DEPTH,
 * anything but blanks after the value; *why then says what, as a sentence
 * part without the text ("an unterminated string at byte 17", bytes counted
 * from 0), and nothing else of the parse stays allocated.  On success *why
 * is NULL.  why may be NULL.
 */
extern PqJv *pq_jv_parse(const char *text, size_t len, const char **why);

/* The member of object o called name; NULL when o is not an object or has none. */
extern const PqJv *pq_jv_get(const PqJv *o, const char *name);

/* v's string, or NULL when v is NULL or not a string. */
extern const char *pq_jv_str(const PqJv *v);

/*
 * v as a whole number in int64: a JSON number without fraction or exponent
 * (or one whose exponent makes it whole, as 1e3), in range.  False when v
 * is NULL, not a number, or not such a number.
 */
extern bool pq_jv_int64(const PqJv *v, int64 *out);

/* v is true or false: *out is set; false when v is neither. */
extern bool pq_jv_bool(const PqJv *v, bool *out);

#endif							/* PQ_JSON_TREE_H */
