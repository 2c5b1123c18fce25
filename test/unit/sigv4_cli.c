/*
 * sigv4_cli.c
 *		Signs the requests described on stdin with src/io/aws/sigv4.c and
 *		prints, per request, one JSON line with the query sent, canonical
 *		request, string to sign and Authorization header, for
 *		test/js/check_sigv4.mjs to compare with AWS's published SigV4 test
 *		suite.
 *
 * Input, one field per line, tab-separated, a request ending with "end":
 *	method M | path P | param NAME VALUE | header NAME VALUE | payload HEX |
 *	date YYYYMMDDTHHMMSSZ | region R | service S | key_id K | secret S
 * Names and values are written with \t, \n and \\ escaped.
 */
#include "postgres.h"

#include "io/aws/sigv4.h"
#include "unit_test.h"

#define MAX_FIELDS 64

/* Undo the \t, \n and \\ escapes in place. */
static char *
unescape(char *s)
{
	char	   *r = s;
	char	   *w = s;

	for (; *r; r++)
	{
		if (*r == '\\' && r[1])
		{
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
		}
		else
			*w++ = *r;
	}
	*w = '\0';
	return s;
}

static void
print_json(const char *key, const char *v, bool last)
{
	printf("\"%s\":\"", key);
	for (; *v; v++)
	{
		if (*v == '"' || *v == '\\')
			printf("\\%c", *v);
		else if (*v == '\n')
			printf("\\n");
		else if ((unsigned char) *v < 0x20)
			printf("\\u%04x", *v);
		else
			putchar(*v);
	}
	printf("\"%s", last ? "}\n" : ",");
}

int
main(void)
{
	char		line[65536];
	PqSigV4Request r;
	PqHttpHeader headers[MAX_FIELDS];
	PqQueryParam params[MAX_FIELDS];
	const char *date = NULL;
	const char *region = NULL;
	const char *service = NULL;
	const char *key_id = NULL;
	const char *secret = NULL;

	memset(&r, 0, sizeof(r));
	r.headers = headers;
	r.params = params;
	while (fgets(line, sizeof(line), stdin))
	{
		char	   *f[3] = {NULL, NULL, NULL};
		char	   *p = line;
		int			n = 0;

		line[strcspn(line, "\n")] = '\0';
		while (n < 3)
		{
			f[n++] = p;
			p = strchr(p, '\t');
			if (p == NULL)
				break;
			*p++ = '\0';
		}
		for (int i = 0; i < n; i++)
			unescape(f[i]);
		if (strcmp(f[0], "end") == 0)
		{
			PqSigV4Signed s;

			pq_sigv4_sign(&r, region, service, date, key_id, secret, &s);
			printf("{");
			print_json("query", s.query, false);
			print_json("creq", s.canonical_request, false);
			print_json("sts", s.string_to_sign, false);
			print_json("authz", s.authorization, true);
			fflush(stdout);
			memset(&r, 0, sizeof(r));
			r.headers = headers;
			r.params = params;
			continue;
		}
		if (n < 2)
		{
			fprintf(stderr, "sigv4_cli: bad line \"%s\"\n", f[0]);
			return 2;
		}
		f[1] = pstrdup(f[1]);
		f[2] = f[2] ? pstrdup(f[2]) : NULL;
		if (strcmp(f[0], "method") == 0)
			r.method = f[1];
		else if (strcmp(f[0], "path") == 0)
			r.path = f[1];
		else if (strcmp(f[0], "payload") == 0)
			r.payload_hash = f[1];
		else if (strcmp(f[0], "date") == 0)
			date = f[1];
		else if (strcmp(f[0], "region") == 0)
			region = f[1];
		else if (strcmp(f[0], "service") == 0)
			service = f[1];
		else if (strcmp(f[0], "key_id") == 0)
			key_id = f[1];
		else if (strcmp(f[0], "secret") == 0)
			secret = f[1];
		else if (strcmp(f[0], "param") == 0 && r.nparams < MAX_FIELDS)
		{
			params[r.nparams].name = f[1];
			params[r.nparams++].value = f[2] ? f[2] : "";
		}
		else if (strcmp(f[0], "header") == 0 && r.nheaders < MAX_FIELDS)
		{
			headers[r.nheaders].name = f[1];
			headers[r.nheaders++].value = f[2] ? f[2] : "";
		}
		else
		{
			fprintf(stderr, "sigv4_cli: unknown field \"%s\"\n", f[0]);
			return 2;
		}
	}
	return 0;
}
