/*-------------------------------------------------------------------------
 *
 * iceberg_table.c
 *		An Apache Iceberg table's snapshot: the current metadata file found
 *		and parsed (table/iceberg/), the snapshot asked for chosen, its
 *		manifest list and manifests read, and the result turned into what
 *		the scan reads: data files with their sequence numbers, identity
 *		partition values and the delete files that apply to each.
 *
 * A snapshot is kept per backend, keyed by the metadata file (its name
 * and stamp) and snapshot id, and revalidated once per statement by
 * finding the current metadata file again: a table whose metadata did not
 * change is not read again.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "fdw/table/iceberg_files.h"
#include "table/iceberg/value_text.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

typedef struct CachedIceberg
{
	char	   *location;
	PqfdwRemoteId remote;
	char	   *location_map;	/* "" for none */
	char	   *metadata_file;
	PqfdwIcebergStamp stamp;
	int64		snapshot_id;	/* -1: none */
	int32		schema_id;		/* the schema it reads with */
	TimestampTz used_stmt;		/* kept while its statement runs */
	MemoryContext cxt;
	PqfdwTableSnapshot *snap;
} CachedIceberg;

typedef struct AskedIceberg
{
	char	   *location;
	PqfdwRemoteId remote;
	char	   *location_map;
	PqfdwTableVersion at;
	char	   *ref;
	CachedIceberg *answer;
} AskedIceberg;

#define PQFDW_ICEBERG_KEPT 8

static List *cache = NIL;		/* of CachedIceberg, most recent first */
static List *asked = NIL;		/* of AskedIceberg, this statement's */
static TimestampTz asked_stmt = 0;
static TimestampTz asked_xact = 0;

/* ------------------------------------------------------------ helpers */

const PqIcebergField *
pqfdw_iceberg_schema_field(const PqIcebergSchema *schema, int32 id)
{
	int			i;

	for (i = 0; i < schema->nfields; i++)
		if (schema->fields[i].id == id)
			return &schema->fields[i];
	return NULL;
}

static bool
spec_unpartitioned(const PqIcebergSpec *spec)
{
	int			i;

	if (spec == NULL)
		return true;
	for (i = 0; i < spec->nfields; i++)
		if (strcmp(spec->fields[i].transform, "void") != 0)
			return false;
	return true;
}

static bool
same_partition(const PqIcebergDataFile *a, int32 spec_a,
			   const PqIcebergDataFile *b, int32 spec_b)
{
	int			i;

	if (spec_a != spec_b || a->npartition != b->npartition)
		return false;
	for (i = 0; i < a->npartition; i++)
	{
		const PqIcebergValue *x = &a->partition[i].value;
		const PqIcebergValue *y = &b->partition[i].value;

		if (x->type != y->type || x->i != y->i || x->len != y->len ||
			(x->type == PQ_ICEBERG_FLOAT || x->type == PQ_ICEBERG_DOUBLE ?
			 memcmp(&x->d, &y->d, sizeof(double)) != 0 : false) ||
			(x->len > 0 && memcmp(x->bytes, y->bytes, x->len) != 0))
			return false;
	}
	return true;
}

static bool
is_parquet(const char *format)
{
	return format != NULL && pg_strcasecmp(format, "parquet") == 0;
}

/*
 * Which schema a snapshot reads, as Java's Iceberg chooses it: its own
 * when time travelling by id, time or tag; the table's current one for the
 * current snapshot and for branches (whose later commits use it).
 */
static const PqIcebergSchema *
snapshot_schema(const PqIcebergMetadata *md, const PqIcebergSnapshot *snap,
				const PqfdwTableVersion *at)
{
	const PqIcebergSchema *s = NULL;
	bool		own = at->version != -1 || at->by_time;
	int			i;

	if (at->schema_id >= 0 && (s = pq_iceberg_schema(md, at->schema_id)) != NULL)
		return s;

	for (i = 0; at->ref != NULL && i < md->nrefs; i++)
		if (strcmp(md->refs[i].name, at->ref) == 0)
			own = md->refs[i].is_tag;
	if (snap != NULL && own && snap->schema_id >= 0)
		s = pq_iceberg_schema(md, snap->schema_id);
	return s ? s : pq_iceberg_schema(md, md->current_schema_id);
}

