/*
 * creds_cli.c
 *		Runs the AWS credential chain (src/io/aws/credentials.c) with the
 *		process's environment, for test/js/check_credentials.mjs, which
 *		sets that environment, the files and fake services, and knows what
 *		each case must give.
 *
 *	creds_cli [--profile NAME] [--repeat N]
 *
 * Output: one JSON line per run of the chain (N runs, default 1, in one
 * process: the later ones may come from the per-backend cache):
 * {"source", "key_id", "secret", "session_token", "expires_at", "region",
 * "ms"} (source null when no source has credentials), or {"sqlstate",
 * "message"} on an ERROR (message: errmsg|errdetail|errhint).
 */
#include "postgres.h"

#include <sys/time.h>

#include "io/aws/credentials.h"
#include "unit_test.h"

static void
print_string(const char *s)
{
	if (s == NULL)
	{
		printf("null");
		return;
	}
	putchar('"');
	for (; *s; s++)
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

static int64
now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64) tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void
run(const char *profile)
{
	PqHttpConfig http;
	PqAwsCredentials c;
	int64		start = now_ms();
	bool		found;
	char	   *region;

	pq_http_config_defaults(&http);
	found = pq_aws_credential_chain(&http, profile, &c);
	region = pq_aws_profile_region(profile);
	printf("{\"source\":");
	print_string(found ? c.source : NULL);
	printf(",\"key_id\":");
	print_string(found ? c.key_id : NULL);
	printf(",\"secret\":");
	print_string(found ? c.secret : NULL);
	printf(",\"session_token\":");
	print_string(found ? c.session_token : NULL);
	printf(",\"expires_at\":" INT64_FORMAT ",\"region\":",
		   found ? c.expires_at : 0);
	print_string(region);
	printf(",\"ms\":" INT64_FORMAT "}\n", now_ms() - start);
}

int
main(int argc, char **argv)
{
	const char *profile = NULL;
	int			repeat = 1;
	int			i;

	for (i = 1; i + 1 < argc; i += 2)
	{
		if (strcmp(argv[i], "--profile") == 0)
			profile = argv[i + 1];
		else if (strcmp(argv[i], "--repeat") == 0)
			repeat = atoi(argv[i + 1]);
	}
	for (i = 0; i < repeat; i++)
	{
		PG_TRY();
		{
			run(profile);
		}
		PG_CATCH();
		{
			char		state[6];
			int			code = shim_last_sqlstate;
			int			k;

			for (k = 0; k < 5; k++)
			{
				state[k] = PGUNSIXBIT(code);
				code >>= 6;
			}
			state[5] = '\0';
			printf("{\"sqlstate\":\"%s\",\"message\":", state);
			print_string(shim_last_message);
			printf("}\n");
		}
		PG_END_TRY();
		fflush(stdout);
	}
	return 0;
}
