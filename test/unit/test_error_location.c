/*
 * test_error_location.c
 *		Error locations (format/common/pq_common.c): the innermost location
 *		on error_context_stack is what an error reports, including errors
 *		raised by code that knows no location (Thrift), and an ERROR leaves
 *		no location behind.
 *
 * The expected messages are written out here from the documented forms
 * "corrupt Parquet file "<file>": <what>" and "Row group <n>, column
 * "<path>", page at byte offset <offset>." (the shim joins the message
 * and its detail with "|").
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/metadata/metadata.h"
#include "unit_test.h"

/* Raise pq_corrupt("bad value") and return whether it was caught. */
static bool
raise_corrupt(void)
{
	volatile bool raised = false;

	shim_last_message[0] = '\0';
	PG_TRY();
	{
		pq_corrupt("bad value");
	}
	PG_CATCH();
	{
		raised = true;
	}
	PG_END_TRY();
	return raised;
}

static void
test_no_location(void)
{
	CHECK(pq_errloc_current() == NULL);
	CHECK(raise_corrupt());
	CHECK(strcmp(shim_last_message, "corrupt Parquet data: bad value") == 0);
}

static void
test_innermost_wins(void)
{
	ErrorContextCallback *before = error_context_stack;
	PqErrorLocation outer;
	PqErrorLocation inner;

	pq_errloc_push(&outer, "outer.parquet");
	CHECK(raise_corrupt());
	CHECK(strcmp(shim_last_message,
				 "corrupt Parquet file \"outer.parquet\": bad value") == 0);

	pq_errloc_push(&inner, "inner.parquet");
	inner.row_group = 2;
	inner.column = "a.b";
	inner.page_offset = 7;
	CHECK(raise_corrupt());
	CHECK(strcmp(shim_last_message,
				 "corrupt Parquet file \"inner.parquet\": bad value|"
				 "Row group 2, column \"a.b\", page at byte offset 7.") == 0);
	CHECK(strcmp(pq_errloc_filename(), "inner.parquet") == 0);

	/* a column without a row group, as a chunk's metadata check has it */
	inner.row_group = -1;
	inner.page_offset = -1;
	CHECK(raise_corrupt());
	CHECK(strcmp(shim_last_message,
				 "corrupt Parquet file \"inner.parquet\": bad value|"
				 "Column \"a.b\".") == 0);

	pq_errloc_pop(&inner);
	CHECK(raise_corrupt());
	CHECK(strcmp(shim_last_message,
				 "corrupt Parquet file \"outer.parquet\": bad value") == 0);
	pq_errloc_pop(&outer);
	CHECK(error_context_stack == before);
	CHECK(pq_errloc_current() == NULL);
}

/* Other error context entries between locations are passed over. */
static void
other_context(void *arg)
{
}

static void
test_other_entries(void)
{
	PqErrorLocation loc;
	ErrorContextCallback cb;

	pq_errloc_push(&loc, "f.parquet");
	loc.row_group = 0;
	cb.callback = other_context;
	cb.arg = NULL;
	cb.previous = error_context_stack;
	error_context_stack = &cb;
	CHECK(raise_corrupt());
	CHECK(strcmp(shim_last_message,
				 "corrupt Parquet file \"f.parquet\": bad value|Row group 0.") == 0);
	error_context_stack = cb.previous;
	pq_errloc_pop(&loc);
}

/*
 * A Thrift error knows nothing of files: it reports the location its caller
 * pushed.  The location pushed inside the failed call is gone afterwards,
 * as PG_TRY restores error_context_stack.
 */
static void
test_error_unwinds(void)
{
	static const uint8 bad_header[] = {0x1f, 0x00};
	ErrorContextCallback *before = error_context_stack;
	PqPageHeader ph;
	PqErrorLocation loc;
	volatile bool raised = false;

	shim_last_message[0] = '\0';
	PG_TRY();
	{
		pq_errloc_push(&loc, "pages.parquet");
		loc.row_group = 1;
		loc.column = "s";
		loc.page_offset = 4;
		(void) pq_read_page_header(ut_exact_copy(bad_header, sizeof(bad_header)),
								   sizeof(bad_header), &ph);
		pq_errloc_pop(&loc);
	}
	PG_CATCH();
	{
		raised = true;
	}
	PG_END_TRY();
	CHECK(raised);
	CHECK(strncmp(shim_last_message, "corrupt Parquet file \"pages.parquet\": ",
				  strlen("corrupt Parquet file \"pages.parquet\": ")) == 0);
	CHECK(strstr(shim_last_message,
				 "|Row group 1, column \"s\", page at byte offset 4.") != NULL);
	CHECK(error_context_stack == before);
	CHECK(pq_errloc_current() == NULL);
	CHECK(raise_corrupt());
	CHECK(strcmp(shim_last_message, "corrupt Parquet data: bad value") == 0);
}

void
suite_error_location(void)
{
	ut_run("error location: none pushed", test_no_location);
	ut_run("error location: the innermost is reported", test_innermost_wins);
	ut_run("error location: other context entries are passed over",
		   test_other_entries);
	ut_run("error location: decoders report their caller's, errors unwind",
		   test_error_unwinds);
}
