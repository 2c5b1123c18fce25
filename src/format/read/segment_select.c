/*-------------------------------------------------------------------------
 *
 * segment_select.c
 *		Gather selected entries of a flat segment: their levels, and the
 *		values of those that are present, in order.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <string.h>

#include "format/read/segment_select.h"

void
pq_segment_select(const PqSegment *seg, int value_width, int16 max_def,
				  const int *rows, int nrows, const PqSegmentScratch *scratch,
				  PqSegment *out)
{
	int			nvalues = 0;
	int			dense = 0;
	int			next = 0;
	int			k;

	*out = *seg;
	out->n = nrows;
	out->rep = NULL;
	if (seg->indices)
		out->indices = scratch->indices;
	else if (seg->ba)
		out->ba = scratch->ba;
	else if (seg->fixed)
		out->fixed = scratch->fixed;

	/* without levels every entry is present: entry i is value i */
	if (seg->def == NULL)
	{
		for (k = 0; k < nrows; k++)
		{
			int			i = rows[k];

			if (seg->indices)
				scratch->indices[k] = seg->indices[i];
			else if (seg->ba)
				scratch->ba[k] = seg->ba[i];
			else if (seg->fixed)
				memcpy(scratch->fixed + (size_t) k * value_width,
					   (const uint8 *) seg->fixed + (size_t) i * value_width,
					   value_width);
		}
		out->nvalues = nrows;
		return;
	}

	/* dense counts the values before entry next, walking forward */
	out->def = scratch->def;
	for (k = 0; k < nrows; k++)
	{
		int			i = rows[k];

		for (; next < i; next++)
			dense += (seg->def[next] == max_def);
		scratch->def[k] = seg->def[i];
		if (seg->def[i] != max_def)
			continue;
		if (seg->indices)
			scratch->indices[nvalues] = seg->indices[dense];
		else if (seg->ba)
			scratch->ba[nvalues] = seg->ba[dense];
		else if (seg->fixed)
			memcpy(scratch->fixed + (size_t) nvalues * value_width,
				   (const uint8 *) seg->fixed + (size_t) dense * value_width,
				   value_width);
		nvalues++;
	}
	out->nvalues = nvalues;
}
