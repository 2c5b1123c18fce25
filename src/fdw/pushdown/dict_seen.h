/*-------------------------------------------------------------------------
 *
 * dict_seen.h
 *		The indices of the current dictionary a scan without groups has
 *		met, for aggregates that need each value once (distinct.c, text
 *		min/max in accumulate.c): a flag per index, cleared when a batch
 *		brings another dictionary.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_DICT_SEEN_H
#define PQFDW_DICT_SEEN_H

#include "fdw/scan/batch.h"

typedef struct PqDictSeen
{
	uint32		dict_id;		/* the dictionary the flags are of */
	int			cap;
	bool	   *seen;
} PqDictSeen;

/* The flags of bc's dictionary: kept while it lasts, cleared for another. */
static inline bool *
pqfdw_dict_seen(PqDictSeen *s, const PqBatchCodes *bc, MemoryContext cxt)
{
	if (s->dict_id != bc->dict_id)
	{
		if (s->cap < bc->dict_count)
		{
			if (s->seen)
				pfree(s->seen);
			s->seen = MemoryContextAllocHuge(cxt, bc->dict_count);
			s->cap = bc->dict_count;
		}
		memset(s->seen, 0, bc->dict_count);
		s->dict_id = bc->dict_id;
	}
	return s->seen;
}

#endif							/* PQFDW_DICT_SEEN_H */
