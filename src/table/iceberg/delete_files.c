/*-------------------------------------------------------------------------
 *
 * delete_files.c
 *		Iceberg position and equality delete files (Parquet) read with the
 *		format layer's column readers into deleted rows per data file and
 *		into sets of row keys.
 *
 * Only top-level primitive columns are read, so no record assembly is
 * needed: one column reader per column, and the columns' segments (runs of
 * a page's values, up to PQ_SEGMENT_CAP rows) walked in step, as many rows
 * at a time as every column's current segment still has.  Values are taken
 * where the decoder left them (page, dictionary), never converted to
 * Datums.
 *
 * A position delete file's paths are numbered as they come (a hash table
 * of the distinct paths: files are sorted by path, and one path has many
 * rows), its rows kept as (path number, position) pairs, then sorted into
 * one array of positions per path.  An equality key set is the same hash
 * table over the keys' canonical bytes (delete_keys.c): open addressing,
 * linear probing, at most half full, XXH3 hashes, the keys in an arena.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <xxhash.h>

#include "format/read/column_reader.h"
#include "table/iceberg/delete_files.h"
#include "utils/memutils.h"

/* ---------------------------------------------------------- hash table */

/* A slot: its key's number + 1 (0: empty) and the key's hash. */
typedef struct Slot
{
	uint32		hash;
	uint32		ref;
} Slot;

/* Arena blocks: the first small, then twice the last up to BLOCK_MAX. */
#define BLOCK_MIN ((Size) 8 * 1024)
#define BLOCK_MAX ((Size) 1024 * 1024)

/* Slots of a new table: 2^MIN_BITS; at most 2^MAX_BITS. */
#define MIN_BITS 4
#define MAX_BITS 26

StaticAssertDecl(((int64) PQ_ICEBERG_MAX_KEYS) * 2 <= ((int64) 1 << MAX_BITS),
				 "the largest set would fill its table more than half");

/*
 * Distinct byte strings numbered in the order they were added, each kept
 * once in the arena as a 4-byte length and its bytes.  A string's slot is
 * found from the upper bits of its 32-bit hash, so that growing the table
 * needs no hashing again.
 */
typedef struct ByteTable
{
	MemoryContext cxt;			/* of everything below */
	Slot	   *slots;
	int			bits;			/* 2^bits slots */
	int64		count;
	const uint8 **keys;			/* count of them, by number */
	int64		keys_cap;
	uint8	   *block;			/* arena block being filled */
	Size		block_left;
	Size		block_size;
	Size		bytes;			/* arena bytes taken, lengths included */
	uint32		max_len;		/* the longest string */
} ByteTable;

static void
bt_init(ByteTable *t, MemoryContext cxt)
{
	memset(t, 0, sizeof(ByteTable));
	t->cxt = cxt;
	t->bits = MIN_BITS;
	t->slots = MemoryContextAllocZero(cxt, sizeof(Slot) << t->bits);
	t->block_size = BLOCK_MIN / 2;
}

static inline uint32
bt_hash(const uint8 *p, size_t len)
{
	return (uint32) (XXH3_64bits(p, len) >> 32);
}

/* String n: its bytes, and its length in *len. */
static inline const uint8 *
bt_key(const ByteTable *t, int64 n, uint32 *len)
{
	const uint8 *k = t->keys[n];

	memcpy(len, k, sizeof(uint32));
	return k + sizeof(uint32);
}

/* The number of the string p[0 .. len) of hash h; -1 when absent. */
static int64
bt_find(const ByteTable *t, const uint8 *p, uint32 len, uint32 h)
{
	uint32		mask = ((uint32) 1 << t->bits) - 1;
	uint32		i = h >> (32 - t->bits);

	for (;;)
	{
		const Slot *s = &t->slots[i];

		if (s->ref == 0)
			return -1;
		if (s->hash == h)
		{
			uint32		klen;
			const uint8 *k = bt_key(t, s->ref - 1, &klen);

			if (klen == len && (len == 0 || memcmp(k, p, len) == 0))
				return s->ref - 1;
		}
		i = (i + 1) & mask;
	}
}

