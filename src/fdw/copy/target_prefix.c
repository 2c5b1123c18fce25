/*-------------------------------------------------------------------------
 *
 * target_prefix.c
 *		The target of a dataset COPY TO a URL (partition_by,
 *		file_size_bytes, row_groups_per_file): the objects below a prefix
 *		of a bucket.
 *
 * Object stores have no rename, so a tree cannot appear at one instant as
 * a local one does.  What is done instead:
 *
 *	- every file is a multipart upload (Azure: blocks), closed when the
 *	  file is written but completed only once every file is: an ERROR or a
 *	  cancel before that leaves no file visible (all uploads aborted);
 *	- then all completions go out together, so the files appear within
 *	  moments of each other, each whole;
 *	- success_marker: an empty "_SUCCESS" object is put last, as Spark and
 *	  Hadoop writers do, for readers that wait for it;
 *	- no option: the prefix must hold no object; overwrite_or_ignore: the
 *	  new files take the next free data_<n> numbers of each folder, so
 *	  nothing there is replaced; overwrite: the same, and once the new
 *	  files have appeared, the objects this COPY recognises as data files
 *	  of the old tree (data_<n>.parquet in any folder, and "_SUCCESS" at
 *	  the top) are deleted.  Other keys below the prefix are never touched.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "fdw/copy/copy_to.h"
#include "io/common/url.h"
#include "miscadmin.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#define MARKER "_SUCCESS"
/* Closed files whose parts may be in flight together. */
#define CLOSED_IN_FLIGHT 32
/* Deletions per pqfdw_remote_delete() call. */
#define DELETE_BATCH 1000

typedef struct FolderNumber
{
	char	   *folder;			/* relative to the prefix, "" at the top */
	int			next;
} FolderNumber;

static uint32
folder_hash(const void *key, Size keysize)
{
	const char *s = *(const char *const *) key;

	return hash_bytes((const unsigned char *) s, (int) strlen(s));
}

static int
folder_match(const void *a, const void *b, Size keysize)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

void
pqfdw_prefix_open(PqCopyPrefix *d, const PqfdwRemoteId *id, const char *url,
				  const PqCopyDatasetOptions *o,
				  const PqCopyRemoteOptions *ro)
{
	PqUrl	   *u;
	char	   *prefix;
	PqListing	listing;
	HASHCTL		ctl;
	int			i;

	memset(d, 0, sizeof(*d));
	d->cxt = CurrentMemoryContext;
	d->remote = *id;
	d->ro = *ro;
	d->overwrite = o->overwrite;
	d->success_marker = o->success_marker;
	d->url = pstrdup(url);
	while (strlen(d->url) > 0 && d->url[strlen(d->url) - 1] == '/')
		d->url[strlen(d->url) - 1] = '\0';
	u = pq_url_parse(url);
	if (u->key[0] == '\0' || strspn(u->key, "/") == strlen(u->key))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("COPY target \"%s\" cannot be a whole bucket", u->display),
				 errhint("Name a prefix in it, as in s3://bucket/dataset.")));
	if (pq_url_key_has_glob(u->key, NULL))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("COPY target \"%s\" holds a glob character", u->display)));

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(char *);
	ctl.entrysize = sizeof(FolderNumber);
	ctl.hash = folder_hash;
	ctl.match = folder_match;
	ctl.hcxt = CurrentMemoryContext;
	d->numbers = hash_create("parquet COPY TO folder numbers", 64, &ctl,
							 HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);

	prefix = psprintf("%s/", d->url);
	pqfdw_remote_list(id, prefix, NULL, &listing);
	if (listing.nobjects > 0 && !o->overwrite && !o->overwrite_or_ignore)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_FILE),
				 errmsg("COPY target \"%s\" already exists", pq_url_parse(prefix)->display),
				 errdetail("%d objects are below it.", listing.nobjects),
				 errhint("Use COPY option overwrite_or_ignore to add files to its tree, or overwrite to replace its data files.")));
	d->old = palloc(sizeof(char *) * Max(listing.nobjects, 1));
	for (i = 0; i < listing.nobjects; i++)
	{
		const char *key = listing.objects[i].key;
		const char *rel = key + strlen(prefix);
		const char *slash = strrchr(rel, '/');
		const char *name = slash ? slash + 1 : rel;
		int			n = pqfdw_data_file_number(name);
		char	   *folder;
		FolderNumber *f;
		bool		found;

		if (strncmp(key, prefix, strlen(prefix)) != 0)
			continue;
		if (n < 0)
		{
			if (slash == NULL && strcmp(name, MARKER) == 0)
				d->old_marker = pstrdup(key);
			continue;
		}
		d->old[d->nold++] = pstrdup(key);
		folder = slash ? pnstrdup(rel, slash - rel) : pstrdup("");
		f = hash_search(d->numbers, &folder, HASH_ENTER, &found);
		if (!found)
			f->next = 0;
		f->next = Max(f->next, n + 1);
	}
}

int
pqfdw_prefix_first_number(PqCopyPrefix *d, const char *folder)
{
	FolderNumber *f = hash_search(d->numbers, &folder, HASH_FIND, NULL);

	return f ? f->next : 0;
}

void
pqfdw_prefix_add(PqCopyPrefix *d, PqfdwUpload *u)
{
	if (d->nclosed == d->closed_cap)
	{
		d->closed_cap = Max(64, d->closed_cap * 2);
		/* called while a batch is written, in its short-lived context */
		d->closed = d->closed ?
			repalloc(d->closed, sizeof(PqfdwUpload *) * d->closed_cap) :
			MemoryContextAlloc(d->cxt, sizeof(PqfdwUpload *) * d->closed_cap);
	}
	d->closed[d->nclosed++] = u;
	d->held += pqfdw_upload_held(u);

	/*
	 * Files close faster than their parts go out: the oldest are settled once
	 * sent, and waited for when too many bytes or requests are out.
	 */
	while (d->nsettled < d->nclosed)
	{
		PqfdwUpload *o = d->closed[d->nsettled];
		size_t		held = pqfdw_upload_held(o);
		bool		over = d->held > (size_t) d->ro.part_size * d->ro.parts_in_flight ||
		d->nclosed - d->nsettled > CLOSED_IN_FLIGHT;

		if (!pqfdw_upload_settle(o, over))
			break;
		d->held -= held;
		d->nsettled++;
	}
}

/* Delete urls[0..n), DELETE_BATCH at a time. */
static void
delete_all(PqCopyPrefix *d, char **urls, int n)
{
	int			from;

	for (from = 0; from < n; from += DELETE_BATCH)
	{
		CHECK_FOR_INTERRUPTS();
		pqfdw_remote_delete(&d->remote, (const char *const *) urls + from,
							Min(DELETE_BATCH, n - from));
	}
}

void
pqfdw_prefix_finish(PqCopyPrefix *d)
{
	int			n = d->nclosed;

	/* a reader waiting for the marker must not see the new files' mix */
	if (d->overwrite && d->old_marker)
		delete_all(d, &d->old_marker, 1);
	d->nclosed = d->nsettled = 0;
	d->held = 0;
	pqfdw_upload_complete_many(d->closed, n);
	if (d->overwrite)
		delete_all(d, d->old, d->nold);
	if (d->success_marker)
		pqfdw_remote_put(&d->remote, psprintf("%s/%s", d->url, MARKER), "", 0);
}

void
pqfdw_prefix_abort(PqCopyPrefix *d)
{
	int			i;

	for (i = 0; i < d->nclosed; i++)
		pqfdw_upload_abort(d->closed[i]);
	d->nclosed = d->nsettled = 0;
	d->held = 0;
}