/* The top-level entries of schema.name-mapping.default. */
static void
name_mapping(PqfdwTableSnapshot *s, const char *location)
{
	const char *text = pq_iceberg_property(s->ice_md,
										   "schema.name-mapping.default");
	const char *why = NULL;
	PqJv	   *root;
	uint32		i;

	if (text == NULL)
		return;
	root = pq_jv_parse(text, strlen(text), &why);
	if (root == NULL || root->type != PQ_JV_ARRAY)
		pqfdw_iceberg_corrupt(location,
							  psprintf("its schema.name-mapping.default is not a JSON array%s%s",
									   why ? ": " : "", why ? why : ""));
	s->mapped_ids = palloc(sizeof(int32) * Max(root->len, 1));
	s->mapped_names = palloc(sizeof(char **) * Max(root->len, 1));
	for (i = 0; i < root->len; i++)
	{
		const PqJv *e = &root->u.items[i];
		const PqJv *id = e->type == PQ_JV_OBJECT ? pq_jv_get(e, "field-id") : NULL;
		const PqJv *names = e->type == PQ_JV_OBJECT ? pq_jv_get(e, "names") : NULL;
		int64		v;
		const char **list;
		uint32		k;
		int			n = 0;

		/* an entry without an id only names fields no id reaches */
		if (id == NULL || !pq_jv_int64(id, &v) || v < 0 || v > PG_INT32_MAX ||
			names == NULL || names->type != PQ_JV_ARRAY)
			continue;
		list = palloc(sizeof(char *) * (names->len + 1));
		for (k = 0; k < names->len; k++)
			if (names->u.items[k].type == PQ_JV_STRING)
				list[n++] = names->u.items[k].u.str;
		list[n] = NULL;
		s->mapped_ids[s->nmapped] = (int32) v;
		s->mapped_names[s->nmapped++] = list;
	}
}

/* ------------------------------------------------------------ building */

typedef struct Building
{
	const PqfdwTableRef *ref;
	PqfdwIcebergPaths paths;
	const PqIcebergMetadata *md;
	const PqIcebergSchema *schema;
	int			ndata;
	int			maxdata;
	PqfdwIcebergFile **data;
	char	  **data_paths;
	List	   *deletes;		/* of PqfdwIcebergDelete */
} Building;

static uint8 *
read_avro(Building *b, const char *recorded, const char *what, size_t *len,
		  char **path)
{
	*path = pqfdw_iceberg_map_path(&b->paths, recorded);
	return pqfdw_iceberg_read(b->ref->remote, *path, what,
							  PQFDW_ICEBERG_MAX_FILE, len, false, NULL);
}

/* The identity partition values of a data file, by source field id. */
static void
identity_values(Building *b, PqfdwIcebergFile *f, const PqIcebergDataFile *df,
				const char *path)
{
	const PqIcebergSpec *spec = pq_iceberg_spec(b->md, f->spec_id);
	int			i;

	if (spec == NULL)
		return;
	f->identity_ids = palloc(sizeof(int32) * Max(spec->nfields, 1));
	f->identity_text = palloc(sizeof(char *) * Max(spec->nfields, 1));
	for (i = 0; i < spec->nfields; i++)
	{
		const PqIcebergPartitionField *pf = &spec->fields[i];
		const PqIcebergField *src;
		const char *why = NULL;
		int			k;

		if (strcmp(pf->transform, "identity") != 0 || pf->source_id < 0 ||
			(src = pqfdw_iceberg_schema_field(b->schema, pf->source_id)) == NULL ||
			!pq_iceberg_type_has_text(src->type))
			continue;
		for (k = 0; k < df->npartition; k++)
			if (df->partition[k].field_id == pf->field_id)
				break;
		if (k == df->npartition)
			continue;
		f->identity_ids[f->nidentity] = pf->source_id;
		f->identity_text[f->nidentity] =
			pq_iceberg_value_text(&df->partition[k].value, src->type, &why);
		if (why != NULL)
			pqfdw_iceberg_corrupt(b->ref->location,
								  psprintf("the partition value of column \"%s\" of data file \"%s\" is invalid: %s",
										   src->name, path, why));
		f->nidentity++;
	}
}