/* Put ref (of hash h) into the first free slot from its own. */
static inline void
bt_place(Slot *slots, int bits, uint32 h, uint32 ref)
{
	uint32		mask = ((uint32) 1 << bits) - 1;
	uint32		i = h >> (32 - bits);

	while (slots[i].ref != 0)
		i = (i + 1) & mask;
	slots[i].hash = h;
	slots[i].ref = ref;
}

/* Twice the slots. */
static void
bt_grow(ByteTable *t)
{
	int			bits = t->bits + 1;
	Slot	   *slots = MemoryContextAllocZero(t->cxt, sizeof(Slot) << bits);
	uint32		i;

	for (i = 0; i < ((uint32) 1 << t->bits); i++)
		if (t->slots[i].ref != 0)
			bt_place(slots, bits, t->slots[i].hash, t->slots[i].ref);
	pfree(t->slots);
	t->slots = slots;
	t->bits = bits;
}

/*
 * Add p[0 .. len) of hash h, which bt_find() did not find; false with *why
 * when the table is full (PQ_ICEBERG_MAX_KEYS, PQ_ICEBERG_MAX_KEY_BYTES).
 */
static bool
bt_add(ByteTable *t, const uint8 *p, uint32 len, uint32 h, const char *what,
	   const char **why)
{
	Size		need = (Size) len + sizeof(uint32);
	uint8	   *k;

	if (t->count >= PQ_ICEBERG_MAX_KEYS)
	{
		*why = psprintf("it would make more than %d distinct %s",
						PQ_ICEBERG_MAX_KEYS, what);
		return false;
	}
	if (need > PQ_ICEBERG_MAX_KEY_BYTES - t->bytes || need > MaxAllocSize)
	{
		*why = psprintf("its %s would take more than %zu bytes", what,
						PQ_ICEBERG_MAX_KEY_BYTES);
		return false;
	}
	if ((t->count + 1) * 2 > ((int64) 1 << t->bits))
		bt_grow(t);
	if (t->count == t->keys_cap)
	{
		int64		cap = Min(Max(t->keys_cap * 2, 64), PQ_ICEBERG_MAX_KEYS);

		if (t->keys == NULL)
			t->keys = MemoryContextAlloc(t->cxt, sizeof(uint8 *) * cap);
		else
			t->keys = repalloc(t->keys, sizeof(uint8 *) * cap);
		t->keys_cap = cap;
	}
	if (need > BLOCK_MAX / 4)
		k = MemoryContextAlloc(t->cxt, need);	/* a block of its own */
	else
	{
		if (need > t->block_left)
		{
			t->block_size = Min(t->block_size * 2, BLOCK_MAX);
			t->block = MemoryContextAlloc(t->cxt, t->block_size);
			t->block_left = t->block_size;
		}
		k = t->block;
		t->block += need;
		t->block_left -= need;
	}
	memcpy(k, &len, sizeof(uint32));
	if (len > 0)
		memcpy(k + sizeof(uint32), p, len);
	bt_place(t->slots, t->bits, h, (uint32) t->count + 1);
	t->keys[t->count++] = k;
	t->bytes += need;
	t->max_len = Max(t->max_len, len);
	return true;
}

/* ------------------------------------------------------ columns in step */

/* A column read in step with the others: its segment and place in it. */
typedef struct Cursor
{
	PqColumnReader *reader;		/* NULL: not in the file, all null */
	int			max_def;
	int			width;			/* fixed-width values: pq_fixed_width() */
	PqSegment	seg;
	int			at;				/* next level entry of seg */
	int			vi;				/* next value of seg */
} Cursor;

/* A cursor over leaf of file (-1: none). */
static void
cursor_open(Cursor *c, PqFile *file, int leaf, MemoryContext cxt)
{
	memset(c, 0, sizeof(Cursor));
	if (leaf < 0)
		return;
	c->reader = pq_column_reader_create(file, leaf, cxt);
	c->max_def = file->schema->columns[leaf].max_def;
	c->width = pq_fixed_width(file->schema->columns[leaf].physical_type,
							  file->schema->columns[leaf].type_length);
}

