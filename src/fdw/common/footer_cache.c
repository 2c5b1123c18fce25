/*-------------------------------------------------------------------------
 *
 * footer_cache.c
 *		Parsed footers kept across queries in the backend, so that planning
 *		and executing a query, and every later query, do not read and parse
 *		the same footers again.
 *
 * An entry holds what pq_file_open() built for a file (footer bytes,
 * FileMetaData, schema) in a memory context of its own, keyed by path and
 * valid only for the file's size, modification time, inode and device as
 * fstat() gives them when the file is opened, or stat() when only its
 * footer is wanted: a file that changed in any of these is read again,
 * never served stale.  Within one statement a file found unchanged is not
 * checked again (planning and execution of a query over 1000 files would
 * otherwise stat each twice); COPY TO forgets the entries of the files it
 * writes.  Callers get a view of the entry (pq_file_view), so
 * they never change it.  Files with encryption are not kept: their parsed
 * footers are only for holders of the keys.
 *
 * Views point into entries, so each view pins its entry until the memory
 * context the view was made in is reset or deleted: a replaced entry is
 * retired and freed at its last unpin, and the least recently used
 * unpinned entries are evicted until the entries fit
 * parquet_fdw.metadata_cache_size, whenever new entries have passed it by
 * an eighth, at the end of each planning (whose views are released then,
 * plan/plan_footers.c) and at the end of each transaction.  So a statement
 * holds the footers it uses at once (the planner: those of every file it
 * plans for; a scan: its open file), not every footer it ever read.  Views
 * made in a planning's context pin nothing (see planning_depth).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "common/hashfn.h"
#include "fdw/common/footer_cache.h"
#include "fdw/common/pg_compat.h"
#include "fdw/common/source.h"
#include "storage/proc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

/* GUC parquet_fdw.metadata_cache_size, in kB; 0: no cache */
int			pqfdw_metadata_cache_size = 256 * 1024;

/*
 * The key is a pointer to the path, copied into the entry's context: a
 * MAXPGPATH array inline made 10,000 entries 11 MB, and a planning that
 * peeks at each of them paid a cache miss or more per file.
 */
/*
 * The views of an entry: in the entry's own context, so that it outlives
 * the hash entry of a retired one.
 */
typedef struct FooterPins
{
	int			pins;
	bool		retired;		/* out of the table: freed at the last unpin */
	MemoryContext cxt;			/* the entry's */
	Size		bytes;
} FooterPins;

typedef struct FooterEntry
{
	const char *path;			/* hash key */
	PqFileStamp stamp;
	PqFile	   *file;			/* as pq_file_open() built it */
	MemoryContext cxt;
	Size		bytes;
	FooterPins *pins;
	uint64		last_use;

	/*
	 * The schema of another entry found equal to this one's, while no entry
	 * has been freed since (free_epoch): the address cannot have been reused.
	 */
	const PqSchema *same_schema_as;
	uint64		same_schema_epoch;

	/* the statement that last found the file unchanged */
	LocalTransactionId checked_lxid;
	TimestampTz checked_stmt;
} FooterEntry;

static MemoryContext cache_cxt = NULL;
static HTAB *entries = NULL;
static Size total_bytes = 0;	/* of the entries in the table */
static Size pinned_bytes = 0;	/* of those with views */
static Size trimmed_at = 0;		/* total_bytes after the last trim */

/*
 * Plannings in progress (plan/plan_footers.c).  The planner views the
 * footers of every file it plans for; pinning each of them cost planning
 * over 10,000 files a third more time.  So views made in a planning's
 * context pin nothing: instead no entry is freed while a planning runs
 * (those retired meanwhile wait in deferred), and the context is deleted
 * when the planning returns.
 */
static int	planning_depth = 0;
static MemoryContext planning_cxt = NULL;	/* the innermost planning's */
static List *deferred = NIL;	/* FooterPins of retired entries, unpinned */
static long peak_entries = 0;	/* most entries since the table was made */
static uint64 use_clock = 0;
static uint64 free_epoch = 1;	/* advances whenever entries are freed */

