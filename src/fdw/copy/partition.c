/*-------------------------------------------------------------------------
 *
 * partition.c
 *		The files of a dataset COPY TO: rows routed to their partition's
 *		folder, a bounded number of open files, numbered files split by
 *		size or row groups.
 *
 * Each batch of rows (hook.c) is grouped by the folder its partition
 * values name (naming.c), stably, and each group is converted and written
 * into its partition's open file, in pieces that end exactly where row
 * groups end.  A partition has at most one open file; at most
 * max_open_files are open at once: opening one more first finishes the
 * least recently written one, whose later rows then go to a new file
 * data_<n+1>.parquet.  Memory is thus bounded by max_open_files buffered
 * row groups (and their sink buffers), whatever the number of partitions.
 *
 * A file ends, and the next rows of its partition go to the next number,
 * after the row group that brings it to row_groups_per_file row groups or
 * to file_size_bytes bytes: the size is checked at row group boundaries,
 * so a file may pass it by up to one row group.
 *
 * Without partition_by every row goes to one partition, the target
 * directory itself, which always gets at least data_0.parquet.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "fdw/copy/copy_to.h"
#include "lib/ilist.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

typedef struct Partition
{
	char	   *path;			/* hash key: folder under the tree, "" */
	char	   *dir;			/* that folder in the temporary tree */
	int			next_file;		/* number of its next data file */
	bool		dir_made;
	dlist_node	lru;			/* in open_files while a file is open */
	MemoryContext file_cxt;		/* the open file's; NULL: none */
	PqFileWriter *writer;
	PqCopySink	sink;
	int			batch_rows;		/* rows of the current batch */
	int			batch_next;		/* where its next row goes in the order */
} Partition;

struct PqPartitionWriter
{
	MemoryContext cxt;
	const PqCopyDatasetOptions *opts;
	const char *root;			/* the temporary tree, or the URL prefix */
	PqCopyPrefix *prefix;		/* a URL's files' uploads, or NULL */
	PqWriteColumn *cols;
	int			ncols;
	const int  *first_leaf;		/* per column; -1: not in the files */
	int		   *part_cols;
	FmgrInfo   *part_out;		/* output functions of part_cols */
	int			npart;
	const PqWriterField *fields;
	int			nfields;
	const PqWriterOptions *writer_opts;
	HTAB	   *parts;
	Partition  *only;			/* without partition_by */
	dlist_head	open_files;		/* most recently written first */
	int			nopen;
	Datum	  **saved_values;	/* per column, while a group is written */
	bool	  **saved_nulls;
	int64		files;
};

static uint32
path_hash(const void *key, Size keysize)
{
	const char *s = *(const char *const *) key;

	return hash_bytes((const unsigned char *) s, (int) strlen(s));
}

static int
path_match(const void *a, const void *b, Size keysize)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