/* Every cursor at the start of row group rg. */
static void
cursors_start(Cursor *cs, int n, int rg)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		if (cs[i].reader == NULL)
			continue;
		pq_column_reader_start(cs[i].reader, rg);
		cs[i].seg.n = 0;
		cs[i].at = 0;
		cs[i].vi = 0;
	}
}

/*
 * Give each cursor whose segment is used up its next one, of the left rows
 * of the row group at most; the rows every cursor has now (1 at least).
 */
static int
cursors_fill(Cursor *cs, int n, int64 left)
{
	int			run = (int) Min(left, PQ_SEGMENT_CAP);
	int			i;

	for (i = 0; i < n; i++)
	{
		Cursor	   *c = &cs[i];

		if (c->reader == NULL)
			continue;
		if (c->at == c->seg.n)
		{
			if (pq_column_reader_next(c->reader, run, &c->seg) == 0)
				pq_corrupt("a column chunk ends before its row group's rows");
			c->at = 0;
			c->vi = 0;
		}
		run = Min(run, c->seg.n - c->at);
	}
	return run;
}

/*
 * The cursor's next row (the cursor moves past it): false for a null, else
 * its value in *fixed or *ba.
 */
static inline bool
cursor_value(Cursor *c, const uint8 **fixed, const PqByteArray **ba)
{
	const PqSegment *s = &c->seg;
	int			at = c->at++;
	uint32		v;

	*fixed = NULL;
	*ba = NULL;
	if (c->reader == NULL)
		return false;
	if (s->def != NULL && s->def[at] != c->max_def)
		return false;
	v = (uint32) c->vi++;
	if (s->indices != NULL)
	{
		v = s->indices[v];
		if (s->dict->ba != NULL)
			*ba = &s->dict->ba[v];
		else
			*fixed = (const uint8 *) s->dict->fixed + (Size) v * c->width;
	}
	else if (s->ba != NULL)
		*ba = &s->ba[v];
	else
		*fixed = (const uint8 *) s->fixed + (Size) v * c->width;
	return true;
}

/*
 * The file's rows, checked against limit: false when more.  A negative
 * count is corrupt.
 */
static bool
count_rows(const PqFile *file, int64 limit, int64 *total)
{
	int			rg;

	*total = 0;
	for (rg = 0; rg < file->md.n_row_groups; rg++)
	{
		int64		n = file->md.row_groups[rg].num_rows;

		if (n < 0)
			pq_corrupt("row group %d has a negative number of rows", rg);
		if (n > limit - *total)
			return false;
		*total += n;
	}
	return true;
}

/* ---------------------------------------------------- position deletes */

/*
 * The leaf of the top-level column of field id id, else (no field has the
 * id) of the one called name, which must be a primitive of type ptype.
 */
static bool
find_column(const PqFile *file, int32 id, const char *name, int ptype,
			int *leaf, const char **why)
{
	const PqSchemaNode *root = file->schema->root;
	const PqSchemaNode *found = NULL;
	int			pass;
	int			i;

	for (pass = 0; pass < 2 && found == NULL; pass++)
		for (i = 0; i < root->n_children; i++)
		{
			const PqSchemaNode *c = root->children[i];

			if (pass == 0 ? !(c->elem->has_field_id && c->elem->field_id == id)
				: strcmp(c->name, name) != 0)
				continue;
			if (found != NULL)
			{
				*why = psprintf("its column %s is there twice", name);
				return false;
			}
			found = c;
		}
	if (found == NULL)
	{
		*why = psprintf("it has no column %s", name);
		return false;
	}
	if (!found->is_leaf || found->repetition == PQ_REPEATED ||
		found->physical_type != ptype)
	{
		*why = psprintf("its column %s is not a %s", name,
						ptype == PQ_INT64 ? "long" : "string");
		return false;
	}
	*leaf = found->first_leaf;
	return true;
}