static void
add_entry(Building *b, const PqIcebergManifestFile *mf, const PqIcebergEntry *e,
		  const char *manifest)
{
	const PqIcebergDataFile *df = &e->file;
	char	   *path;

	if (e->status == PQ_ICEBERG_STATUS_DELETED)
		return;
	if (!e->has_sequence_number)
		pqfdw_iceberg_corrupt(b->ref->location,
							  psprintf("an entry of manifest \"%s\" has no data sequence number",
									   manifest));
	path = pqfdw_iceberg_map_path(&b->paths, df->file_path);
	if (df->content == PQ_ICEBERG_CONTENT_DATA)
	{
		PqfdwIcebergFile *f = palloc0(sizeof(PqfdwIcebergFile));

		if (!is_parquet(df->file_format))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("Iceberg table \"%s\" has data file \"%s\" in format %s, which parquet_fdw does not read",
							b->ref->location, path, df->file_format),
					 errhint("Only tables whose data files are Parquet can be read.")));
		f->sequence_number = e->sequence_number;
		f->spec_id = mf ? mf->partition_spec_id : b->md->default_spec_id;
		f->df = df;
		f->manifest = mf;
		identity_values(b, f, df, path);
		if (b->ndata == b->maxdata)
		{
			b->maxdata = Max(64, b->maxdata * 2);
			b->data = repalloc_huge(b->data, sizeof(PqfdwIcebergFile *) * b->maxdata);
			b->data_paths = repalloc_huge(b->data_paths, sizeof(char *) * b->maxdata);
		}
		b->data[b->ndata] = f;
		b->data_paths[b->ndata++] = path;
	}
	else
	{
		PqfdwIcebergDelete *d = palloc0(sizeof(PqfdwIcebergDelete));

		d->content = df->content;
		d->path = path;
		d->df = df;
		d->sequence_number = e->sequence_number;
		d->spec_id = mf ? mf->partition_spec_id : b->md->default_spec_id;
		d->dv = df->has_content_offset;
		if (d->dv && (df->content != PQ_ICEBERG_CONTENT_POSITION_DELETES ||
					  df->referenced_data_file == NULL ||
					  pg_strcasecmp(df->file_format, "puffin") != 0))
			pqfdw_iceberg_corrupt(b->ref->location,
								  psprintf("deletion vector \"%s\" is not a position delete in a Puffin file naming its data file",
										   path));
		if (!d->dv && !is_parquet(df->file_format))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("Iceberg table \"%s\" has delete file \"%s\" in format %s, which parquet_fdw does not read",
							b->ref->location, path, df->file_format)));
		if (df->content == PQ_ICEBERG_CONTENT_EQUALITY_DELETES &&
			df->nequality_ids == 0)
			pqfdw_iceberg_corrupt(b->ref->location,
								  psprintf("equality delete file \"%s\" has no equality field ids",
										   path));
		b->deletes = lappend(b->deletes, d);
	}
}

