/*
 * http_cli.c
 *		Runs requests through src/io/http/transfer.c for
 *		test/js/check_http.mjs, which serves them from a fault-injecting
 *		server on loopback and knows what each must give.
 *
 * Input, one command per line, tab-separated:
 *	set NAME VALUE	a PqHttpConfig field (connect_timeout_ms,
 *					idle_timeout_ms, max_retries, max_in_flight,
 *					retry_base_ms, retry_max_ms, ca_file, allow_link_local),
 *					or cancel_after_ms (an interrupt check that raises
 *					57014 once that long has passed in a run), or ok_404
 *	get URL [FIRST LEN [ETAG]]	queue a GET (of a range)
 *	head URL		queue a HEAD
 *	run				perform the queue; one JSON line per request, or one
 *					{"error": ...} line for the run
 */
#include "postgres.h"

#include <openssl/sha.h>
#include <sys/time.h>

#include "io/common/io_common.h"
#include "io/http/http.h"
#include "unit_test.h"

#define MAX_QUEUE 256

static int64 cancel_at = 0;

static int64
now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64) tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void
cancel_check(void)
{
	if (cancel_at > 0 && now_ms() >= cancel_at)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("canceling statement due to user request")));
}

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
print_result(const PqHttpRequest *r)
{
	uint8		md[SHA256_DIGEST_LENGTH];
	const uint8 *data = r->dest ? r->dest : (const uint8 *) r->body.data;
	size_t		len = r->dest ? (size_t) r->range_len : (size_t) r->body.len;
	int			i;

	SHA256(data, len, md);
	printf("{\"status\":%ld,\"attempts\":%d,\"len\":%zu,\"sha256\":\"",
		   r->status, r->attempts, len);
	for (i = 0; i < SHA256_DIGEST_LENGTH; i++)
		printf("%02x", md[i]);
	printf("\",\"etag\":");
	print_string(r->etag ? r->etag : "");
	printf(",\"content_length\":" INT64_FORMAT ",\"object_size\":" INT64_FORMAT "}\n",
		   r->content_length, r->object_size);
}

int
main(void)
{
	char		line[8192];
	PqHttpConfig cfg;
	PqHttpRequest *queue[MAX_QUEUE];
	int			n = 0;
	int			cancel_after = 0;
	bool		ok_404 = false;

	pq_http_config_defaults(&cfg);
	pq_io_check_interrupts = cancel_check;
	while (fgets(line, sizeof(line), stdin))
	{
		char	   *f[5] = {NULL};
		char	   *p = line;
		int			nf = 0;

		line[strcspn(line, "\n")] = '\0';
		while (nf < 5 && p)
		{
			f[nf++] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (strcmp(f[0], "set") == 0 && nf == 3)
		{
			int			v = atoi(f[2]);

			if (strcmp(f[1], "connect_timeout_ms") == 0)
				cfg.connect_timeout_ms = v;
			else if (strcmp(f[1], "idle_timeout_ms") == 0)
				cfg.idle_timeout_ms = v;
			else if (strcmp(f[1], "max_retries") == 0)
				cfg.max_retries = v;
			else if (strcmp(f[1], "max_in_flight") == 0)
				cfg.max_in_flight = v;
			else if (strcmp(f[1], "retry_base_ms") == 0)
				cfg.retry_base_ms = v;
			else if (strcmp(f[1], "retry_max_ms") == 0)
				cfg.retry_max_ms = v;
			else if (strcmp(f[1], "ca_file") == 0)
				cfg.ca_file = pstrdup(f[2]);
			else if (strcmp(f[1], "allow_link_local") == 0)
				cfg.allow_link_local = v != 0;
			else if (strcmp(f[1], "cancel_after_ms") == 0)
				cancel_after = v;
			else if (strcmp(f[1], "ok_404") == 0)
				ok_404 = v != 0;
			else
			{
				fprintf(stderr, "http_cli: unknown setting %s\n", f[1]);
				return 2;
			}
		}
		else if ((strcmp(f[0], "get") == 0 || strcmp(f[0], "head") == 0) &&
				 nf >= 2 && n < MAX_QUEUE)
		{
			PqHttpRequest *r = palloc(sizeof(PqHttpRequest));

			pq_http_request_init(r, f[0][0] == 'g' ? "GET" : "HEAD",
								 pstrdup(f[1]), pstrdup(f[1]), 1024 * 1024);
			if (nf >= 4)
			{
				r->range_start = atoll(f[2]);
				r->range_len = atoll(f[3]);
				r->dest = palloc(Max(r->range_len, 1));
			}
			if (nf >= 5)
				r->if_match = pstrdup(f[4]);
			queue[n++] = r;
		}
		else if (strcmp(f[0], "run") == 0)
		{
			static const long not_found[] = {404, 0};
			volatile bool failed = false;
			int			i;

			cancel_at = cancel_after > 0 ? now_ms() + cancel_after : 0;
			shim_last_message[0] = '\0';
			PG_TRY();
			{
				pq_http_run(queue, n, &cfg, ok_404 ? not_found : NULL);
			}
			PG_CATCH();
			{
				failed = true;
			}
			PG_END_TRY();
			if (failed)
			{
				char		state[6];
				int			code = shim_last_sqlstate;

				for (i = 0; i < 5; i++)
				{
					state[i] = PGUNSIXBIT(code);
					code >>= 6;
				}
				state[5] = '\0';
				printf("{\"error\":\"%s\",\"message\":", state);
				print_string(shim_last_message);
				printf(",\"attempts\":[");
				for (i = 0; i < n; i++)
					printf("%s%d", i ? "," : "", queue[i]->attempts);
				printf("]}\n");
			}
			else
				for (i = 0; i < n; i++)
					print_result(queue[i]);
			fflush(stdout);
			n = 0;
		}
		else
		{
			fprintf(stderr, "http_cli: bad command %s\n", f[0]);
			return 2;
		}
	}
	return 0;
}