/* qsort_arg comparator of path numbers: by the paths' bytes (strcmp's order) */
static int
path_cmp(const void *a, const void *b, void *arg)
{
	const ByteTable *t = arg;
	uint32		la;
	uint32		lb;
	const uint8 *pa = bt_key(t, *(const uint32 *) a, &la);
	const uint8 *pb = bt_key(t, *(const uint32 *) b, &lb);
	int			c = Min(la, lb) > 0 ? memcmp(pa, pb, Min(la, lb)) : 0;

	return c != 0 ? c : (la > lb) - (la < lb);
}

static int
uint64_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/* d's positions ascending, each once. */
static void
sort_unique(PqIcebergDeletedRows *d)
{
	uint64		i;
	uint64		n = 0;

	for (i = 1; i < d->count; i++)
		if (d->pos[i] < d->pos[i - 1])
			break;
	if (i < d->count)
		qsort(d->pos, d->count, sizeof(uint64), uint64_cmp);
	for (i = 0; i < d->count; i++)
		if (n == 0 || d->pos[i] != d->pos[n - 1])
			d->pos[n++] = d->pos[i];
	d->count = n;
}

/*
 * The rows (ids[i], pos[i]) of the n read, grouped by path into out, in
 * caller.
 */
static bool
group_positions(const ByteTable *paths, const uint32 *ids,
				const uint64 *pos, int64 n, MemoryContext caller,
				PqIcebergPositionDeletes *out, const char **why)
{
	int			npaths = (int) paths->count;
	uint32	   *order = palloc(sizeof(uint32) * Max(npaths, 1));
	uint32	   *rank = palloc(sizeof(uint32) * Max(npaths, 1));
	int64	   *counts = palloc0(sizeof(int64) * Max(npaths, 1));
	int			r;
	int64		i;

	for (r = 0; r < npaths; r++)
	{
		uint32		len;
		const uint8 *p = bt_key(paths, r, &len);

		if (len > 0 && memchr(p, 0, len) != NULL)
		{
			*why = "a file_path holds a NUL character";
			return false;
		}
		order[r] = r;
	}
	if (npaths == 0)
		return true;
	qsort_arg(order, npaths, sizeof(uint32), path_cmp, (void *) paths);
	for (r = 0; r < npaths; r++)
		rank[order[r]] = r;
	for (i = 0; i < n; i++)
		counts[ids[i]]++;

	out->npaths = npaths;
	out->paths = MemoryContextAlloc(caller, sizeof(char *) * npaths);
	out->rows = MemoryContextAllocZero(caller,
									   sizeof(PqIcebergDeletedRows) * npaths);
	for (r = 0; r < npaths; r++)
	{
		uint32		len;
		const uint8 *p = bt_key(paths, order[r], &len);
		char	   *s = MemoryContextAlloc(caller, (Size) len + 1);

		if (len > 0)
			memcpy(s, p, len);
		s[len] = '\0';
		out->paths[r] = s;
		out->rows[r].pos = MemoryContextAlloc(caller,
											  sizeof(uint64) * counts[order[r]]);
	}
	for (i = 0; i < n; i++)
	{
		PqIcebergDeletedRows *d = &out->rows[rank[ids[i]]];

		d->pos[d->count++] = pos[i];
	}
	for (r = 0; r < npaths; r++)
		sort_unique(&out->rows[r]);
	return true;
}

