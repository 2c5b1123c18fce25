/*
 * test_ini.c
 *		The INI reader (src/io/common/ini.c) on files written out here the
 *		way AWS's documentation shows its shared credentials and config
 *		files (comments, blanks, CRLF, indented sub-settings), and on the
 *		malformed lines it must refuse with their numbers.
 */
#include "postgres.h"

#include "io/common/ini.h"
#include "lib/stringinfo.h"
#include "unit_test.h"

static bool
parse(const char *text, PqIniFile *f, const char **why, int *line)
{
	size_t		n = strlen(text);

	return pq_ini_parse((const char *) ut_exact_copy(text, n), n, f, why, line);
}

/* The one value of key in section, or NULL (a second one is a failure). */
static const char *
value(const PqIniFile *f, const char *section, const char *key)
{
	const PqIniEntry *again;
	const PqIniEntry *e = pq_ini_lookup(f, section, key, &again);

	return e && again == NULL ? e->value : NULL;
}

static void
test_file(void)
{
	static const char text[] =
	"# a comment\n"
	"; another\n"
	"\n"
	"[default]\r\n"
	"aws_access_key_id=AKIAIOSFODNN7EXAMPLE\r\n"
	"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY  # after a blank\n"
	"  ; an indented comment\n"
	"\t\n"
	"[ profile user1 ]   ; a comment after the name\n"
	"Region\t=\tus-west-2\n"
	"output = json;not a comment\n"
	"empty =\n"
	"s3 =\n"
	"    max_concurrent_requests = 20\n"
	"\tmax_queue_size = 10000\n"
	"after = sub-settings\n"
	"[sso-session my-sso]\n"
	"sso_region = us-east-1\n"
	"[default]\n"
	"extra = again";
	PqIniFile	f;
	const char *why;
	int			line;
	const PqIniEntry *again;
	const PqIniEntry *e;

	CHECK(parse(text, &f, &why, &line));
	CHECK(why == NULL);
	CHECK_EQ_INT(f.nsections, 4);
	CHECK(pq_ini_has_section(&f, "default"));
	CHECK(pq_ini_has_section(&f, "profile user1"));
	CHECK(pq_ini_has_section(&f, "sso-session my-sso"));
	CHECK(!pq_ini_has_section(&f, "user1"));
	CHECK(strcmp(value(&f, "default", "aws_access_key_id"), "AKIAIOSFODNN7EXAMPLE") == 0);
	CHECK(strcmp(value(&f, "default", "aws_secret_access_key"),
				 "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY") == 0);
	/* names without regard to case, as the tools read them */
	CHECK(strcmp(value(&f, "profile user1", "region"), "us-west-2") == 0);
	CHECK(strcmp(value(&f, "profile user1", "REGION"), "us-west-2") == 0);
	/* ";" without a blank before it is part of the value */
	CHECK(strcmp(value(&f, "profile user1", "output"), "json;not a comment") == 0);
	CHECK(strcmp(value(&f, "profile user1", "empty"), "") == 0);
	/* indented lines are sub-settings of the one before, not settings */
	e = pq_ini_lookup(&f, "profile user1", "s3", &again);
	CHECK(e != NULL && e->continued && e->line == 13);
	CHECK(value(&f, "profile user1", "max_concurrent_requests") == NULL);
	e = pq_ini_lookup(&f, "profile user1", "after", &again);
	CHECK(e != NULL && !e->continued && strcmp(e->value, "sub-settings") == 0);
	/* a section given twice holds the settings of both */
	CHECK(strcmp(value(&f, "default", "extra"), "again") == 0);
	CHECK(value(&f, "default", "sso_region") == NULL);
	CHECK(strcmp(value(&f, "sso-session my-sso", "sso_region"), "us-east-1") == 0);
	e = pq_ini_lookup(&f, "default", "aws_access_key_id", &again);
	CHECK(e != NULL && e->line == 5 && again == NULL);
}