/*
 * The entry found last, with the string it was looked up by: the planner
 * peeks at a file and then asks whether its schema is the first file's,
 * by the same path string.
 */
static FooterEntry *last_found = NULL;
static const char *last_found_by = NULL;

static void footer_cache_xact(XactEvent event, void *arg);

static uint32
path_hash(const void *key, Size keysize)
{
	const char *path = *(const char *const *) key;

	return hash_bytes((const unsigned char *) path, strlen(path));
}

static int
path_match(const void *key1, const void *key2, Size keysize)
{
	return strcmp(*(const char *const *) key1, *(const char *const *) key2);
}

static HTAB *
new_table(long size)
{
	HASHCTL		ctl;

	ctl.keysize = sizeof(const char *);
	ctl.entrysize = sizeof(FooterEntry);
	ctl.hash = path_hash;
	ctl.match = path_match;
	ctl.hcxt = cache_cxt;
	return hash_create("parquet_fdw footer entries", size, &ctl,
					   HASH_ELEM | HASH_FUNCTION | HASH_COMPARE |
					   HASH_CONTEXT);
}

static void
cache_init(void)
{
	cache_cxt = AllocSetContextCreate(TopMemoryContext,
									  "parquet_fdw footer cache",
									  ALLOCSET_SMALL_SIZES);
	entries = new_table(256);
	RegisterXactCallback(footer_cache_xact, NULL);
}

/*
 * A hash table never gives back the slots of removed entries: after a
 * statement over many files, move the few entries left to a new one.
 */
static void
shrink_table(void)
{
	long		n = hash_get_num_entries(entries);
	HTAB	   *fresh;
	HASH_SEQ_STATUS seq;
	FooterEntry *e;

	if (peak_entries < 1024 || n * 4 > peak_entries)
		return;
	fresh = new_table(Max(n, 256));
	hash_seq_init(&seq, entries);
	while ((e = hash_seq_search(&seq)) != NULL)
		*(FooterEntry *) hash_search(fresh, &e->path, HASH_ENTER, NULL) = *e;
	hash_destroy(entries);
	entries = fresh;
	last_found = NULL;
	peak_entries = n;
}

static int
by_last_use(const void *a, const void *b)
{
	uint64		x = (*(FooterEntry *const *) a)->last_use;
	uint64		y = (*(FooterEntry *const *) b)->last_use;

	return (x > y) - (x < y);
}

/* Remove e from the hash table; its context is the caller's to free. */
static void
remove_entry(FooterEntry *e)
{
	last_found = NULL;
	hash_search(entries, &e->path, HASH_REMOVE, NULL);
}

/*
 * Free a retired entry's memory once nothing points into it: no view pins
 * it, and no planning, whose views pin nothing, is running.
 */
static void
free_entry_memory(FooterPins *p)
{
	MemoryContext old;

	if (planning_depth > 0)
	{
		old = MemoryContextSwitchTo(cache_cxt);
		deferred = lappend(deferred, p);
		MemoryContextSwitchTo(old);
		return;
	}
	free_epoch++;
	MemoryContextDelete(p->cxt);
}

/* A view's context is reset or deleted: the entry may go. */
static void
unpin(void *arg)
{
	FooterPins *p = arg;

	if (--p->pins > 0)
		return;
	if (p->retired)
		free_entry_memory(p);
	else
		pinned_bytes -= p->bytes;
}

/* A view of e in the current memory context, pinning e while it lives. */
static PqFile *
view_of(FooterEntry *e, PqSource *src)
{
	PqFile	   *f = pq_file_view(e->file, src);
	MemoryContextCallback *cb;

	if (planning_depth > 0 && CurrentMemoryContext == planning_cxt)
		return f;
	cb = palloc(sizeof(MemoryContextCallback));

	if (e->pins->pins++ == 0)
		pinned_bytes += e->bytes;
	cb->func = unpin;
	cb->arg = e->pins;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);
	return f;
}