/* The rows of file (total of them) into out; the work in the current context. */
static bool
read_positions(PqFile *file, int path_leaf, int pos_leaf, int64 total,
			   MemoryContext caller, PqIcebergPositionDeletes *out,
			   const char **why)
{
	Cursor		cs[2];
	ByteTable	paths;
	uint32	   *ids = NULL;
	uint64	   *pos = NULL;
	int64		n = 0;
	int64		cap = 0;
	int64		last = -1;		/* the path number of the row before */
	int			rg;

	cursor_open(&cs[0], file, path_leaf, CurrentMemoryContext);
	cursor_open(&cs[1], file, pos_leaf, CurrentMemoryContext);
	bt_init(&paths, CurrentMemoryContext);
	for (rg = 0; rg < file->md.n_row_groups; rg++)
	{
		int64		nrows = file->md.row_groups[rg].num_rows;
		int64		done;
		int			run;

		if (nrows == 0)
			continue;
		cursors_start(cs, 2, rg);
		for (done = 0; done < nrows; done += run)
		{
			int			i;

			run = cursors_fill(cs, 2, nrows - done);
			/* counted before: n + run <= total <= PQ_ICEBERG_MAX_POSITIONS */
			if (n + run > cap)
			{
				cap = Min(Max(Max(cap * 2, n + run), 1024), total);
				ids = ids ? repalloc(ids, sizeof(uint32) * cap)
					: palloc(sizeof(uint32) * cap);
				pos = pos ? repalloc(pos, sizeof(uint64) * cap)
					: palloc(sizeof(uint64) * cap);
			}
			for (i = 0; i < run; i++)
			{
				const uint8 *fx;
				const PqByteArray *path;
				const uint8 *p;
				const PqByteArray *unused;
				int64		v;

				bool		has_path = cursor_value(&cs[0], &fx, &path);
				bool		has_pos = cursor_value(&cs[1], &p, &unused);

				/*
				 * A row without a path or a position names no row to delete:
				 * skipped, as Impala skips it (the spec requires both, and
				 * Impala's own test files hold such rows).
				 */
				if (!has_path || !has_pos)
					continue;
				memcpy(&v, p, sizeof(int64));
				if (v < 0)
				{
					*why = "a row's pos is negative";
					return false;
				}
				/* rows of one path come together: compare with the last */
				if (last >= 0)
				{
					uint32		len;
					const uint8 *k = bt_key(&paths, last, &len);

					if (len != path->len ||
						(len > 0 && memcmp(k, path->ptr, len) != 0))
						last = -1;
				}
				if (last < 0)
				{
					uint32		h = bt_hash(path->ptr, path->len);

					last = bt_find(&paths, path->ptr, path->len, h);
					if (last < 0)
					{
						if (!bt_add(&paths, path->ptr, path->len, h,
									"paths", why))
							return false;
						last = paths.count - 1;
					}
				}
				ids[n] = (uint32) last;
				pos[n] = (uint64) v;
				n++;
			}
		}
	}
	return group_positions(&paths, ids, pos, n, caller, out, why);
}

