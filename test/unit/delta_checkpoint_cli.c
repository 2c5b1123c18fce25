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
		ut_print_error();
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
	data = ut_read_file(argv[argc - 1], &len);
	status = run(data, len, replay);
	free(data);
	return status;
}
