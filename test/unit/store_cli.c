/*
 * store_cli.c
 *		Runs object-store requests through src/io/store/store.c for
 *		test/js/check_s3.mjs (s3rver behind a signature-checking front) and
 *		test/js/check_azure.mjs (azurite).
 *
 * Input, one command per line, tab-separated:
 *	set NAME VALUE		endpoint, region, path_style, key_id, secret,
 *						session_token (S3); az_endpoint, account,
 *						account_key, sas_token, list_page_size (Azure);
 *						max_retries,
 *						retry_base_ms
 *	head URL
 *	get URL ETAG OFFSET LEN [OFFSET LEN ...]	(ETAG "-": none)
 *	list URL [DELIMITER]	(the URL's key is the prefix)
 * In values of set, "\\n" stands for a line break.
 * Output: one JSON line per command, or {"error": SQLSTATE, ...}.
 */
#include "postgres.h"

#include <openssl/sha.h>

#include "io/store/store.h"
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
run(PqStoreConfig *c, char **f, int nf)
{
	PqUrl	   *u = pq_url_parse(f[1]);

	if (strcmp(f[0], "head") == 0)
	{
		int64		size;
		char	   *etag;
		bool		found = pq_store_head(c, u, &size, &etag);

		printf("{\"found\":%s,\"size\":" INT64_FORMAT ",\"etag\":", found ? "true" : "false",
			   found ? size : -1);
		print_string(found && etag ? etag : "");
		printf("}\n");
	}
	else if (strcmp(f[0], "get") == 0)
	{
		int			n = (nf - 3) / 2;
		int64	   *off = palloc(sizeof(int64) * Max(n, 1));
		int64	   *len = palloc(sizeof(int64) * Max(n, 1));
		uint8	  **bufs = palloc(sizeof(uint8 *) * Max(n, 1));
		int			i;

		for (i = 0; i < n; i++)
		{
			off[i] = atoll(f[3 + 2 * i]);
			len[i] = atoll(f[4 + 2 * i]);
			bufs[i] = palloc(Max(len[i], 1));
		}
		pq_store_get_ranges(c, u, strcmp(f[2], "-") ? f[2] : NULL, n, off, len,
							bufs, NULL);
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
		PqListing	l;
		int			i;

		pq_store_list(c, u, nf > 2 ? f[2] : NULL, &l);
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
	PqStoreConfig c;

	pq_store_config_init(&c);
	c.s3.path_style = true;
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
				c.s3.endpoint = v;
			else if (strcmp(f[1], "region") == 0)
				c.s3.region = v;
			else if (strcmp(f[1], "path_style") == 0)
				c.s3.path_style = atoi(v) != 0;
			else if (strcmp(f[1], "key_id") == 0)
				c.s3.key_id = v[0] ? v : NULL;
			else if (strcmp(f[1], "secret") == 0)
				c.s3.secret = v;
			else if (strcmp(f[1], "session_token") == 0)
				c.s3.session_token = v[0] ? v : NULL;
			else if (strcmp(f[1], "az_endpoint") == 0)
				c.azure.endpoint = v[0] ? v : NULL;
			else if (strcmp(f[1], "account") == 0)
				c.azure.account = v[0] ? v : NULL;
			else if (strcmp(f[1], "list_page_size") == 0)
				c.azure.list_page_size = atoi(v);
			else if (strcmp(f[1], "account_key") == 0)
				c.azure.account_key = v[0] ? v : NULL;
			else if (strcmp(f[1], "sas_token") == 0)
				c.azure.sas_token = v[0] ? v : NULL;
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