bool
pq_iceberg_read_position_deletes(PqFile *file, PqIcebergPositionDeletes *out,
								 const char **why)
{
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext work;
	int			path_leaf;
	int			pos_leaf;
	int64		total;
	bool		ok;

	memset(out, 0, sizeof(PqIcebergPositionDeletes));
	*why = NULL;
	if (!find_column(file, PQ_ICEBERG_FIELD_FILE_PATH, "file_path",
					 PQ_BYTE_ARRAY, &path_leaf, why) ||
		!find_column(file, PQ_ICEBERG_FIELD_POS, "pos", PQ_INT64, &pos_leaf,
					 why))
		return false;
	if (!count_rows(file, PQ_ICEBERG_MAX_POSITIONS, &total))
	{
		*why = psprintf("it has more than " INT64_FORMAT " rows",
						PQ_ICEBERG_MAX_POSITIONS);
		return false;
	}
	work = AllocSetContextCreate(caller, "parquet_fdw Iceberg position deletes",
								 ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(work);
	ok = read_positions(file, path_leaf, pos_leaf, total, caller, out, why);
	MemoryContextSwitchTo(caller);
	MemoryContextDelete(work);
	if (!ok)
		memset(out, 0, sizeof(PqIcebergPositionDeletes));
	return ok;
}

const PqIcebergDeletedRows *
pq_iceberg_position_deletes_for(const PqIcebergPositionDeletes *d,
								const char *path)
{
	int			lo = 0;
	int			hi;

	if (d == NULL)
		return NULL;
	hi = d->npaths - 1;
	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = strcmp(d->paths[mid], path);

		if (c == 0)
			return &d->rows[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

PqIcebergDeletedRows *
pq_iceberg_deleted_rows_union(const PqIcebergDeletedRows *a,
							  const PqIcebergDeletedRows *b)
{
	uint64		na = a ? a->count : 0;
	uint64		nb = b ? b->count : 0;
	PqIcebergDeletedRows *out = palloc0(sizeof(PqIcebergDeletedRows));
	uint64		n = 0;
	int			pass;

	/* first count, then write: the result is allocated once, exactly */
	for (pass = 0; pass < 2; pass++)
	{
		uint64		i = 0;
		uint64		j = 0;
		uint64		k = 0;
		uint64		last = 0;

		if (pass == 1)
		{
			if (n > (uint64) PQ_ICEBERG_MAX_POSITIONS)
				pq_too_large("a data file's deleted rows are more than " INT64_FORMAT,
							 PQ_ICEBERG_MAX_POSITIONS);
			if (n == 0)
				break;
			out->pos = palloc(sizeof(uint64) * n);
		}
		while (i < na || j < nb)
		{
			uint64		v;

			if (j >= nb || (i < na && a->pos[i] <= b->pos[j]))
				v = a->pos[i++];
			else
				v = b->pos[j++];
			if (k > 0 && v == last)
				continue;
			if (pass == 1)
				out->pos[k] = v;
			last = v;
			k++;
		}
		n = k;
	}
	out->count = n;
	return out;
}

/* ------------------------------------------------------------ key sets */

struct PqIcebergKeySet
{
	int			ncolumns;
	uint8	   *tags;			/* each key column's class; 0 (NULL): none met
								 * yet */
	ByteTable	table;
};

PqIcebergKeySet *
pq_iceberg_keyset_create(int ncolumns)
{
	PqIcebergKeySet *set;

	if (ncolumns < 1)
		elog(ERROR, "Iceberg key set: %d key columns", ncolumns);
	if (ncolumns > PQ_ICEBERG_MAX_KEY_COLUMNS)
		pq_too_large("an equality delete key of %d columns has more than %d",
					 ncolumns, PQ_ICEBERG_MAX_KEY_COLUMNS);
	set = palloc0(sizeof(PqIcebergKeySet));
	set->ncolumns = ncolumns;
	set->tags = palloc0(ncolumns);
	bt_init(&set->table, CurrentMemoryContext);
	return set;
}

int64
pq_iceberg_keyset_size(const PqIcebergKeySet *set)
{
	return set->table.count;
}

/*
 * The types of the key columns cols of file, checked against those set met
 * before (adding: a file added before; else the delete files).
 */
static bool
key_types(const PqIcebergKeySet *set, const PqFile *file, const int *cols,
		  bool adding, PqIcebergKeyType *types, const char **why)
{
	int			i;

	for (i = 0; i < set->ncolumns; i++)
	{
		/* an absent column's values are all null: its type is not used */
		types[i].tag = PQ_ICEBERG_KEY_BYTES;
		if (cols[i] == -1)
			continue;
		if (cols[i] < 0 || cols[i] >= file->schema->n_columns)
		{
			*why = "a key column is not a column of the file";
			return false;
		}
		if (!pq_iceberg_key_type(file->schema->columns[cols[i]].node,
								 &types[i], why))
			return false;
		if (set->tags[i] != PQ_ICEBERG_KEY_NULL &&
			set->tags[i] != types[i].tag)
		{
			*why = adding ?
				"a key column's type differs from the same column's in a delete file added before" :
				"a key column's type differs from the same column's in the delete files";
			return false;
		}
	}
	return true;
}

/*
 * Every row's key of file over the cursors cs: added to set (out NULL), or
 * looked up in it, the positions of the rows found into out (in caller).
 */
static bool
scan_keys(PqIcebergKeySet *set, PqFile *file, Cursor *cs,
		  const PqIcebergKeyType *types, MemoryContext caller,
		  PqIcebergDeletedRows *out, const char **why)
{
	int			ncols = set->ncolumns;
	ByteTable  *t = &set->table;
	PqBuffer	key;
	int64		base = 0;
	uint64		cap = 0;
	int			rg;

	pq_buffer_init(&key, 64);
	for (rg = 0; rg < file->md.n_row_groups; rg++)
	{
		int64		nrows = file->md.row_groups[rg].num_rows;
		int64		done;
		int			run;

		if (nrows == 0)
			continue;
		cursors_start(cs, ncols, rg);
		for (done = 0; done < nrows; done += run)
		{
			int			i;

			run = cursors_fill(cs, ncols, nrows - done);
			for (i = 0; i < run; i++)
			{
				bool		fits = true;
				uint32		h;
				int			c;

				pq_buffer_reset(&key);
				for (c = 0; c < ncols; c++)
				{
					const uint8 *fixed;
					const PqByteArray *ba;

					(void) cursor_value(&cs[c], &fixed, &ba);
					if (!fits)
						continue;
					/* a key longer than any in the set is not in it */
					if (out != NULL &&
						pq_iceberg_key_value_len(&types[c], fixed, ba) > t->max_len - Min(key.len, t->max_len))
					{
						fits = false;
						continue;
					}
					if (!pq_iceberg_key_append(&key, &types[c], fixed, ba, why))
						return false;
				}
				if (!fits)
					continue;
				h = bt_hash(key.data, key.len);
				if (out == NULL)
				{
					if (bt_find(t, key.data, (uint32) key.len, h) < 0 &&
						!bt_add(t, key.data, (uint32) key.len, h, "keys", why))
						return false;
					continue;
				}
				if (bt_find(t, key.data, (uint32) key.len, h) < 0)
					continue;
				if (out->count == cap)
				{
					if (cap == (uint64) PQ_ICEBERG_MAX_POSITIONS)
					{
						*why = psprintf("more than " INT64_FORMAT " of its rows are deleted",
										PQ_ICEBERG_MAX_POSITIONS);
						return false;
					}
					cap = Min(Max(cap * 2, 256), (uint64) PQ_ICEBERG_MAX_POSITIONS);
					out->pos = out->pos ? repalloc(out->pos, sizeof(uint64) * cap)
						: MemoryContextAlloc(caller, sizeof(uint64) * cap);
				}
				out->pos[out->count++] = (uint64) (base + done + i);
			}
		}
		base += nrows;
	}
	return true;
}

/* Add (out NULL) or match the rows of file over cols. */
static bool
keyset_file(PqIcebergKeySet *set, PqFile *file, const int *cols,
			PqIcebergDeletedRows *out, const char **why)
{
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext work;
	PqIcebergKeyType *types;
	Cursor	   *cs;
	int64		total;
	bool		ok;
	int			i;

	*why = NULL;
	types = palloc(sizeof(PqIcebergKeyType) * set->ncolumns);
	if (!key_types(set, file, cols, out == NULL, types, why))
	{
		pfree(types);
		return false;
	}
	/* a set that is empty matches nothing */
	(void) count_rows(file, PG_INT64_MAX, &total);
	if (total == 0 || (out != NULL && set->table.count == 0))
	{
		pfree(types);
		return true;
	}
	if (out == NULL)
		for (i = 0; i < set->ncolumns; i++)
			if (cols[i] != -1)
				set->tags[i] = types[i].tag;
	work = AllocSetContextCreate(caller, "parquet_fdw Iceberg equality deletes",
								 ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(work);
	cs = palloc(sizeof(Cursor) * set->ncolumns);
	for (i = 0; i < set->ncolumns; i++)
		cursor_open(&cs[i], file, cols[i], work);
	ok = scan_keys(set, file, cs, types, caller, out, why);
	MemoryContextSwitchTo(caller);
	MemoryContextDelete(work);
	pfree(types);
	return ok;
}

bool
pq_iceberg_keyset_add_file(PqIcebergKeySet *set, PqFile *file,
						   const int *cols, const char **why)
{
	return keyset_file(set, file, cols, NULL, why);
}

bool
pq_iceberg_keyset_match_file(const PqIcebergKeySet *set, PqFile *file,
							 const int *cols, PqIcebergDeletedRows *out,
							 const char **why)
{
	memset(out, 0, sizeof(PqIcebergDeletedRows));
	/* matching changes nothing of the set */
	if (!keyset_file(unconstify(PqIcebergKeySet *, set), file, cols, out,
					 why))
	{
		if (out->pos != NULL)
			pfree(out->pos);
		memset(out, 0, sizeof(PqIcebergDeletedRows));
		return false;
	}
	return true;
}