/*
 * Remove e from the table; its memory goes now, or with its last view.
 */
static void
retire_entry(FooterEntry *e)
{
	FooterPins *p = e->pins;

	total_bytes -= e->bytes;
	remove_entry(e);
	p->retired = true;
	if (p->pins == 0)
		free_entry_memory(p);
	else
		pinned_bytes -= p->bytes;
}

MemoryContext
pqfdw_footer_cache_planning_begin(void)
{
	MemoryContext outer = planning_cxt;

	planning_cxt = NULL;
	planning_depth++;
	return outer;
}

MemoryContext
pqfdw_footer_cache_planning_context(void)
{
	if (planning_depth == 0)
		return CurrentMemoryContext;
	if (planning_cxt == NULL)
		planning_cxt = AllocSetContextCreate(CurrentMemoryContext,
											 "parquet_fdw plan footers",
											 ALLOCSET_SMALL_SIZES);
	return planning_cxt;
}

void
pqfdw_footer_cache_planning_end(MemoryContext outer)
{
	List	   *waiting;
	ListCell   *lc;

	if (planning_cxt != NULL)
		MemoryContextDelete(planning_cxt);
	planning_cxt = outer;
	if (--planning_depth > 0)
		return;
	waiting = deferred;
	deferred = NIL;
	foreach(lc, waiting)
		free_entry_memory(lfirst(lc));
	list_free(waiting);
	pqfdw_footer_cache_trim();
}

void
pqfdw_footer_cache_trim(void)
{
	Size		cap = (Size) pqfdw_metadata_cache_size * 1024;
	HASH_SEQ_STATUS seq;
	FooterEntry *e;
	FooterEntry **all;
	long		n = 0;
	long		i;

	if (planning_depth > 0)
		return;
	trimmed_at = total_bytes;
	if (entries == NULL || total_bytes <= cap || total_bytes == pinned_bytes)
		return;
	all = MemoryContextAlloc(cache_cxt,
							 sizeof(FooterEntry *) * Max(hash_get_num_entries(entries), 1));
	hash_seq_init(&seq, entries);
	while ((e = hash_seq_search(&seq)) != NULL)
		if (e->pins->pins == 0)
			all[n++] = e;
	qsort(all, n, sizeof(FooterEntry *), by_last_use);
	for (i = 0; i < n && total_bytes > cap; i++)
		retire_entry(all[i]);
	pfree(all);
	trimmed_at = total_bytes;
	shrink_table();
}

static void
footer_cache_xact(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PARALLEL_ABORT || event == XACT_EVENT_PREPARE)
		pqfdw_footer_cache_trim();
}

static void
mark_checked(FooterEntry *e)
{
	e->checked_lxid = PQFDW_MY_LXID;
	e->checked_stmt = GetCurrentStatementStartTimestamp();
	e->last_use = ++use_clock;
}

/* path's entry, or NULL (none, or no cache). */
static FooterEntry *
find_entry(const char *path)
{
	FooterEntry *e;

	if (pqfdw_metadata_cache_size <= 0 || entries == NULL)
		return NULL;
	if (last_found != NULL && last_found_by == path &&
		strcmp(last_found->path, path) == 0)
		return last_found;
	e = hash_search(entries, &path, HASH_FIND, NULL);
	if (e != NULL)
	{
		last_found = e;
		last_found_by = path;
	}
	return e;
}

/* The entry for path when it holds the file as stamp says it is now. */
static FooterEntry *
current_entry(const char *path, const PqFileStamp *stamp)
{
	FooterEntry *e = find_entry(path);

	if (e == NULL || memcmp(&e->stamp, stamp, sizeof(PqFileStamp)) != 0)
		return NULL;
	mark_checked(e);
	return e;
}

bool
pqfdw_footer_cache_holds(const char *path, const PqFileStamp *stamp)
{
	FooterEntry *e = find_entry(path);

	return e != NULL && memcmp(&e->stamp, stamp, sizeof(PqFileStamp)) == 0;
}