static void
read_manifests(Building *b, const PqIcebergSnapshot *snap)
{
	PqIcebergManifestFile *mfs = NULL;
	int			nmf = 0;
	int			i;
	const char *why = NULL;

	if (snap->manifest_list != NULL)
	{
		size_t		len;
		char	   *path;
		uint8	   *data = read_avro(b, snap->manifest_list, "manifest list",
									 &len, &path);

		if (!pq_iceberg_read_manifest_list(data, len, b->md->format_version,
										   &mfs, &nmf, &why))
			pqfdw_iceberg_corrupt(b->ref->location,
								  psprintf("its manifest list \"%s\" is invalid: %s",
										   path, why));
	}
	else
		nmf = snap->nmanifests;
	for (i = 0; i < nmf; i++)
	{
		const PqIcebergManifestFile *mf = mfs ? &mfs[i] : NULL;
		const char *recorded = mf ? mf->manifest_path : snap->manifests[i];
		PqIcebergEntry *entries;
		int			n;
		int			k;
		size_t		len;
		char	   *path;
		uint8	   *data = read_avro(b, recorded, "manifest", &len, &path);

		/*
		 * manifest_length is not checked: writers that rewrite a manifest's
		 * paths (moving a table) leave it stale, and readers (Java's) take it
		 * as a hint only.
		 */
		if (!pq_iceberg_read_manifest(data, len, mf, &entries, &n, &why))
			pqfdw_iceberg_corrupt(b->ref->location,
								  psprintf("manifest \"%s\" is invalid: %s",
										   path, why));
		for (k = 0; k < n; k++)
			add_entry(b, mf, &entries[k], path);
	}
}

typedef struct PathIndex
{
	const char *path;
	int			index;
} PathIndex;

static int
path_index_cmp(const void *a, const void *b)
{
	return strcmp(((const PathIndex *) a)->path, ((const PathIndex *) b)->path);
}

static void
add_delete(PqfdwIcebergFile *f, PqfdwIcebergDelete *d)
{
	if (f->ndeletes == 0)
		f->deletes = palloc(sizeof(PqfdwIcebergDelete *) * 4);
	else if ((f->ndeletes & (f->ndeletes - 1)) == 0 && f->ndeletes >= 4)
		f->deletes = repalloc(f->deletes,
							  sizeof(PqfdwIcebergDelete *) * f->ndeletes * 2);
	f->deletes[f->ndeletes++] = d;
}

/*
 * Which delete files apply to which data files (spec, "Scan Planning"):
 * a position delete (or deletion vector) to data files of a sequence
 * number at most its own, of its partition (or the one data file it
 * names); an equality delete to data files of a lower sequence number, of
 * its partition unless its spec is unpartitioned.
 */
static void
assign_deletes(Building *b, PqfdwTableSnapshot *s)
{
	PathIndex  *by_recorded = palloc(sizeof(PathIndex) * Max(s->nfiles, 1));
	ListCell   *lc;
	int			i;

	for (i = 0; i < s->nfiles; i++)
	{
		by_recorded[i].path = s->ice[i]->df->file_path;
		by_recorded[i].index = i;
	}
	if (s->nfiles > 1)
		qsort(by_recorded, s->nfiles, sizeof(PathIndex), path_index_cmp);
	foreach(lc, b->deletes)
	{
		PqfdwIcebergDelete *d = lfirst(lc);
		bool		pos = d->content == PQ_ICEBERG_CONTENT_POSITION_DELETES;
		bool global = !pos &&
		spec_unpartitioned(pq_iceberg_spec(b->md, d->spec_id));

		if (pos && d->df->referenced_data_file != NULL)
		{
			PathIndex	key = {d->df->referenced_data_file, 0};
			PathIndex  *hit = bsearch(&key, by_recorded, s->nfiles,
									  sizeof(PathIndex), path_index_cmp);

			if (hit != NULL &&
				s->ice[hit->index]->sequence_number <= d->sequence_number)
				add_delete(s->ice[hit->index], d);
			continue;
		}
		for (i = 0; i < s->nfiles; i++)
		{
			PqfdwIcebergFile *f = s->ice[i];

			if (pos ? f->sequence_number > d->sequence_number :
				f->sequence_number >= d->sequence_number)
				continue;
			if (!global &&!same_partition(f->df, f->spec_id, d->df, d->spec_id))
				continue;
			add_delete(f, d);
		}
	}
}