PqPartitionWriter *
pqfdw_partition_writer_create(const char *root,
							  const PqCopyDatasetOptions *opts,
							  PqWriteColumn *cols, int ncols,
							  const int *first_leaf, const int *part_cols,
							  int npart, const PqWriterField *fields,
							  int nfields, const PqWriterOptions *writer_opts)
{
	PqPartitionWriter *pw = palloc0(sizeof(PqPartitionWriter));
	HASHCTL		ctl;
	int			k;

	pw->cxt = AllocSetContextCreate(CurrentMemoryContext,
									"parquet COPY TO partitions",
									ALLOCSET_DEFAULT_SIZES);
	pw->opts = opts;
	pw->root = root;
	pw->cols = cols;
	pw->ncols = ncols;
	pw->first_leaf = first_leaf;
	pw->npart = npart;
	pw->part_cols = palloc(sizeof(int) * Max(npart, 1));
	pw->part_out = palloc0(sizeof(FmgrInfo) * Max(npart, 1));
	for (k = 0; k < npart; k++)
	{
		Oid			func;
		bool		varlena;

		pw->part_cols[k] = part_cols[k];
		getTypeOutputInfo(cols[part_cols[k]].typid, &func, &varlena);
		fmgr_info(func, &pw->part_out[k]);
	}
	pw->fields = fields;
	pw->nfields = nfields;
	pw->writer_opts = writer_opts;
	pw->saved_values = palloc(sizeof(Datum *) * Max(ncols, 1));
	pw->saved_nulls = palloc(sizeof(bool *) * Max(ncols, 1));
	dlist_init(&pw->open_files);

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(char *);
	ctl.entrysize = sizeof(Partition);
	ctl.hash = path_hash;
	ctl.match = path_match;
	ctl.hcxt = pw->cxt;
	pw->parts = hash_create("parquet COPY TO partitions", 256, &ctl,
							HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
	if (npart == 0)
	{
		pw->only = palloc0(sizeof(Partition));
		pw->only->path = "";
		pw->only->dir = pstrdup(root);
		pw->only->dir_made = true;
	}
	return pw;
}

void
pqfdw_partition_writer_set_prefix(PqPartitionWriter *pw, PqCopyPrefix *prefix)
{
	pw->prefix = prefix;
	if (pw->only)
		pw->only->next_file = pqfdw_prefix_first_number(prefix, "");
}

/* Make the partition's folders, from the top down. */
static void
make_dirs(PqPartitionWriter *pw, Partition *p)
{
	char	   *path = psprintf("%s/%s", pw->root, p->path);
	char	   *c;

	for (c = path + strlen(pw->root) + 1; *c; c++)
	{
		if (*c != '/')
			continue;
		*c = '\0';
		pqfdw_dataset_mkdir(path);
		*c = '/';
	}
	pqfdw_dataset_mkdir(path);
	p->dir_made = true;
}

static void
close_file(PqPartitionWriter *pw, Partition *p)
{
	pq_file_writer_finish(p->writer);
	if (pw->prefix)
		pqfdw_prefix_add(pw->prefix, pqfdw_copy_sink_close(&p->sink));
	else
		pqfdw_copy_sink_finish(&p->sink);
	dlist_delete(&p->lru);
	pw->nopen--;
	MemoryContextDelete(p->file_cxt);
	p->file_cxt = NULL;
	p->writer = NULL;
	pw->files++;
}

static void
open_file(PqPartitionWriter *pw, Partition *p)
{
	MemoryContext old;

	if (pw->nopen >= pw->opts->max_open_files)
		close_file(pw, dlist_tail_element(Partition, lru, &pw->open_files));
	if (!p->dir_made && pw->prefix == NULL)
		make_dirs(pw, p);
	p->file_cxt = AllocSetContextCreate(pw->cxt, "parquet COPY TO file",
										ALLOCSET_DEFAULT_SIZES);
	if (pw->prefix)
	{
		/* the upload outlives the file's context, until all appear */
		old = MemoryContextSwitchTo(pw->cxt);
		pqfdw_copy_sink_open_url(&p->sink, &pw->prefix->remote,
								 pqfdw_data_file_path(p->dir, p->next_file),
								 &pw->prefix->ro);
		MemoryContextSwitchTo(p->file_cxt);
	}
	else
	{
		old = MemoryContextSwitchTo(p->file_cxt);
		pqfdw_copy_sink_open(&p->sink, pqfdw_data_file_path(p->dir, p->next_file));
	}
	p->next_file++;
	/* listed from here on, so that an ERROR removes its temporary file */
	dlist_push_head(&pw->open_files, &p->lru);
	pw->nopen++;
	p->writer = pq_file_writer_create(&p->sink.sink, pw->fields, pw->nfields,
									  pw->writer_opts);
	MemoryContextSwitchTo(old);
}

static bool
file_full(PqPartitionWriter *pw, Partition *p)
{
	const PqCopyDatasetOptions *o = pw->opts;

	if (o->row_groups_per_file > 0 &&
		pq_file_writer_num_row_groups(p->writer) >= o->row_groups_per_file)
		return true;
	return o->file_size_bytes > 0 && p->sink.sink.offset >= o->file_size_bytes;
}

/*
 * Write the first n rows of the columns' batch arrays into p's files,
 * in pieces that end where row groups end.  rows: the batch row of each
 * (for the row an ERROR names; NULL: they are the batch's rows).
 */
static void
write_rows(PqPartitionWriter *pw, Partition *p, int n, int64 row_base,
		   const int *rows)
{
	int			done = 0;
	int			c;

	for (c = 0; c < pw->ncols; c++)
	{
		pw->saved_values[c] = pw->cols[c].values;
		pw->saved_nulls[c] = pw->cols[c].nulls;
	}
	while (done < n)
	{
		int64		room;
		int			chunk;

		if (p->file_cxt == NULL)
			open_file(pw, p);
		else
			dlist_move_head(&pw->open_files, &p->lru);
		room = pq_file_writer_row_group_room(p->writer);
		chunk = (int) Min((int64) (n - done), room > 0 ? room : n);
		for (c = 0; c < pw->ncols; c++)
		{
			pw->cols[c].values = pw->saved_values[c] + done;
			pw->cols[c].nulls = pw->saved_nulls[c] + done;
		}
		pqfdw_write_rows(pw->cols, pw->ncols, pw->first_leaf, p->writer, chunk,
						 rows != NULL ? row_base : row_base + done,
						 rows != NULL ? rows + done : NULL);
		done += chunk;
		if (file_full(pw, p))
			close_file(pw, p);
	}
	for (c = 0; c < pw->ncols; c++)
	{
		pw->cols[c].values = pw->saved_values[c];
		pw->cols[c].nulls = pw->saved_nulls[c];
	}
}

/* The partition of batch row r (its folder named into buf). */
static Partition *
partition_of(PqPartitionWriter *pw, int r, StringInfo buf)
{
	Partition  *p;
	bool		found;
	char	   *key;
	int			k;

	resetStringInfo(buf);
	for (k = 0; k < pw->npart; k++)
	{
		PqWriteColumn *col = &pw->cols[pw->part_cols[k]];

		if (k > 0)
			appendStringInfoChar(buf, '/');
		pqfdw_partition_segment(buf, col->name, col->typid, &pw->part_out[k],
								col->values[r], col->nulls[r]);
	}
	key = buf->data;
	p = hash_search(pw->parts, &key, HASH_ENTER, &found);
	if (!found)
	{
		MemoryContext old = MemoryContextSwitchTo(pw->cxt);

		p->path = pstrdup(buf->data);
		p->dir = psprintf("%s/%s", pw->root, p->path);
		p->next_file = pw->prefix ?
			pqfdw_prefix_first_number(pw->prefix, p->path) : 0;
		p->dir_made = false;
		p->file_cxt = NULL;
		p->writer = NULL;
		p->batch_rows = 0;
		MemoryContextSwitchTo(old);
	}
	return p;
}

void
pqfdw_partition_write(PqPartitionWriter *pw, int nrows, int64 row_base)
{
	Partition **of;
	Partition **groups;
	int			ngroups = 0;
	int		   *order;
	Datum	  **values;
	bool	  **nulls;
	StringInfoData buf;
	int			level;
	int			start;
	int			r,
				g,
				c;

	if (pw->npart == 0)
	{
		write_rows(pw, pw->only, nrows, row_base, NULL);
		return;
	}

	of = palloc(sizeof(Partition *) * nrows);
	groups = palloc(sizeof(Partition *) * nrows);
	initStringInfo(&buf);
	level = pqfdw_partition_text_begin();
	for (r = 0; r < nrows; r++)
	{
		Partition  *p = partition_of(pw, r, &buf);

		if (p->batch_rows++ == 0)
			groups[ngroups++] = p;
		of[r] = p;
	}
	pqfdw_partition_text_end(level);

	/* the batch's rows grouped by partition, in their order */
	start = 0;
	for (g = 0; g < ngroups; g++)
	{
		groups[g]->batch_next = start;
		start += groups[g]->batch_rows;
	}
	order = palloc(sizeof(int) * nrows);
	for (r = 0; r < nrows; r++)
		order[of[r]->batch_next++] = r;
	values = palloc(sizeof(Datum *) * pw->ncols);
	nulls = palloc(sizeof(bool *) * pw->ncols);
	for (c = 0; c < pw->ncols; c++)
	{
		PqWriteColumn *col = &pw->cols[c];

		values[c] = col->values;
		nulls[c] = col->nulls;
		if (pw->first_leaf[c] < 0)
			continue;
		col->values = palloc(sizeof(Datum) * nrows);
		col->nulls = palloc(sizeof(bool) * nrows);
		for (r = 0; r < nrows; r++)
		{
			col->values[r] = values[c][order[r]];
			col->nulls[r] = nulls[c][order[r]];
		}
	}

	start = 0;
	for (g = 0; g < ngroups; g++)
	{
		Partition  *p = groups[g];
		int			n = p->batch_rows;

		for (c = 0; c < pw->ncols; c++)
		{
			if (pw->first_leaf[c] < 0)
				continue;
			pw->cols[c].values += start;
			pw->cols[c].nulls += start;
		}
		write_rows(pw, p, n, row_base, order + start);
		for (c = 0; c < pw->ncols; c++)
		{
			if (pw->first_leaf[c] < 0)
				continue;
			pw->cols[c].values -= start;
			pw->cols[c].nulls -= start;
		}
		p->batch_rows = 0;
		start += n;
	}
	for (c = 0; c < pw->ncols; c++)
	{
		pw->cols[c].values = values[c];
		pw->cols[c].nulls = nulls[c];
	}
}

int64
pqfdw_partition_finish(PqPartitionWriter *pw)
{
	if (pw->only != NULL && pw->only->next_file == 0)
		open_file(pw, pw->only);	/* the schema, without rows */
	while (!dlist_is_empty(&pw->open_files))
		close_file(pw, dlist_tail_element(Partition, lru, &pw->open_files));
	return pw->files;
}

void
pqfdw_partition_abort(PqPartitionWriter *pw)
{
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &pw->open_files)
	{
		Partition  *p = dlist_container(Partition, lru, it.cur);

		pqfdw_copy_sink_abort(&p->sink);
		dlist_delete(&p->lru);
	}
	pw->nopen = 0;
}