bool
pqfdw_footer_cache_checked(const char *path, PqFileStamp *stamp)
{
	FooterEntry *e = find_entry(path);

	if (e == NULL || e->checked_lxid != PQFDW_MY_LXID ||
		e->checked_stmt != GetCurrentStatementStartTimestamp())
		return false;
	*stamp = e->stamp;
	return true;
}

void
pqfdw_footer_cache_forget(const char *path)
{
	FooterEntry *e = find_entry(path);

	if (e != NULL)
		retire_entry(e);
}

PqFile *
pqfdw_footer_cache_lookup(PqSource *src, const PqFileStamp *stamp)
{
	FooterEntry *e = current_entry(src->name, stamp);

	return e ? view_of(e, src) : NULL;
}

PqFile *
pqfdw_footer_cache_peek(PqSource *src)
{
	FooterEntry *e = find_entry(src->name);

	if (e == NULL)
		return NULL;
	e->last_use = ++use_clock;
	return view_of(e, src);
}

/* The entry f is a view of, or NULL (f was not served by the cache). */
static FooterEntry *
entry_of(const PqFile *f)
{
	FooterEntry *e = find_entry(f->src->name);

	return e != NULL && e->file->schema == f->schema ? e : NULL;
}

bool
pqfdw_footer_cache_same_schema(const PqFile *a, const PqFile *b)
{
	FooterEntry *e;

	if (a->schema == b->schema)
		return true;

	/*
	 * Only schemas of entries are remembered: their addresses stay theirs
	 * until an entry is freed (at the end of a transaction), so a schema
	 * remembered in this epoch is still that entry's, and a is its view.
	 */
	e = entry_of(b);
	if (e != NULL && e->same_schema_as == a->schema &&
		e->same_schema_epoch == free_epoch)
		return true;
	if (!pq_schema_node_equal(a->schema->root, b->schema->root))
		return false;
	if (e != NULL && entry_of(a) != NULL)
	{
		e->same_schema_as = a->schema;
		e->same_schema_epoch = free_epoch;
	}
	return true;
}

PqFile *
pqfdw_footer_cache_open(PqSource *src, const PqFileStamp *stamp)
{
	FooterEntry *e;
	MemoryContext cxt;
	MemoryContext old;
	PqFile	   *file;
	const char *key;
	bool		found;

	if (pqfdw_metadata_cache_size <= 0)
		return pq_file_open(src);
	if (entries == NULL)
		cache_init();

	e = find_entry(src->name);
	if (e != NULL && memcmp(&e->stamp, stamp, sizeof(PqFileStamp)) == 0)
	{
		mark_checked(e);
		return view_of(e, src);
	}

	/* parsed in a context of its own, kept only once parsing succeeded */
	cxt = AllocSetContextCreate(CurrentMemoryContext, "parquet_fdw footer",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	file = pq_file_open(src);
	MemoryContextSwitchTo(old);
	if (file->crypto != NULL)
		return file;

	/* the file changed */
	if (e != NULL)
		retire_entry(e);
	MemoryContextSetParent(cxt, cache_cxt);
	/* the key copied first: an entry never holds the caller's string */
	key = MemoryContextStrdup(cxt, src->name);
	e = hash_search(entries, &key, HASH_ENTER, &found);
	peak_entries = Max(peak_entries, hash_get_num_entries(entries));
	e->stamp = *stamp;
	e->file = file;
	e->cxt = cxt;
	e->pins = MemoryContextAllocZero(cxt, sizeof(FooterPins));
	e->pins->cxt = cxt;
	e->bytes = MemoryContextMemAllocated(cxt, true);
	e->pins->bytes = e->bytes;
	e->same_schema_as = NULL;
	mark_checked(e);
	total_bytes += e->bytes;
	file = view_of(e, src);
	/* new entries an eighth past the budget: the unpinned ones may go */
	if (total_bytes > (Size) pqfdw_metadata_cache_size * 1024 &&
		total_bytes - trimmed_at > (Size) pqfdw_metadata_cache_size * 128)
		pqfdw_footer_cache_trim();
	return file;
}