static void
test_twice(void)
{
	PqIniFile	f;
	const char *why;
	int			line;
	const PqIniEntry *again;
	const PqIniEntry *e;

	CHECK(parse("[a]\nk = 1\n[b]\nk = 2\n[a]\nK = 3\n", &f, &why, &line));
	e = pq_ini_lookup(&f, "a", "k", &again);
	CHECK(e != NULL && again != NULL);
	CHECK_EQ_INT(e->line, 2);
	CHECK_EQ_INT(again->line, 6);
	e = pq_ini_lookup(&f, "b", "k", &again);
	CHECK(e != NULL && again == NULL && strcmp(e->value, "2") == 0);
}

static void
test_refused(void)
{
	static const struct
	{
		const char *text;
		int			line;
		const char *why;
	}			cases[] = {
		{"[default]\nSECRET\n", 2, "the line is neither a section, a setting nor a comment"},
		{"k = SECRET\n[a]\n", 1, "a setting comes before any section"},
		{"# c\n  k = SECRET\n", 2, "a setting comes before any section"},
		{"[a]\n= SECRET\n", 2, "a setting has no name"},
		{"[a\nk = v\n", 1, "a section's name is not closed with \"]\""},
		{"[a]\n[  ]\n", 2, "a section has no name"},
		{"[a] SECRET\n", 1, "something other than a comment follows a section's name"},
		{"[a]\r\n\r\n[b]x", 3, "something other than a comment follows a section's name"},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
	{
		PqIniFile	f;
		const char *why = NULL;
		int			line = 0;

		if (parse(cases[i].text, &f, &why, &line) || why == NULL ||
			strcmp(why, cases[i].why) != 0 || line != cases[i].line)
		{
			char		m[256];

			snprintf(m, sizeof(m), "case %d: \"%s\" at line %d", i,
					 why ? why : "(none)", line);
			ut_fail(__FILE__, __LINE__, m);
			return;
		}
	}
}

static void
test_bounds(void)
{
	PqIniFile	f;
	const char *why;
	int			line;
	StringInfoData b;
	uint8	   *nul;

	/* a line of exactly PQ_INI_MAX_LINE bytes (and a CR), then one more */
	initStringInfo(&b);
	appendStringInfoString(&b, "[a]\nk=");
	while (b.len < 4 + PQ_INI_MAX_LINE)
		appendStringInfoChar(&b, 'v');
	appendStringInfoString(&b, "\r\n");
	CHECK(parse(b.data, &f, &why, &line));
	CHECK_EQ_INT(strlen(value(&f, "a", "k")), PQ_INI_MAX_LINE - 2);
	b.data[b.len - 2] = 'v';
	b.data[b.len - 1] = 'v';
	CHECK(!parse(b.data, &f, &why, &line));
	CHECK_EQ_INT(line, 2);
	CHECK(strstr(why, "longer than 16384 bytes") != NULL);

	/* a NUL byte anywhere */
	nul = ut_exact_copy("[a]\nk=v\0w\n", 10);
	CHECK(!pq_ini_parse((const char *) nul, 10, &f, &why, &line));
	CHECK(strcmp(why, "the file holds a NUL byte") == 0);

	/* an empty file, and one of comments only */
	CHECK(parse("", &f, &why, &line));
	CHECK_EQ_INT(f.nsections + f.nentries, 0);
	CHECK(parse("#\n;\n\n", &f, &why, &line));
	CHECK_EQ_INT(f.nsections + f.nentries, 0);
}

void
suite_ini(void)
{
	ut_run("ini: comments, blanks, CRLF, sub-settings, repeated sections", test_file);
	ut_run("ini: a setting given twice is found twice", test_twice);
	ut_run("ini: malformed lines refused with their numbers", test_refused);
	ut_run("ini: line length bound, NUL bytes, empty files", test_bounds);
}
