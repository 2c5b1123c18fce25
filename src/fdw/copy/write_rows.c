/*-------------------------------------------------------------------------
 *
 * write_rows.c
 *		Rows of a COPY TO batch into a file writer, column by column: the
 *		one loop a plain COPY TO (hook.c) and each file of a partitioned
 *		one (partition.c) write through.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/copy/write_convert.h"

void
pqfdw_write_rows(PqWriteColumn *cols, int ncols, const int *first_leaf,
				 PqFileWriter *w, int n, int64 row_base, const int *rows)
{
	int			c;

	for (c = 0; c < ncols; c++)
	{
		PqWriteColumn *col = &cols[c];
		int			nvalues;

		if (first_leaf[c] < 0)
			continue;
		if (col->nested != NULL)
		{
			pqfdw_nested_write(col, n, row_base, rows, w, first_leaf[c]);
			continue;
		}
		col->value_rows = rows;
		nvalues = pqfdw_write_convert(col, n, row_base);
		col->value_rows = NULL;
		pq_file_writer_write_column(w, first_leaf[c], n,
									col->required ? NULL : col->def, NULL,
									nvalues, col->fixed, col->ba);
	}
	pq_file_writer_end_rows(w, n);
}