/*
 * The table's directory (a copy in the current context): location itself,
 * or for a metadata file the directory holding its metadata/ (where
 * recorded paths are mapped to).
 */
static const char *
table_dir(const char *location)
{
	size_t		len = strlen(location);
	char	   *dir;
	char	   *slash;

	dir = pstrdup(location);
	if (len <= 14 || strcmp(location + len - 14, ".metadata.json") != 0)
		return dir;
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	len = strlen(dir);
	if (len >= 9 && strcmp(dir + len - 9, "/metadata") == 0)
		dir[len - 9] = '\0';
	return dir;
}

static PqfdwTableSnapshot *
build_snapshot(const PqfdwTableRef *ref, const char *metadata_file,
			   const PqIcebergMetadata *md, const PqIcebergSnapshot *isnap,
			   List *map)
{
	PqfdwTableSnapshot *s = palloc0(sizeof(PqfdwTableSnapshot));
	Building	b;
	PathIndex  *order;
	int			i;

	memset(&b, 0, sizeof(b));
	b.ref = ref;
	b.md = md;
	b.paths.location = table_dir(ref->location);
	b.paths.recorded_location = md->location;
	b.paths.map = map;
	b.paths.remote = ref->remote != NULL;
	b.schema = snapshot_schema(md, isnap, &ref->at);
	b.maxdata = 64;
	b.data = palloc(sizeof(PqfdwIcebergFile *) * b.maxdata);
	b.data_paths = palloc(sizeof(char *) * b.maxdata);

	s->format = PQFDW_FORMAT_ICEBERG;
	s->location = pstrdup(ref->location);
	s->version = isnap ? isnap->snapshot_id : -1;
	s->ice_md = md;
	s->ice_schema = b.schema;
	s->metadata_file = pstrdup(metadata_file);
	s->table_dir = (char *) b.paths.location;
	s->mapping = PQ_DELTA_MAPPING_NONE;
	name_mapping(s, ref->location);

	/* the schema's top-level names, for lookups shared with Delta */
	s->schema.nfields = b.schema->nfields;
	s->schema.fields = palloc0(sizeof(PqDeltaField) * Max(b.schema->nfields, 1));
	for (i = 0; i < b.schema->nfields; i++)
	{
		s->schema.fields[i].name = b.schema->fields[i].name;
		s->schema.fields[i].id = b.schema->fields[i].id;
		s->schema.fields[i].type = b.schema->fields[i].type;
		s->schema.fields[i].nullable = !b.schema->fields[i].required;
	}

	if (isnap != NULL)
		read_manifests(&b, isnap);

	order = palloc(sizeof(PathIndex) * Max(b.ndata, 1));
	for (i = 0; i < b.ndata; i++)
	{
		order[i].path = b.data_paths[i];
		order[i].index = i;
	}
	if (b.ndata > 1)
		qsort(order, b.ndata, sizeof(PathIndex), path_index_cmp);
	s->nfiles = b.ndata;
	s->paths = palloc(sizeof(char *) * Max(b.ndata, 1));
	s->files = palloc(sizeof(PqDeltaFile *) * Max(b.ndata, 1));
	s->ice = palloc(sizeof(PqfdwIcebergFile *) * Max(b.ndata, 1));
	for (i = 0; i < b.ndata; i++)
	{
		PqfdwIcebergFile *f = b.data[order[i].index];
		PqDeltaFile *df = palloc0(sizeof(PqDeltaFile));

		if (i > 0 && strcmp(order[i].path, order[i - 1].path) == 0)
			pqfdw_iceberg_corrupt(ref->location,
								  psprintf("data file \"%s\" is live twice",
										   order[i].path));
		df->path = (char *) f->df->file_path;
		df->size = f->df->file_size_in_bytes;
		df->modification_time = -1;
		df->version = f->sequence_number;
		s->paths[i] = (char *) order[i].path;
		s->files[i] = df;
		s->ice[i] = f;
		s->path_list = lappend(s->path_list, s->paths[i]);
	}
	assign_deletes(&b, s);
	{
		PqfdwIcebergPaths *paths = palloc(sizeof(PqfdwIcebergPaths));

		*paths = b.paths;
		paths->location = s->table_dir;
		s->ice_paths = paths;
	}
	return s;
}

