/*
 * s3_cli.c
 *		Runs S3 requests through src/io/aws/s3_client.c for
 *		test/js/check_s3.mjs (s3rver behind a signature-checking front).
 *
 * Input, one command per line, tab-separated:
 *	set NAME VALUE		endpoint, region, path_style, key_id, secret,
 *						session_token, max_retries, retry_base_ms
 *	head BUCKET KEY
 *	get BUCKET KEY ETAG OFFSET LEN [OFFSET LEN ...]	(ETAG "-": none)
 *	list BUCKET PREFIX [DELIMITER]
 * In values of set, "\\n" stands for a line break.
 * Output: one JSON line per command, or {"error": SQLSTATE, ...}.
 */
#include "postgres.h"

#include <openssl/sha.h>

#include "io/aws/s3_client.h"
#include "unit_test.h"

static void
print_string(const char *s)
{
	putchar('"');
	for (; s && *s; s++)
	{
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char) *s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void
run(PqS3Config *c, char **f, int nf)
{
	if (strcmp(f[0], "head") == 0)
	{
		int64		size;
		char	   *etag;
		bool		found = pq_s3_head(c, f[1], f[2], f[2], &size, &etag);

		printf("{\"found\":%s,\"size\":" INT64_FORMAT ",\"etag\":", found ? "true" : "false",
			   found ? size : -1);
		print_string(found ? etag : "");
		printf("}\n");
	}
	else if (strcmp(f[0], "get") == 0)
	{
		int			n = (nf - 4) / 2;
		int64	   *off = palloc(sizeof(int64) * Max(n, 1));
		int64	   *len = palloc(sizeof(int64) * Max(n, 1));
		uint8	  **bufs = palloc(sizeof(uint8 *) * Max(n, 1));
		int			i;

		for (i = 0; i < n; i++)
		{
			off[i] = atoll(f[4 + 2 * i]);
			len[i] = atoll(f[5 + 2 * i]);
			bufs[i] = palloc(Max(len[i], 1));
		}
		pq_s3_get_ranges(c, f[1], f[2], f[2], strcmp(f[3], "-") ? f[3] : NULL,
						 n, off, len, bufs);
		printf("{\"sha256\":[");
		for (i = 0; i < n; i++)
		{
			uint8		md[SHA256_DIGEST_LENGTH];
			int			k;

			SHA256(bufs[i], len[i], md);
			printf("%s\"", i ? "," : "");
			for (k = 0; k < SHA256_DIGEST_LENGTH; k++)
				printf("%02x", md[k]);
			printf("\"");
		}
		printf("]}\n");
	}
	else if (strcmp(f[0], "list") == 0)
	{
		PqS3Listing l;
		int			i;

		pq_s3_list(c, f[1], f[2], nf > 3 ? f[3] : NULL, f[1], &l);
		printf("{\"requests\":%d,\"objects\":[", l.requests);
		for (i = 0; i < l.nobjects; i++)
		{
			printf("%s[", i ? "," : "");
			print_string(l.objects[i].key);
			printf("," INT64_FORMAT ",", l.objects[i].size);
			print_string(l.objects[i].etag);
			printf("]");
		}
		printf("],\"prefixes\":[");
		for (i = 0; i < l.nprefixes; i++)
		{
			printf("%s", i ? "," : "");
			print_string(l.prefixes[i]);
		}
		printf("]}\n");
	}
}

int
main(void)
{
	static char line[1 << 16];
	PqS3Config	c;

	memset(&c, 0, sizeof(c));
	pq_http_config_defaults(&c.http);
	c.path_style = true;
	while (fgets(line, sizeof(line), stdin))
	{
		char	   *f[64];
		char	   *p = line;
		int			nf = 0;

		line[strcspn(line, "\n")] = '\0';
		while (nf < 64 && p)
		{
			f[nf++] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (strcmp(f[0], "set") == 0 && nf == 3)
		{
			char	   *v = pstrdup(f[2]);
			char	   *nl;

			while ((nl = strstr(v, "\\n")) != NULL)
			{
				*nl = '\n';
				memmove(nl + 1, nl + 2, strlen(nl + 2) + 1);
			}

			if (strcmp(f[1], "endpoint") == 0)
				c.endpoint = v;
			else if (strcmp(f[1], "region") == 0)
				c.region = v;
			else if (strcmp(f[1], "path_style") == 0)
				c.path_style = atoi(v) != 0;
			else if (strcmp(f[1], "key_id") == 0)
				c.key_id = v[0] ? v : NULL;
			else if (strcmp(f[1], "secret") == 0)
				c.secret = v;
			else if (strcmp(f[1], "session_token") == 0)
				c.session_token = v[0] ? v : NULL;
			else if (strcmp(f[1], "max_retries") == 0)
				c.http.max_retries = atoi(v);
			else if (strcmp(f[1], "retry_base_ms") == 0)
				c.http.retry_base_ms = atoi(v);
			continue;
		}
		PG_TRY();
		{
			run(&c, f, nf);
		}
		PG_CATCH();
		{
			char		state[6];
			int			code = shim_last_sqlstate;
			int			i;

			for (i = 0; i < 5; i++)
			{
				state[i] = PGUNSIXBIT(code);
				code >>= 6;
			}
			state[5] = '\0';
			printf("{\"error\":\"%s\",\"message\":", state);
			print_string(shim_last_message);
			printf("}\n");
		}
		PG_END_TRY();
		fflush(stdout);
	}
	return 0;
}
