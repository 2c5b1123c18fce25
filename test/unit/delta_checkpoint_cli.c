/*
 * delta_checkpoint_cli.c
 *		The JSON action lines of a Delta checkpoint (src/table/delta/
 *		checkpoint.c) for test/js/check_delta_checkpoints.mjs.  Built with
 *		the unit-test shim (ASan + UBSan): `make delta_checkpoint_cli`.
 *
 *		delta_checkpoint_cli FILE
 *			the lines pq_delta_checkpoint_json() writes, as written
 *		delta_checkpoint_cli --replay FILE
 *			the same lines fed to the log replay (pq_delta_replay_add):
 *			"replay ok <lines> lines", or "replay refused line <n>: <why>"
 *
 *		A file refused as no checkpoint prints "REFUSED <why>", an ERROR
 *		"ERROR <SQLSTATE> <message>"; both exit with status 1.
 */
#include "postgres.h"

#include "unit_test.h"
#include "table/delta/checkpoint.h"
#include "table/delta/delta_log.h"

static uint8 *
read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	uint8	   *data;
	long		size;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
		fseek(f, 0, SEEK_SET) != 0)
	{
		fprintf(stderr, "delta_checkpoint_cli: cannot read %s\n", path);
		exit(2);
	}
	/* exact size, so that ASan catches any read past the end */
	data = malloc(size > 0 ? size : 1);
	if (data == NULL || fread(data, 1, size, f) != (size_t) size)
	{
		fprintf(stderr, "delta_checkpoint_cli: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	*len = size;
	return data;
}

static void
print_error(void)
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
	printf("ERROR %s %s\n", state, shim_last_message);
}

static int
run(const uint8 *data, size_t len, bool replay)
{
	volatile int status = 0;

	PG_TRY();
	{
		PqBuffer	out;
		const char *why = NULL;

		pq_buffer_init(&out, 1024);
		if (!pq_delta_checkpoint_json(data, len, &out, &why))
		{
			printf("REFUSED %s\n", why);
			status = 1;
		}
		else if (!replay)
			fwrite(out.data, 1, out.len, stdout);
		else
		{
			PqDeltaReplay *r = pq_delta_replay_create();
			int64		line;

			if (pq_delta_replay_add(r, 0, (const char *) out.data, out.len,
									&line, &why))
				printf("replay ok " INT64_FORMAT " lines\n", line);
			else
			{
				printf("replay refused line " INT64_FORMAT ": %s\n", line, why);
				status = 1;
			}
		}
	}
	PG_CATCH();
	{
		print_error();
		status = 1;
	}
	PG_END_TRY();
	shim_free_all();
	return status;
}

int
main(int argc, char **argv)
{
	bool		replay = argc == 3 && strcmp(argv[1], "--replay") == 0;
	size_t		len;
	uint8	   *data;
	int			status;

	if (argc != 2 && !replay)
	{
		fprintf(stderr, "usage: delta_checkpoint_cli [--replay] FILE\n");
		return 2;
	}
	data = read_file(argv[argc - 1], &len);
	status = run(data, len, replay);
	free(data);
	return status;
}
