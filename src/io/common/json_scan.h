/*-------------------------------------------------------------------------
 *
 * json_scan.h
 *		A reader for the small JSON objects credential services answer
 *		with (ECS/EKS container credentials, EC2 instance metadata): one
 *		object whose members are taken by name, everything bounded.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_JSON_SCAN_H
#define PQ_IO_JSON_SCAN_H

/* The most members an object may have, and the deepest nesting skipped. */
#define PQ_JSON_MAX_MEMBERS 64
#define PQ_JSON_MAX_DEPTH 16

typedef enum PqJsonKind
{
	PQ_JSON_STRING,				/* value: decoded (UTF-8, no NUL) */
	PQ_JSON_NUMBER,				/* value: the number as written */
	PQ_JSON_TRUE,
	PQ_JSON_FALSE,
	PQ_JSON_NULL,
	PQ_JSON_NESTED				/* an object or array: checked, not kept */
} PqJsonKind;

typedef struct PqJsonMember
{
	char	   *name;
	PqJsonKind	kind;
	char	   *value;			/* strings and numbers; else NULL */
} PqJsonMember;

typedef struct PqJsonObject
{
	PqJsonMember *members;
	int			nmembers;
} PqJsonObject;

/*
 * Read text (len bytes, RFC 8259) as one object.  Names and string values
 * longer than max_string bytes, more than PQ_JSON_MAX_MEMBERS members, a
 * name given twice, invalid UTF-8, "\u0000" and anything after the object
 * but blanks make it malformed: false, with why set to a sentence part
 * that holds none of the text (it may be a secret).
 */
extern bool pq_json_parse_object(const char *text, size_t len,
								 size_t max_string, PqJsonObject *out,
								 const char **why);

/* The member called name, or NULL. */
extern const PqJsonMember *pq_json_member(const PqJsonObject *o,
										  const char *name);

#endif							/* PQ_IO_JSON_SCAN_H */