/* ------------------------------------------------------------ choosing */

static const PqIcebergSnapshot *
choose_snapshot(const PqfdwTableRef *ref, const PqIcebergMetadata *md)
{
	const PqIcebergSnapshot *snap;

	if (ref->at.ref != NULL)
	{
		snap = pq_iceberg_snapshot_by_ref(md, ref->at.ref);
		if (snap == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Iceberg table \"%s\" has no branch or tag \"%s\"",
							ref->location, ref->at.ref),
					 errhint("parquet_fdw.table_versions() lists the table's snapshots.")));
		return snap;
	}
	if (ref->at.version != -1)
	{
		snap = pq_iceberg_snapshot(md, ref->at.version);
		if (snap == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Iceberg table \"%s\" has no snapshot " INT64_FORMAT,
							ref->location, ref->at.version),
					 errhint("parquet_fdw.table_versions() lists the table's snapshots.")));
		return snap;
	}
	if (ref->at.by_time)
	{
		int64		ms = (ref->at.time + ((POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) *
										  USECS_PER_DAY)) / 1000;

		snap = pq_iceberg_snapshot_as_of(md, ms);
		if (snap == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Iceberg table \"%s\" has no snapshot current at %s",
							ref->location, timestamptz_to_str(ref->at.time)),
					 errhint("parquet_fdw.table_versions() lists the table's snapshots.")));
		return snap;
	}
	return pq_iceberg_snapshot(md, md->current_snapshot_id);
}

static bool
same_remote(const PqfdwRemoteId *a, const PqfdwRemoteId *b)
{
	return memcmp(a, b, sizeof(PqfdwRemoteId)) == 0;
}

static AskedIceberg *
asked_before(const PqfdwTableRef *ref, const PqfdwRemoteId *remote,
			 const char *map)
{
	ListCell   *lc;

	if (asked_stmt != GetCurrentStatementStartTimestamp() ||
		asked_xact != GetCurrentTransactionStartTimestamp())
	{
		foreach(lc, asked)
		{
			AskedIceberg *a = lfirst(lc);

			pfree(a->location);
			pfree(a->location_map);
			if (a->ref)
				pfree(a->ref);
		}
		list_free_deep(asked);
		asked = NIL;
		asked_stmt = GetCurrentStatementStartTimestamp();
		asked_xact = GetCurrentTransactionStartTimestamp();
	}
	foreach(lc, asked)
	{
		AskedIceberg *a = lfirst(lc);

		if (strcmp(a->location, ref->location) == 0 &&
			same_remote(&a->remote, remote) &&
			strcmp(a->location_map, map) == 0 &&
			a->at.version == ref->at.version &&
			a->at.schema_id == ref->at.schema_id &&
			a->at.by_time == ref->at.by_time &&
			(!ref->at.by_time || a->at.time == ref->at.time) &&
			((a->ref == NULL && ref->at.ref == NULL) ||
			 (a->ref != NULL && ref->at.ref != NULL &&
			  strcmp(a->ref, ref->at.ref) == 0)))
			return a;
	}
	return NULL;
}

static void
remember(const PqfdwTableRef *ref, const PqfdwRemoteId *remote,
		 const char *map, CachedIceberg *c)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
	AskedIceberg *a = palloc0(sizeof(AskedIceberg));

	a->location = pstrdup(ref->location);
	a->remote = *remote;
	a->location_map = pstrdup(map);
	a->at = ref->at;
	a->ref = ref->at.ref ? pstrdup(ref->at.ref) : NULL;
	a->at.ref = NULL;
	a->answer = c;
	asked = lappend(asked, a);
	c->used_stmt = GetCurrentStatementStartTimestamp();
	MemoryContextSwitchTo(old);
}

/* Forget the least recently used snapshots no statement is reading. */
static void
evict(void)
{
	TimestampTz now = GetCurrentStatementStartTimestamp();
	int			i;

	for (i = list_length(cache) - 1;
		 i >= 0 && list_length(cache) >= PQFDW_ICEBERG_KEPT; i--)
	{
		CachedIceberg *c = list_nth(cache, i);

		if (c->used_stmt == now)
			continue;
		cache = list_delete_nth_cell(cache, i);
		MemoryContextDelete(c->cxt);
		pfree(c->location);
		pfree(c->location_map);
		pfree(c->metadata_file);
		pfree(c);
	}
}

/*
 * ERROR 0A000 when a metadata file the parser refused is of a format
 * version this reader does not know: a newer table, not a broken one.
 */
static void
unsupported_version(const char *location, const char *file,
					const uint8 *text, size_t len)
{
	const PqJv *root = pq_jv_parse((const char *) text, len, NULL);
	const PqJv *v = root && root->type == PQ_JV_OBJECT ?
	pq_jv_get(root, "format-version") : NULL;
	int64		version;

	if (v != NULL && pq_jv_int64(v, &version) &&
		version > PQ_ICEBERG_MAX_FORMAT_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Iceberg table \"%s\" is of format version " INT64_FORMAT ", which parquet_fdw does not read",
						location, version),
				 errdetail("Metadata file \"%s\" says so; versions 1 to %d are read.",
						   file, PQ_ICEBERG_MAX_FORMAT_VERSION)));
}

const PqfdwTableSnapshot *
pqfdw_iceberg_snapshot(const PqfdwTableRef *ref)
{
	PqfdwRemoteId none = {InvalidOid, InvalidOid};
	const PqfdwRemoteId *key = ref->remote ? ref->remote : &none;
	const char *map = ref->location_map ? ref->location_map : "";
	AskedIceberg *a = asked_before(ref, key, map);
	char	   *file;
	PqfdwIcebergStamp stamp;
	size_t		len;
	uint8	   *text;
	MemoryContext cxt;
	MemoryContext old;
	PqIcebergMetadata *md;
	const PqIcebergSnapshot *isnap;
	const char *why = NULL;
	CachedIceberg *c;
	PqfdwTableSnapshot *snap;
	ListCell   *lc;

	if (a != NULL)
		return a->answer->snap;

	file = pqfdw_iceberg_metadata_file(ref->location, ref->remote);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "parquet_fdw Iceberg snapshot",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	text = pqfdw_iceberg_read(ref->remote, file, "metadata file",
							  PQFDW_ICEBERG_MAX_FILE, &len, false, &stamp);

	if (len > 3 && text[0] == 0x1f && text[1] == 0x8b)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Iceberg metadata file \"%s\" is compressed, which parquet_fdw does not read",
						file)));
	md = palloc0(sizeof(PqIcebergMetadata));
	if (!pq_iceberg_parse_metadata((const char *) text, len, md, &why))
	{
		unsupported_version(ref->location, file, text, len);
		pqfdw_iceberg_corrupt(ref->location,
							  psprintf("its metadata file \"%s\" is invalid: %s",
									   file, why));
	}
	isnap = choose_snapshot(ref, md);
	MemoryContextSwitchTo(old);

	foreach(lc, cache)
	{
		c = lfirst(lc);
		if (strcmp(c->location, ref->location) == 0 &&
			same_remote(&c->remote, key) &&
			strcmp(c->location_map, map) == 0 &&
			strcmp(c->metadata_file, file) == 0 &&
			memcmp(&c->stamp, &stamp, sizeof(stamp)) == 0 &&
			c->snapshot_id == (isnap ? isnap->snapshot_id : -1) &&
			c->schema_id == snapshot_schema(md, isnap, &ref->at)->schema_id)
		{
			MemoryContextDelete(cxt);
			old = MemoryContextSwitchTo(TopMemoryContext);
			cache = list_delete_cell(cache, lc);
			cache = lcons(c, cache);
			MemoryContextSwitchTo(old);
			remember(ref, key, map, c);
			return c->snap;
		}
	}

	old = MemoryContextSwitchTo(cxt);
	snap = build_snapshot(ref, file, md, isnap,
						  ref->location_map ?
						  pqfdw_iceberg_parse_location_map(ref->location_map) : NIL);
	snap->cxt = cxt;
	MemoryContextSwitchTo(old);

	MemoryContextSetParent(cxt, TopMemoryContext);
	foreach(lc, cache)
	{
		CachedIceberg *k = lfirst(lc);

		if (strcmp(k->location, ref->location) == 0 &&
			same_remote(&k->remote, key) &&
			k->schema_id != snap->ice_schema->schema_id)
			pqfdw_table_schema_generation++;
	}
	evict();
	/* the entry outlives its context's deletion (evict) */
	old = MemoryContextSwitchTo(TopMemoryContext);
	c = palloc0(sizeof(CachedIceberg));
	c->snap = snap;
	c->location = pstrdup(ref->location);
	c->remote = *key;
	c->location_map = pstrdup(map);
	c->metadata_file = pstrdup(file);
	c->stamp = stamp;
	c->snapshot_id = isnap ? isnap->snapshot_id : -1;
	c->schema_id = snap->ice_schema->schema_id;
	c->cxt = cxt;
	cache = lcons(c, cache);
	MemoryContextSwitchTo(old);
	remember(ref, key, map, c);
	return c->snap;
}

/* ------------------------------------------------------------ lookups */

static const PqIcebergField *
field_named(const PqIcebergSchema *schema, const char *name)
{
	const PqIcebergField *found = NULL;
	int			i;

	for (i = 0; i < schema->nfields; i++)
		if (strcmp(schema->fields[i].name, name) == 0)
			return &schema->fields[i];
	for (i = 0; i < schema->nfields; i++)
		if (pg_strcasecmp(schema->fields[i].name, name) == 0)
		{
			if (found != NULL)
				return NULL;
			found = &schema->fields[i];
		}
	return found;
}

bool
pqfdw_iceberg_field_id(const PqfdwTableSnapshot *s, const char *name,
					   int32 *id, const char *const **names)
{
	const PqIcebergField *f = field_named(s->ice_schema, name);
	int			i;

	if (f == NULL)
		return false;
	*id = f->id;
	*names = NULL;
	for (i = 0; i < s->nmapped; i++)
		if (s->mapped_ids[i] == f->id)
			*names = s->mapped_names[i];
	return true;
}

const char *
pqfdw_iceberg_missing_value(const PqfdwTableSnapshot *s, int file,
							const char *name)
{
	const PqIcebergField *f = field_named(s->ice_schema, name);
	const PqfdwIcebergFile *ice = s->ice[file];
	const char *why = NULL;
	char	   *text;
	int			i;

	if (f == NULL)
		return NULL;
	for (i = 0; i < ice->nidentity; i++)
		if (ice->identity_ids[i] == f->id)
			return ice->identity_text[i];
	if (f->initial_default == NULL)
		return NULL;
	text = pq_iceberg_default_text(f->initial_default, f->type, &why);

	if (why != NULL)
		pqfdw_iceberg_corrupt(s->location,
							  psprintf("the initial-default of column \"%s\" is invalid: %s",
									   f->name, why));
	return text;
}
